package org.sourceoftruth.records.ipam;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** IPAM representations, choices and defaults, validity and uniqueness rules. */
@QuarkusTest
class IpamModelsTest {

    @Test
    void prefixFullAndBriefFormsWithFamilyAndDefaults() {
        String b = Ipam.v4Block();
        int id = Ipam.prefix(b + ".0/24", null);
        auth().get("/api/ipam/prefixes/" + id + "/")
                .then()
                .statusCode(200)
                .body("prefix", equalTo(b + ".0/24"))
                .body("display", equalTo(b + ".0/24"))
                .body("family.value", equalTo(4))
                .body("family.label", equalTo("IPv4"))
                .body("status.value", equalTo("active"))
                .body("status.label", equalTo("Active"))
                .body("vrf", nullValue())
                .body("scope_type", nullValue())
                .body("scope_id", nullValue())
                .body("scope", nullValue())
                .body("is_pool", equalTo(false))
                .body("children", equalTo(0))
                .body("_depth", equalTo(0));
        // brief: NetBox's brief set in Meta.fields order, family as {value,label} (NetBox 4.4)
        Map<String, Object> brief = auth().get("/api/ipam/prefixes/" + id + "/?brief=1")
                .then()
                .statusCode(200)
                .extract()
                .as(Map.class);
        assertEquals(
                List.of("id", "url", "display", "family", "prefix", "description", "_depth"),
                List.copyOf(brief.keySet()));
        assertEquals(Map.of("value", 4, "label", "IPv4"), brief.get("family"));
        String v6 = Ipam.v6Block();
        int id6 = Ipam.prefix(v6 + "::/48", null);
        auth().get("/api/ipam/prefixes/" + id6 + "/")
                .then()
                .body("family.value", equalTo(6))
                .body("family.label", equalTo("IPv6"))
                .body("prefix", equalTo(v6 + "::/48"));
        auth().get("/api/ipam/prefixes/?brief=1&id=" + id6).then().body("results[0].family.value", equalTo(6));
        // every prefix status is accepted; an unknown one is not
        for (String status : List.of("container", "reserved", "deprecated")) {
            auth().body(Map.of("status", status))
                    .patch("/api/ipam/prefixes/" + id + "/")
                    .then()
                    .statusCode(200)
                    .body("status.value", equalTo(status));
        }
        auth().body(Map.of("status", "available"))
                .patch("/api/ipam/prefixes/" + id + "/")
                .then()
                .statusCode(400)
                .body("status", contains("\"available\" is not a valid choice."));
    }

    @Test
    void ipAddressRepresentationStatusesAndRoles() {
        String b = Ipam.v4Block();
        int id = create("/api/ipam/ip-addresses/", Map.of("address", b + ".5/24", "dns_name", "Host-1.Example.COM"));
        auth().get("/api/ipam/ip-addresses/" + id + "/")
                .then()
                .statusCode(200)
                .body("address", equalTo(b + ".5/24"))
                .body("display", equalTo(b + ".5/24"))
                .body("family.value", equalTo(4))
                .body("status.value", equalTo("active"))
                .body("role", nullValue())
                .body("assigned_object_type", nullValue())
                .body("assigned_object_id", nullValue())
                .body("assigned_object", nullValue())
                .body("nat_inside", nullValue())
                .body("nat_outside", equalTo(List.of()))
                .body("dns_name", equalTo("host-1.example.com"));
        // a bare address is a host address (/32), as NetBox reads it
        int host = Ipam.ip(b + ".6");
        auth().get("/api/ipam/ip-addresses/" + host + "/").then().body("address", equalTo(b + ".6/32"));
        auth().body(Map.of("status", "dhcp", "role", "vip"))
                .patch("/api/ipam/ip-addresses/" + id + "/")
                .then()
                .statusCode(200)
                .body("status.label", equalTo("DHCP"))
                .body("role.value", equalTo("vip"))
                .body("role.label", equalTo("VIP"));
        // SLAAC is for IPv6 only
        post("/api/ipam/ip-addresses/", Map.of("address", b + ".7/24", "status", "slaac"))
                .statusCode(400)
                .body("status", contains("Only IPv6 addresses can be assigned SLAAC status"));
        String v6 = Ipam.v6Block();
        int slaac = create("/api/ipam/ip-addresses/", Map.of("address", v6 + "::7/64", "status", "slaac"));
        auth().get("/api/ipam/ip-addresses/" + slaac + "/")
                .then()
                .body("status.label", equalTo("SLAAC"))
                .body("family.label", equalTo("IPv6"))
                .body("address", equalTo(v6 + "::7/64"));
        // NAT: the outside address points at the inside one; the inside one lists it
        int outside = create("/api/ipam/ip-addresses/", Map.of("address", b + ".8/24", "nat_inside", id));
        auth().get("/api/ipam/ip-addresses/" + outside + "/")
                .then()
                .body("nat_inside.id", equalTo(id))
                .body("nat_inside.address", equalTo(b + ".5/24"))
                .body("nat_inside.family.value", equalTo(4));
        auth().get("/api/ipam/ip-addresses/" + id + "/").then().body("nat_outside.id", contains(outside));
        post("/api/ipam/ip-addresses/", Map.of("address", b + ".9/24", "dns_name", "bad name!"))
                .statusCode(400)
                .body(
                        "dns_name",
                        contains("Only alphanumeric characters, asterisks, hyphens, periods, and underscores"
                                + " are allowed in DNS names"));
    }

