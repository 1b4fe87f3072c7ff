package org.sourceoftruth.records.graphql;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.Snapshots;

/**
 * Queries on /graphql/ against the real database: nested relations both ways, filters with
 * lookups and AND/OR/NOT, pagination, the caller's permissions, the depth and size limits, and
 * a statement count bounded by the query's depth.
 */
@QuarkusTest
class GraphqlQueryTest {

    static ValidatableResponse gql(RequestSpecification as, String query) {
        return gql(as, query, null);
    }

    static ValidatableResponse gql(RequestSpecification as, String query, Map<String, Object> variables) {
        Map<String, Object> body =
                variables == null ? Map.of("query", query) : Map.of("query", query, "variables", variables);
        return as.body(body).post("/graphql/").then().log().ifValidationFails();
    }

    /**
     * {@code count} devices named {@code gq-<u>-<n>} at the site, each with two interfaces with an
     * IP address in the VRF (created in bulk); returns the devices' ids. The addresses lie in
     * 198.19.0.0/16, away from the 10.0.0.0/16 blocks the IPAM tests count addresses in: a parent
     * filter or a prefix's address count spans every VRF.
     */
    private static List<Integer> devicesWithAddresses(String u, int site, int vrf, int count) {
        int[] tr = Api.deviceTypeAndRole();
        List<Map<String, Object>> devices = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            devices.add(Map.of("name", "gq-" + u + "-" + n, "site", site, "device_type", tr[0], "role", tr[1]));
        }
        List<Integer> ids = Api.post("/api/dcim/devices/", devices)
                .statusCode(201)
                .extract()
                .path("id");
        List<Map<String, Object>> interfaces = new ArrayList<>();
        for (int id : ids) {
            for (int i = 0; i < 2; i++) {
                interfaces.add(Map.of("device", id, "name", "eth" + i, "type", "1000base-t"));
            }
        }
        List<Integer> ifaces = Api.post("/api/dcim/interfaces/", interfaces)
                .statusCode(201)
                .extract()
                .path("id");
        int host = 1 + Math.floorMod(u.hashCode(), 250);
        List<Map<String, Object>> addresses = new ArrayList<>();
        for (int k = 0; k < ifaces.size(); k++) {
            addresses.add(Map.of(
                    "address",
                    "198." + (19 + k / 250) + "." + (k % 250) + "." + host + "/24",
                    "vrf",
                    vrf,
                    "assigned_object_type",
                    "dcim.interface",
                    "assigned_object_id",
                    ifaces.get(k)));
        }
        Api.post("/api/ipam/ip-addresses/", addresses).statusCode(201);
        return ids;
    }

    private static int vrf(String u) {
        return Api.create("/api/ipam/vrfs/", Map.of("name", "gv-" + u));
    }

    @Test
    void aDeviceWithItsInterfacesTheirAddressesAndTheirVrf() {
        String u = Api.uniq();
        int site = Api.site("gq");
        int vrf = vrf(u);
        int device = devicesWithAddresses(u, site, vrf, 1).get(0);
        gql(
                        Api.auth(),
                        "query($id: ID!) { device(id: $id) { id name status site { id slug } "
                                + "interfaces { name ip_addresses { address family vrf { name } } } } }",
                        Map.of("id", device))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.device.id", equalTo(String.valueOf(device)))
                .body("data.device.name", equalTo("gq-" + u + "-0"))
                .body("data.device.status", equalTo("active"))
                .body("data.device.site.id", equalTo(String.valueOf(site)))
                .body("data.device.interfaces.name", equalTo(List.of("eth0", "eth1")))
                .body("data.device.interfaces[0].ip_addresses", hasSize(1))
                .body("data.device.interfaces[1].ip_addresses[0].vrf.name", equalTo("gv-" + u))
                .body("data.device.interfaces[0].ip_addresses[0].family.value", equalTo(4));
    }

    /** NetBox's IPAM filters: an address's family, parent and assignment, the prefixes that contain an address. */
    @Test
    void addressesByFamilyParentAndAssignmentPrefixesByWhatTheyContain() {
        String u = Api.uniq();
        int vrf = vrf(u);
        devicesWithAddresses(u, Api.site("ga"), vrf, 1);
        String addresses = "{ ip_address_list(filters: {vrf_id: " + vrf + ", %s}) { id } }";
        gql(Api.auth(), String.format(addresses, "family: FAMILY_4, parent: [\"198.19.0.0/16\"], assigned: true"))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.ip_address_list", hasSize(2));
        gql(Api.auth(), String.format(addresses, "family: FAMILY_6"))
                .statusCode(200)
                .body("data.ip_address_list", empty());
        gql(Api.auth(), String.format(addresses, "parent: [\"10.0.0.0/8\"]"))
                .statusCode(200)
                .body("data.ip_address_list", empty());
        gql(Api.auth(), String.format(addresses, "assigned: false"))
                .statusCode(200)
                .body("data.ip_address_list", empty());
        gql(Api.auth(), String.format(addresses, "parent: [\"999.1.1.1\"]"))
                .statusCode(200)
                .body("errors[0].message", containsString("parent"));
        int prefix = Api.create("/api/ipam/prefixes/", Map.of("prefix", "198.19.0.0/23", "vrf", vrf));
        String prefixes = "{ prefix_list(filters: {vrf_id: " + vrf + ", contains: [\"%s\"]}) { id } }";
        gql(Api.auth(), String.format(prefixes, "198.19.1.7"))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.prefix_list.id", equalTo(List.of(String.valueOf(prefix))));
        gql(Api.auth(), String.format(prefixes, "198.20.0.1")).statusCode(200).body("data.prefix_list", empty());
    }

    @Test
    void aSitesDevicesPagedAndAnAddressesInterface() {
        String u = Api.uniq();
        int site = Api.site("gr");
        int[] tr = Api.deviceTypeAndRole();
        for (int i = 1; i <= 3; i++) {
            Api.device(site, tr, "gr-" + u + "-" + i);
        }
        gql(
                        Api.auth(),
                        "{ site(id: " + site + ") { devices(pagination: {offset: 1, limit: 1}) { name }"
                                + " all: devices { name site { id } } } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.site.devices.name", equalTo(List.of("gr-" + u + "-2")))
                .body("data.site.all.name", equalTo(List.of("gr-" + u + "-1", "gr-" + u + "-2", "gr-" + u + "-3")))
                .body("data.site.all[0].site.id", equalTo(String.valueOf(site)));
        gql(Api.auth(), "{ device_list(filters: {site_id: " + site + "}, pagination: {offset: 0, limit: 2}) { name } }")
                .statusCode(200)
                .body("data.device_list.name", equalTo(List.of("gr-" + u + "-1", "gr-" + u + "-2")));
        gql(Api.auth(), "{ device_list(filters: {site_id: " + site + "}, pagination: {offset: 2}) { name } }")
                .statusCode(200)
                .body("data.device_list.name", equalTo(List.of("gr-" + u + "-3")));
    }

    @Test
    void filtersWithLookupsAndAndOrNot() {
        String u = Api.uniq();
        int site = Api.site("gf");
        int other = Api.site("gf");
        int[] tr = Api.deviceTypeAndRole();
        int a = Api.device(site, tr, "gf-" + u + "-alpha");
        Api.device(site, tr, "gf-" + u + "-beta");
        Api.device(other, tr, "gf-" + u + "-gamma");
        Api.auth()
                .body(Map.of("status", "planned"))
                .patch("/api/dcim/devices/" + a + "/")
                .then()
                .statusCode(200);
        String prefix = "{name: {i_starts_with: \"GF-" + u + "\"}";
        assertNames(prefix + "}", "gf-" + u + "-alpha", "gf-" + u + "-beta", "gf-" + u + "-gamma");
        assertNames(prefix + ", status: {exact: STATUS_PLANNED}}", "gf-" + u + "-alpha");
        assertNames(prefix + ", status: {in_list: [STATUS_ACTIVE]}}", "gf-" + u + "-beta", "gf-" + u + "-gamma");
        assertNames(
                "{name: {exact: \"gf-" + u + "-alpha\"}, OR: {name: {ends_with: \"" + u + "-gamma\"}}}",
                "gf-" + u + "-alpha",
                "gf-" + u + "-gamma");
        assertNames(
                prefix + ", AND: {site_id: " + site + "}, NOT: {name: {i_contains: \"BETA\"}}}", "gf-" + u + "-alpha");
        assertNames(prefix + ", site: {id: {exact: " + other + "}}}", "gf-" + u + "-gamma");
        assertNames(prefix + ", id: {in_list: [" + a + "]}}", "gf-" + u + "-alpha");
        assertNames(
                "{id: {gt: " + a + ", lte: " + (a + 1) + "}, name: {contains: \"" + u + "\"}}", "gf-" + u + "-beta");
        // a bad lookup is a GraphQL error naming the field, not a 500
        gql(Api.auth(), "{ device_list(filters: {name: {regex: \"(\"}}) { name } }")
                .statusCode(200)
                .body("errors[0].message", containsString("name"))
                .body("errors[0].message", org.hamcrest.Matchers.not(containsString("SQL")));
        gql(Api.auth(), "{ device_list(filters: {nonsense: {exact: 1}}) { name } }")
                .statusCode(200)
                .body("errors[0].message", containsString("nonsense"));
    }

    /**
     * NetBox's names: an object's change records ({@code changelog}) and contact assignments
     * ({@code contacts}), a relation under NetBox's related name (a contact's
     * {@code assignments}), a shared enum ({@code ColorEnum}) and one a filter takes bare
     * ({@code auth_type: TYPE_OPEN}).
     */
    @Test
    void changelogContactsAndNetBoxsEnums() {
        String u = Api.uniq();
        int site = Api.site("gc");
        int contact = Api.create("/api/tenancy/contacts/", Map.of("name", "gc-" + u));
        int assignment = Api.create(
                "/api/tenancy/contact-assignments/",
                Map.of("object_type", "dcim.site", "object_id", site, "contact", contact, "priority", "primary"));
        gql(
                        Api.auth(),
                        "{ site(id: " + site + ") { contacts { id priority contact { name } }"
                                + " changelog { action changed_object_id } } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.site.contacts.id", equalTo(List.of(String.valueOf(assignment))))
                .body("data.site.contacts[0].contact.name", equalTo("gc-" + u))
                .body("data.site.contacts[0].priority", equalTo("primary"))
                .body("data.site.changelog.action", org.hamcrest.Matchers.hasItem("create"))
                .body("data.site.changelog.changed_object_id", org.hamcrest.Matchers.everyItem(equalTo(site)));
        gql(Api.auth(), "{ contact(id: " + contact + ") { assignments { id } } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.contact.assignments.id", equalTo(List.of(String.valueOf(assignment))));
        gql(
                        Api.auth(),
                        "{ contact_assignment_list(filters: {contact_id: " + contact
                                + ", priority: {exact: PRIORITY_PRIMARY}}) { id } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.contact_assignment_list.id", equalTo(List.of(String.valueOf(assignment))));
        // a generic relation's pair: the type by NetBox's ContentTypeFilter, the id
        String byType = "{ contact_assignment_list(filters: {contact_id: " + contact
                + ", object_type: {app_label: {exact: \"dcim\"}, model: {in_list: [\"%s\"]}}, object_id: " + site
                + "}) { id } }";
        gql(Api.auth(), String.format(byType, "site"))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.contact_assignment_list.id", equalTo(List.of(String.valueOf(assignment))));
        gql(Api.auth(), String.format(byType, "device"))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.contact_assignment_list", empty());

        int red = Api.create("/api/extras/tags/", Map.of("name", "gc-r-" + u, "slug", "gc-r-" + u, "color", "aa1409"));
        Api.create("/api/extras/tags/", Map.of("name", "gc-b-" + u, "slug", "gc-b-" + u, "color", "2196f3"));
        gql(
                        Api.auth(),
                        "{ tag_list(filters: {slug: {starts_with: \"gc-\"}, name: {ends_with: \"" + u + "\"},"
                                + " color: {exact: COLOR_AA1409}}) { id color } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.tag_list.id", equalTo(List.of(String.valueOf(red))));

        // NetBox's normalised measures: grams (whole), from the value and its unit
        int rack = Api.create(
                "/api/dcim/racks/",
                Map.of("name", "gc-" + u, "site", site, "weight", 2.5, "max_weight", 10, "weight_unit", "lb"));
        gql(Api.auth(), "{ rack(id: " + rack + ") { _abs_weight _abs_max_weight } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.rack._abs_weight", equalTo(1133))
                .body("data.rack._abs_max_weight", equalTo(4535));

        int open = Api.create("/api/wireless/wireless-lans/", Map.of("ssid", "gc-o-" + u, "auth_type", "open"));
        Api.create("/api/wireless/wireless-lans/", Map.of("ssid", "gc-w-" + u, "auth_type", "wep"));
        gql(
                        Api.auth(),
                        "{ wireless_lan_list(filters: {ssid: {ends_with: \"" + u
                                + "\"}, auth_type: TYPE_OPEN}) { id } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.wireless_lan_list.id", equalTo(List.of(String.valueOf(open))));
    }

    /** A cabled interface's far end as objects of NetBox's LinkPeerType union, and a cable_end filter by CableEndEnum. */
    @Test
    void anInterfacesLinkPeersAreObjects() {
        String u = Api.uniq();
        int site = Api.site("gl");
        int[] tr = Api.deviceTypeAndRole();
        int device = Api.device(site, tr, "gl-" + u);
        List<Integer> ifaces = Api.post(
                        "/api/dcim/interfaces/",
                        List.of(
                                Map.of("device", device, "name", "a", "type", "1000base-t"),
                                Map.of("device", device, "name", "b", "type", "1000base-t")))
                .statusCode(201)
                .extract()
                .path("id");
        Api.create(
                "/api/dcim/cables/",
                Map.of(
                        "a_terminations",
                        List.of(Map.of("object_type", "dcim.interface", "object_id", ifaces.get(0))),
                        "b_terminations",
                        List.of(Map.of("object_type", "dcim.interface", "object_id", ifaces.get(1)))));
        gql(
                        Api.auth(),
                        "{ interface(id: " + ifaces.get(0) + ") { cable_end _site { pk } _rack { pk }"
                                + " link_peers { __typename ... on InterfaceType { id name device { id } } } } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.interface._site.pk", equalTo(String.valueOf(site)))
                .body("data.interface._rack", nullValue())
                .body("data.interface.cable_end", equalTo("A"))
                .body("data.interface.link_peers.__typename", equalTo(List.of("InterfaceType")))
                .body("data.interface.link_peers[0].id", equalTo(String.valueOf(ifaces.get(1))))
                .body("data.interface.link_peers[0].device.id", equalTo(String.valueOf(device)));
        gql(Api.auth(), "{ interface_list(filters: {device_id: " + device + ", cable_end: {exact: SIDE_B}}) { id } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.interface_list.id", equalTo(List.of(String.valueOf(ifaces.get(1)))));
        // a count NetBox's filter takes (a device's interface_count)
        int bare = Api.device(site, tr, "gl-" + u + "-bare");
        String byCount = "{ device_list(filters: {site_id: " + site + ", interface_count: %s}) { id } }";
        gql(Api.auth(), String.format(byCount, "{exact: 2}"))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.device_list.id", equalTo(List.of(String.valueOf(device))));
        gql(Api.auth(), String.format(byCount, "{in_list: [0, 1]}"))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.device_list.id", equalTo(List.of(String.valueOf(bare))));
        gql(Api.auth(), String.format(byCount, "{i_contains: 2}"))
                .statusCode(200)
                .body("errors[0].message", containsString("interface_count"));
    }

    /** NetBox's odder lookups: a VLAN group's vid_ranges by a VLAN ID, an IPsec proposal's algorithm by a lookup of a lookup. */
    @Test
    void vidRangesAndALookupOfALookup() {
        String u = Api.uniq();
        int group = Api.create(
                "/api/ipam/vlan-groups/",
                Map.of("name", "gv-" + u, "slug", "gv-" + u, "vid_ranges", List.of(List.of(100, 199))));
        String byVid =
                "{ vlan_group_list(filters: {name: {exact: \"gv-" + u + "\"}, vid_ranges: {contains: %d}}) { id } }";
        gql(Api.auth(), String.format(byVid, 150))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.vlan_group_list.id", equalTo(List.of(String.valueOf(group))));
        gql(Api.auth(), String.format(byVid, 200))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.vlan_group_list", empty());

        int sha1 = Api.create(
                "/api/vpn/ipsec-proposals/",
                Map.of(
                        "name",
                        "gp-1-" + u,
                        "encryption_algorithm",
                        "aes-128-cbc",
                        "authentication_algorithm",
                        "hmac-sha1"));
        Api.create(
                "/api/vpn/ipsec-proposals/",
                Map.of(
                        "name",
                        "gp-2-" + u,
                        "encryption_algorithm",
                        "aes-128-cbc",
                        "authentication_algorithm",
                        "hmac-sha256"));
        gql(
                        Api.auth(),
                        "{ ipsec_proposal_list(filters: {name: {ends_with: \"" + u + "\"},"
                                + " authentication_algorithm: {exact: {exact: AUTH_HMAC_SHA1}}}) { id } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.ipsec_proposal_list.id", equalTo(List.of(String.valueOf(sha1))));

        // a list of object types by NetBox's ContentTypeFilter
        String name = "gq_" + u.replace('-', '_');
        int field = Api.create(
                "/api/extras/custom-fields/",
                Map.of("name", name, "type", "text", "object_types", List.of("dcim.site")));
        String byType = "{ custom_field_list(filters: {name: {exact: \"" + name + "\"},"
                + " object_types: {app_label: {exact: \"dcim\"}, model: {exact: \"%s\"}}}) { id } }";
        gql(Api.auth(), String.format(byType, "site"))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.custom_field_list.id", equalTo(List.of(String.valueOf(field))));
        gql(Api.auth(), String.format(byType, "device"))
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.custom_field_list", empty());
        Api.auth().delete("/api/extras/custom-fields/" + field + "/").then().statusCode(204);
    }

    private static void assertNames(String filter, String... names) {
        gql(Api.auth(), "{ device_list(filters: " + filter + ") { name } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.device_list.name", equalTo(List.of(names)));
    }

    @Test
    void tagsAndCustomFields() {
        String u = Api.uniq();
        int tag = Api.create("/api/extras/tags/", Map.of("name", "gt-" + u, "slug", "gt-" + u));
        int site = Api.create("/api/dcim/sites/", Map.of("name", "gt-" + u, "slug", "gt-" + u, "tags", List.of(tag)));
        Api.site("gt");
        gql(
                        Api.auth(),
                        "{ site_list(filters: {tags: {slug: {exact: \"gt-" + u + "\"}}}) { id tags { name } "
                                + "custom_fields custom_field_data } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.site_list.id", equalTo(List.of(String.valueOf(site))))
                .body("data.site_list[0].tags.name", equalTo(List.of("gt-" + u)))
                .body("data.site_list[0].custom_fields", notNullValue());
    }

    @Test
    void aMissingObjectIsAnErrorAndNullData() {
        gql(Api.auth(), "{ device(id: 999999999) { name } }")
                .statusCode(200)
                .body("data", nullValue())
                .body("errors[0].message", equalTo("Device matching query does not exist."))
                .body("errors[0].path", equalTo(List.of("device")));
    }

    @Test
    void theCallersPermissionsLimitEveryRead() {
        String u = Api.uniq();
        int site = Api.site("gp");
        int[] tr = Api.deviceTypeAndRole();
        Api.device(site, tr, "gp-" + u + "-seen");
        int hidden = Api.device(site, tr, "gp-" + u + "-hidden");
        Accounts.Account viewer = Accounts.account("gp");
        Accounts.permission(
                List.of("dcim.device"), List.of("view"), Map.of("name__iendswith", "-seen"), List.of(viewer.id()));
        String list = "{ device_list(filters: {name: {starts_with: \"gp-" + u + "\"}}) { name site { name } } }";
        // the device is visible, its site is not: a non-null relation the caller may not see is an error
        gql(viewer.api(), "{ device_list(filters: {name: {starts_with: \"gp-" + u + "\"}}) { name } }")
                .statusCode(200)
                .body("errors", nullValue())
                .body("data.device_list.name", equalTo(List.of("gp-" + u + "-seen")));
        gql(viewer.api(), list).statusCode(200).body("errors[0].path", notNullValue());
        gql(viewer.api(), "{ device(id: " + hidden + ") { name } }")
                .statusCode(200)
                .body("errors[0].message", equalTo("Device matching query does not exist."));
        gql(viewer.api(), "{ site(id: " + site + ") { devices { name } } }")
                .statusCode(200)
                .body("errors[0].message", equalTo("Site matching query does not exist."));
        // a user without permissions sees nothing
        Accounts.Account nobody = Accounts.account("gp-none");
        gql(nobody.api(), list).statusCode(200).body("data.device_list", empty());
        // anonymous callers are refused while LOGIN_REQUIRED is on, as by the REST API
        given().contentType(ContentType.JSON)
                .body(Map.of("query", list))
                .post("/graphql/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Authentication credentials were not provided."));
        given().queryParam("query", "{__typename}").get("/graphql/").then().statusCode(403);
        // a bad token is refused as on the REST API
        Accounts.as("0000000000000000000000000000000000000000")
                .body(Map.of("query", list))
                .post("/graphql/")
                .then()
                .statusCode(403);
    }

    @Test
    void tooDeepOrTooLargeQueriesAreRefusedBeforeTheyRun() {
        StringBuilder deep = new StringBuilder("{ device_list { ");
        for (int i = 0; i < 6; i++) {
            deep.append("site { devices { ");
        }
        deep.append("name").append(" } }".repeat(6)).append(" } }");
        gql(Api.auth(), deep.toString())
                .statusCode(200)
                .body("data", nullValue())
                .body("errors[0].message", containsString("maximum query depth exceeded"));
        StringBuilder wide = new StringBuilder("{ device_list { ");
        for (int i = 0; i < 1001; i++) {
            wide.append("n").append(i).append(": name ");
        }
        gql(Api.auth(), wide.append("} }").toString())
                .statusCode(200)
                .body("data", nullValue())
                .body("errors[0].message", containsString("maximum query complexity exceeded"));
    }

    @Test
    void getWithAQueryParameterAndMalformedBodies() {
        Api.auth()
                .queryParam("query", "{ site_list(pagination: {offset: 0, limit: 1}) { id } }")
                .get("/graphql/")
                .then()
                .statusCode(200)
                .body("data.site_list", hasSize(1));
        Api.auth().body("{").post("/graphql/").then().statusCode(400);
        Api.auth()
                .body(Map.of("variables", Map.of()))
                .post("/graphql/")
                .then()
                .statusCode(400)
                .body("query[0]", containsString("No GraphQL query"));
        Api.auth()
                .body(Map.of("query", 5))
                .post("/graphql/")
                .then()
                .statusCode(400)
                .body("query", notNullValue());
        gql(Api.auth(), "{ device_list { nosuchfield } }")
                .statusCode(200)
                .body("errors[0].message", containsString("nosuchfield"));
        gql(Api.auth(), "{ device_list(pagination: {offset: -1}) { name } }")
                .statusCode(200)
                .body("errors[0].message", containsString("negative"));
    }

    @Test
    void aBrowserGetsTheGraphiqlPage() {
        given().accept("text/html,application/xhtml+xml,*/*;q=0.8")
                .get("/graphql/")
                .then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString(GraphiqlAssets.GRAPHIQL_JS))
                .body(containsString("data-csrf-cookie=\"csrftoken\""))
                .body(org.hamcrest.Matchers.not(containsString("https://")));
        given().get(GraphiqlAssets.MOUNT_JS).then().statusCode(200).body(containsString("X-CSRFToken"));
        // a client asking for JSON without a query gets the JSON error
        Api.auth().get("/graphql/").then().statusCode(400).body("query[0]", containsString("No GraphQL query"));
    }

    /**
     * The statements of a nested query (devices → interfaces → IP addresses → VRF, and each
     * device's site) are bounded by its depth: the same for 5 devices as for 25.
     */
    @Test
    void statementsAreBoundedByDepthNotByObjects() {
        String u = Api.uniq();
        int site = Api.site("gs");
        int vrf = vrf(u);
        devicesWithAddresses(u, site, vrf, 25);
        String query =
                "{ device_list(filters: {name: {starts_with: \"gq-" + u + "-\"}}, pagination: {offset: 0, limit: %d})"
                        + " { name site { name } interfaces { name ip_addresses { address vrf { name } } } } }";
        int five = statements(String.format(query, 5), 5);
        int twentyFive = statements(String.format(query, 25), 25);
        System.out.println("GraphQL statements for 5 / 25 nested devices: " + five + " / " + twentyFive);
        assertEquals(five, twentyFive, "statements for 5 vs 25 devices");
        assertTrue(five < 40, "a nested query of depth 4 took " + five + " statements");
    }

    /** The fewest statements of three runs (a token's last-use write or a cache reload can add one). */
    private static int statements(String query, int devices) {
        int fewest = Integer.MAX_VALUE;
        for (int attempt = 0; attempt < 3; attempt++) {
            Snapshots.moveOn(); // every run looks its nested objects up (none kept from the last)
            var response = Api.auth()
                    .body(Map.of("query", query))
                    .post("/graphql/")
                    .then()
                    .statusCode(200)
                    .body("errors", nullValue())
                    .body("data.device_list", hasSize(devices))
                    .body("data.device_list[0].interfaces[1].ip_addresses[0].vrf.name", notNullValue())
                    .extract();
            fewest = Math.min(fewest, Integer.parseInt(response.header("X-SQL-Statements")));
        }
        return fewest;
    }
}