    @Test
    void applicationRootAndOptionsListTheNewModels() {
        auth().get("/api/ipam/")
                .then()
                .statusCode(200)
                .body("$", org.hamcrest.Matchers.aMapWithSize(18))
                .body("prefixes", org.hamcrest.Matchers.endsWith("/api/ipam/prefixes/"))
                .body("ip-addresses", org.hamcrest.Matchers.endsWith("/api/ipam/ip-addresses/"));
        auth().get("/api/circuits/").then().body("$", org.hamcrest.Matchers.aMapWithSize(11));
        auth().get("/api/virtualization/")
                .then()
                .body("$", org.hamcrest.Matchers.aMapWithSize(7))
                .body("interfaces", org.hamcrest.Matchers.endsWith("/api/virtualization/interfaces/"));
        auth().options("/api/ipam/ip-addresses/")
                .then()
                .statusCode(200)
                .body("name", equalTo("IP Address List"))
                .body("actions.POST.status.choices.value", hasItem("slaac"))
                .body("actions.POST.role.choices.display_name", hasItem("VIP"))
                .body("actions.POST.address.required", equalTo(true));
    }

    @Test
    void prefixAndAddressValidityMessages() {
        String b = Ipam.v4Block();
        post("/api/ipam/prefixes/", Map.of("prefix", b + ".1/24"))
                .statusCode(400)
                .body("prefix", contains(b + ".1/24 is not a valid prefix. Did you mean " + b + ".0/24?"));
        post("/api/ipam/prefixes/", Map.of("prefix", "0.0.0.0/0"))
                .statusCode(400)
                .body("prefix", contains("Cannot create prefix with /0 mask."));
        post("/api/ipam/prefixes/", Map.of("prefix", b + ".0/33"))
                .statusCode(400)
                .body("prefix", contains("Invalid IP prefix format: " + b + ".0/33"));
        post("/api/ipam/ip-addresses/", Map.of("address", b + ".300/24"))
                .statusCode(400)
                .body("address", contains("Invalid IP address format: " + b + ".300/24"));
        post("/api/ipam/ip-addresses/", Map.of("address", "::/0"))
                .statusCode(400)
                .body("address", contains("Cannot create IP address with /0 mask."));
        post("/api/ipam/ip-addresses/", Map.of("address", 167772161))
                .statusCode(400)
                .body("address", contains("Invalid IP address format: 167772161"));
        auth().get("/api/ipam/prefixes/?within_include=" + b + ".0/24").then().body("count", equalTo(0));
    }

    @Test
    void duplicatesAreRefusedWhereUniquenessIsEnforced() {
        String b = Ipam.v4Block();
        String u = uniq();
        Ipam.ip(b + ".5/24");
        // global table (ENFORCE_GLOBAL_UNIQUE): the same host with another mask is a duplicate
        post("/api/ipam/ip-addresses/", Map.of("address", b + ".5/16"))
                .statusCode(400)
                .body("address", contains("Duplicate IP address found in global table: " + b + ".5/24"));
        Ipam.prefix(b + ".0/24", null);
        post("/api/ipam/prefixes/", Map.of("prefix", b + ".0/24"))
                .statusCode(400)
                .body("prefix", contains("Duplicate prefix found in global table: " + b + ".0/24"));
        // a VRF that enforces uniqueness refuses, one that does not allows; VRFs are separate tables
        int strict = Ipam.vrf("strict-" + u, "65000:" + u.hashCode(), true);
        int loose = Ipam.vrf("loose-" + u, "65001:" + u.hashCode(), false);
        create("/api/ipam/ip-addresses/", Map.of("address", b + ".5/24", "vrf", strict));
        post("/api/ipam/ip-addresses/", Map.of("address", b + ".5/24", "vrf", strict))
                .statusCode(400)
                .body(
                        "address",
                        contains("Duplicate IP address found in VRF strict-" + u + " (65000:" + u.hashCode() + "): " + b
                                + ".5/24"));
        create("/api/ipam/ip-addresses/", Map.of("address", b + ".5/24", "vrf", loose));
        create("/api/ipam/ip-addresses/", Map.of("address", b + ".5/24", "vrf", loose));
        create("/api/ipam/prefixes/", Map.of("prefix", b + ".0/24", "vrf", loose));
        create("/api/ipam/prefixes/", Map.of("prefix", b + ".0/24", "vrf", loose));
        // anycast/VIP-style roles may repeat when every copy has such a role
        create("/api/ipam/ip-addresses/", Map.of("address", b + ".9/24", "vrf", strict, "role", "anycast"));
        create("/api/ipam/ip-addresses/", Map.of("address", b + ".9/24", "vrf", strict, "role", "anycast"));
        post("/api/ipam/ip-addresses/", Map.of("address", b + ".9/24", "vrf", strict))
                .statusCode(400);
        auth().get("/api/ipam/ip-addresses/?parent=" + b + ".0/24&vrf_id=" + strict)
                .then()
                .body("count", equalTo(3));
        // rd is unique, the VRF name is not
        post("/api/ipam/vrfs/", Map.of("name", "strict-" + u, "rd", "65000:" + u.hashCode()))
                .statusCode(400)
                .body("rd", contains("VRF with this rd already exists."));
        create("/api/ipam/vrfs/", Map.of("name", "strict-" + u));
        auth().get("/api/ipam/vrfs/" + strict + "/")
                .then()
                .body("display", equalTo("strict-" + u + " (65000:" + u.hashCode() + ")"))
                .body("prefix_count", equalTo(0))
                .body("ipaddress_count", equalTo(3))
                .body("enforce_unique", equalTo(true));
    }

    @Test
    void vlansAreUniqueWithinTheirGroupAndInsideItsRanges() {
        String u = uniq();
        int g1 = create(
                "/api/ipam/vlan-groups/",
                Map.of(
                        "name",
                        "g1-" + u,
                        "slug",
                        "g1-" + u,
                        "vid_ranges",
                        List.of(List.of(100, 199), List.of(300, 310))));
        int g2 = create("/api/ipam/vlan-groups/", Map.of("name", "g2-" + u, "slug", "g2-" + u));
        int v = create("/api/ipam/vlans/", Map.of("vid", 100, "name", "users-" + u, "group", g1));
        auth().get("/api/ipam/vlans/" + v + "/")
                .then()
                .body("display", equalTo("users-" + u + " (100)"))
                .body("status.value", equalTo("active"))
                .body("group.id", equalTo(g1))
                .body("group.slug", equalTo("g1-" + u));
        post("/api/ipam/vlans/", Map.of("vid", 100, "name", "other-" + u, "group", g1))
                .statusCode(400)
                .body("__all__", contains("VLAN with this Group and VLAN ID already exists."));
        create("/api/ipam/vlans/", Map.of("vid", 100, "name", "users-" + u, "group", g2));
        create("/api/ipam/vlans/", Map.of("vid", 100, "name", "users-" + u));
        create("/api/ipam/vlans/", Map.of("vid", 100, "name", "users-" + u));
        post("/api/ipam/vlans/", Map.of("vid", 250, "name", "gap-" + u, "group", g1))
                .statusCode(400)
                .body("vid", contains("VID must be in ranges 100-199, 300-310 for VLANs in group g1-" + u));
        post("/api/ipam/vlans/", Map.of("vid", 4095, "name", "x-" + u))
                .statusCode(400)
                .body("vid", contains("Ensure this value is less than or equal to 4094."));
        post("/api/ipam/vlans/", Map.of("vid", 0, "name", "x-" + u))
                .statusCode(400)
                .body("vid", contains("Ensure this value is greater than or equal to 1."));
        for (String s : List.of("reserved", "deprecated")) {
            auth().body(Map.of("status", s))
                    .patch("/api/ipam/vlans/" + v + "/")
                    .then()
                    .statusCode(200)
                    .body("status.value", equalTo(s));
        }
        auth().get("/api/ipam/vlan-groups/" + g1 + "/")
                .then()
                .body("vlan_count", equalTo(1))
                .body("total_vlan_ids", equalTo(111))
                .body("utilization", equalTo("0.90"))
                .body("vid_ranges", equalTo(List.of(List.of(100, 199), List.of(300, 310))));
        auth().get("/api/ipam/vlan-groups/" + g2 + "/")
                .then()
                .body("vid_ranges", equalTo(List.of(List.of(1, 4094))))
                .body("total_vlan_ids", equalTo(4094));
        auth().get("/api/ipam/vlan-groups/?contains_vid=305&slug=g1-" + u)
                .then()
                .body("count", equalTo(1));
        auth().get("/api/ipam/vlan-groups/?contains_vid=250&slug=g1-" + u)
                .then()
                .body("count", equalTo(0));
        post(
                        "/api/ipam/vlan-groups/",
                        Map.of(
                                "name",
                                "g3-" + u,
                                "slug",
                                "g3-" + u,
                                "vid_ranges",
                                List.of(List.of(1, 100), List.of(50, 200))))
                .statusCode(400)
                .body("vid_ranges", contains("Ranges cannot overlap."));
        post(
                        "/api/ipam/vlan-groups/",
                        Map.of("name", "g3-" + u, "slug", "g3-" + u, "vid_ranges", List.of(List.of(1, 5000))))
                .statusCode(400)
                .body("vid_ranges", contains("Ending VLAN ID in range (5000) cannot exceed 4094"));
        // the VLAN's group is protected while it has VLANs
        auth().delete("/api/ipam/vlan-groups/" + g1 + "/").then().statusCode(409);
    }

    @Test
    void vlanGroupScopeAndSiteConsistency() {
        String u = uniq();
        int site = Api.site("vg");
        int other = Api.site("vg-other");
        int g = create(
                "/api/ipam/vlan-groups/",
                Map.of("name", "sg-" + u, "slug", "sg-" + u, "scope_type", "dcim.site", "scope_id", site));
        auth().get("/api/ipam/vlan-groups/" + g + "/")
                .then()
                .body("scope_type", equalTo("dcim.site"))
                .body("scope_id", equalTo(site))
                .body("scope.id", equalTo(site));
        auth().get("/api/ipam/vlan-groups/?site=" + site + "&slug=sg-" + u)
                .then()
                .body("count", equalTo(1));
        post("/api/ipam/vlans/", Map.of("vid", 10, "name", "v-" + u, "group", g, "site", other))
                .statusCode(400)
                .body("__all__", hasItem(org.hamcrest.Matchers.startsWith("VLAN is assigned to group sg-" + u)));
        create("/api/ipam/vlans/", Map.of("vid", 10, "name", "v-" + u, "group", g, "site", site));
        post("/api/ipam/vlan-groups/", Map.of("name", "x-" + u, "slug", "x-" + u, "scope_type", "dcim.site"))
                .statusCode(400)
                .body("scope_id", contains("This field cannot be null."));
    }

    @Test
    void ipRangesAggregatesRirsAndRoles() {
        String b = Ipam.v4Block();
        String u = uniq();
        int range = create("/api/ipam/ip-ranges/", Map.of("start_address", b + ".10/24", "end_address", b + ".20/24"));
        auth().get("/api/ipam/ip-ranges/" + range + "/")
                .then()
                .statusCode(200)
                .body("size", equalTo(11))
                .body("display", equalTo(b + ".10-20/24"))
                .body("family.value", equalTo(4))
                .body("status.value", equalTo("active"))
                .body("mark_populated", equalTo(false));
        post("/api/ipam/ip-ranges/", Map.of("start_address", b + ".15/24", "end_address", b + ".30/24"))
                .statusCode(400)
                .body("__all__", contains("Defined addresses overlap with range " + b + ".10-20/24 in VRF None"));
        post("/api/ipam/ip-ranges/", Map.of("start_address", b + ".50/24", "end_address", b + ".40/24"))
                .statusCode(400)
                .body(
                        "end_address",
                        contains("Ending address must be greater than or equal to the starting address (" + b
                                + ".50/24)"));
        post("/api/ipam/ip-ranges/", Map.of("start_address", b + ".50/24", "end_address", "2001:db8::1/24"))
                .statusCode(400)
                .body("end_address", contains("Starting and ending IP address versions must match"));
        post("/api/ipam/ip-ranges/", Map.of("start_address", b + ".50/24", "end_address", b + ".60/25"))
                .statusCode(400)
                .body("end_address", contains("Starting and ending IP address masks must match"));
        auth().body(Map.of("end_address", b + ".25/24", "mark_populated", true))
                .patch("/api/ipam/ip-ranges/" + range + "/")
                .then()
                .statusCode(200)
                .body("size", equalTo(16));
        post("/api/ipam/ip-addresses/", Map.of("address", b + ".12/24"))
                .statusCode(400)
                .body("address", contains("Cannot create IP address " + b + ".12/24 inside range " + b + ".10-25/24."));

        int rir = create("/api/ipam/rirs/", Map.of("name", "RIR " + u, "slug", "rir-" + u, "is_private", true));
        int agg =
                create("/api/ipam/aggregates/", Map.of("prefix", b + ".0/24", "rir", rir, "date_added", "2024-05-01"));
        auth().get("/api/ipam/aggregates/" + agg + "/")
                .then()
                .body("family.label", equalTo("IPv4"))
                .body("rir.slug", equalTo("rir-" + u))
                .body("date_added", equalTo("2024-05-01"));
        post("/api/ipam/aggregates/", Map.of("prefix", b + ".0/25", "rir", rir))
                .statusCode(400)
                .body(
                        "prefix",
                        contains("Aggregates cannot overlap. " + b + ".0/25 is already covered by an existing"
                                + " aggregate (" + b + ".0/24)."));
        auth().get("/api/ipam/rirs/" + rir + "/")
                .then()
                .body("aggregate_count", equalTo(1))
                .body("is_private", equalTo(true));
        auth().delete("/api/ipam/rirs/" + rir + "/").then().statusCode(409);

        int role = create("/api/ipam/roles/", Map.of("name", "Role " + u, "slug", "role-" + u, "weight", 10));
        Ipam.prefix(b + ".0/26", null);
        int p = auth().get("/api/ipam/prefixes/?prefix=" + b + ".0/26")
                .then()
                .extract()
                .path("results[0].id");
        auth().body(Map.of("role", role))
                .patch("/api/ipam/prefixes/" + p + "/")
                .then()
                .statusCode(200)
                .body("role.slug", equalTo("role-" + u));
        auth().get("/api/ipam/roles/" + role + "/")
                .then()
                .body("prefix_count", equalTo(1))
                .body("vlan_count", equalTo(0))
                .body("weight", equalTo(10));
        auth().get("/api/ipam/prefixes/?role=role-" + u).then().body("count", equalTo(1));
    }
}
