package org.sourceoftruth.records.ipam;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** FHRP groups and their interface assignments, VLAN translation policies and rules, Q-in-Q VLANs and interfaces. */
@QuarkusTest
class FhrpAndVlanTranslationTest {

    @Test
    void fhrpGroupsOwnAddressesAndAreAssignedToInterfaces() {
        String u = uniq();
        String block = Ipam.v4Block();
        int[] dev = Ipam.deviceWithInterface("fhrp-" + u);
        int[] vm = Ipam.vmWithInterface("fhrp-vm-" + u);
        int group = create(
                "/api/ipam/fhrp-groups/",
                Map.of(
                        "protocol",
                        "vrrp3",
                        "group_id",
                        10,
                        "name",
                        "edge" + u,
                        "auth_type",
                        "md5",
                        "auth_key",
                        "secret"));
        int other = create("/api/ipam/fhrp-groups/", Map.of("protocol", "hsrp", "group_id", 20));
        auth().get("/api/ipam/fhrp-groups/" + group + "/")
                .then()
                .statusCode(200)
                .body("protocol", equalTo("vrrp3"))
                .body("auth_type", equalTo("md5"))
                .body("display", equalTo("edge" + u + " VRRPv3: 10"))
                .body("ip_addresses.size()", equalTo(0));
        post("/api/ipam/fhrp-groups/", Map.of("protocol", "bgp", "group_id", 1))
                .statusCode(400)
                .body("protocol", hasItem("\"bgp\" is not a valid choice."));
        post("/api/ipam/fhrp-groups/", Map.of("protocol", "hsrp", "group_id", 40000))
                .statusCode(400)
                .body("$", hasKey("group_id"));
        int vip = create(
                "/api/ipam/ip-addresses/",
                Map.of(
                        "address",
                        block + ".1/24",
                        "assigned_object_type",
                        "ipam.fhrpgroup",
                        "assigned_object_id",
                        group));
        int near = create("/api/ipam/ip-addresses/", Map.of("address", block + ".2/24"));
        auth().get("/api/ipam/fhrp-groups/" + group + "/")
                .then()
                .body("ip_addresses.id", contains(vip))
                .body("display", equalTo("edge" + u + " VRRPv3: 10 (" + block + ".1/24)"));
        auth().get("/api/ipam/ip-addresses/?fhrpgroup_id=" + group).then().body("results.id", contains(vip));
        auth().get("/api/ipam/fhrp-groups/?related_ip=" + near + "&id=" + group + "&id=" + other)
                .then()
                .body("results.id", contains(group));
        auth().get("/api/ipam/fhrp-groups/?protocol=hsrp&id=" + group + "&id=" + other)
                .then()
                .body("results.id", contains(other));

        int onDevice = create(
                "/api/ipam/fhrp-group-assignments/",
                Map.of("group", group, "interface_type", "dcim.interface", "interface_id", dev[1], "priority", 200));
        int onVm = create(
                "/api/ipam/fhrp-group-assignments/",
                Map.of(
                        "group",
                        group,
                        "interface_type",
                        "virtualization.vminterface",
                        "interface_id",
                        vm[1],
                        "priority",
                        100));
        auth().get("/api/ipam/fhrp-group-assignments/" + onDevice + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("eth0: edge" + u + " VRRPv3: 10 (" + block + ".1/24) (200)"))
                .body("interface.id", equalTo(dev[1]))
                .body("group.id", equalTo(group))
                .body("$", not(hasKey("display_url")));
        auth().get("/api/ipam/fhrp-group-assignments/?group_id=" + group)
                .then()
                .body("results.id", contains(onDevice, onVm));
        auth().get("/api/ipam/fhrp-group-assignments/?device_id=" + dev[0])
                .then()
                .body("results.id", contains(onDevice));
        auth().get("/api/ipam/fhrp-group-assignments/?virtual_machine=fhrp-vm-" + u)
                .then()
                .body("results.id", contains(onVm));
        auth().get("/api/dcim/interfaces/" + dev[1] + "/").then().body("count_fhrp_groups", equalTo(1));
        auth().get("/api/virtualization/interfaces/" + vm[1] + "/").then().body("count_fhrp_groups", equalTo(1));
        post(
                        "/api/ipam/fhrp-group-assignments/",
                        Map.of(
                                "group",
                                group,
                                "interface_type",
                                "dcim.interface",
                                "interface_id",
                                dev[1],
                                "priority",
                                1))
                .statusCode(400);
        post(
                        "/api/ipam/fhrp-group-assignments/",
                        Map.of("group", group, "interface_type", "dcim.site", "interface_id", 1, "priority", 1))
                .statusCode(400)
                .body("interface_type", hasItem("Invalid content type: dcim.site"));
        post(
                        "/api/ipam/fhrp-group-assignments/",
                        Map.of(
                                "group",
                                other,
                                "interface_type",
                                "dcim.interface",
                                "interface_id",
                                dev[1],
                                "priority",
                                256))
                .statusCode(400)
                .body("$", hasKey("priority"));

        // a group takes its addresses and assignments along
        auth().delete("/api/ipam/fhrp-groups/" + group + "/").then().statusCode(204);
        auth().get("/api/ipam/ip-addresses/" + vip + "/").then().statusCode(404);
        auth().get("/api/ipam/fhrp-group-assignments/" + onVm + "/").then().statusCode(404);
    }

    @Test
    void translationPoliciesAndQinqOnVlansAndInterfaces() {
        String u = uniq();
        int policy = create("/api/ipam/vlan-translation-policies/", Map.of("name", "pol " + u, "description", "d"));
        int rule = create(
                "/api/ipam/vlan-translation-rules/", Map.of("policy", policy, "local_vid", 100, "remote_vid", 200));
        create("/api/ipam/vlan-translation-rules/", Map.of("policy", policy, "local_vid", 101, "remote_vid", 201));
        auth().get("/api/ipam/vlan-translation-rules/" + rule + "/")
                .then()
                .statusCode(200)
                .body("policy", equalTo(policy))
                .body("display", equalTo("100 -> 200 (pol " + u + ")"))
                .body("$", not(hasKey("tags")));
        post("/api/ipam/vlan-translation-rules/", Map.of("policy", policy, "local_vid", 100, "remote_vid", 300))
                .statusCode(400)
                .body("__all__", contains("VLAN translation rule with this Policy and Local VLAN ID already exists."));
        post("/api/ipam/vlan-translation-rules/", Map.of("policy", policy, "local_vid", 5000, "remote_vid", 300))
                .statusCode(400)
                .body("$", hasKey("local_vid"));
        auth().get("/api/ipam/vlan-translation-policies/" + policy + "/")
                .then()
                .body("rules.local_vid", contains(100, 101))
                .body("rules[0].policy", equalTo(policy));
        auth().get("/api/ipam/vlan-translation-rules/?policy=pol " + u + "&local_vid=101")
                .then()
                .body("count", equalTo(1));

        int svlan = create("/api/ipam/vlans/", Map.of("vid", 300, "name", "s " + u, "qinq_role", "svlan"));
        post("/api/ipam/vlans/", Map.of("vid", 301, "name", "c " + u, "qinq_role", "cvlan"))
                .statusCode(400)
                .body("qinq_role", contains("A Q-in-Q customer VLAN must be assigned to a service VLAN."));
        post("/api/ipam/vlans/", Map.of("vid", 301, "name", "c " + u, "qinq_svlan", svlan))
                .statusCode(400)
                .body("qinq_svlan", contains("Only Q-in-Q customer VLANs maybe assigned to a service VLAN."));
        int cvlan = create(
                "/api/ipam/vlans/", Map.of("vid", 301, "name", "c " + u, "qinq_role", "cvlan", "qinq_svlan", svlan));
        auth().get("/api/ipam/vlans/" + cvlan + "/")
                .then()
                .body("qinq_role.value", equalTo("cvlan"))
                .body("qinq_svlan.id", equalTo(svlan));
        auth().get("/api/ipam/vlans/?qinq_svlan_id=" + svlan).then().body("results.id", contains(cvlan));
        auth().get("/api/ipam/vlans/?qinq_svlan_vid=300&qinq_role=cvlan&name=c " + u)
                .then()
                .body("results.id", contains(cvlan));
        auth().delete("/api/ipam/vlans/" + svlan + "/").then().statusCode(409);

        int[] dev = Ipam.deviceWithInterface("qinq-" + u);
        int[] vm = Ipam.vmWithInterface("qinq-vm-" + u);
        auth().contentType("application/json")
                .body(Map.of("qinq_svlan", svlan, "mode", "access"))
                .patch("/api/dcim/interfaces/" + dev[1] + "/")
                .then()
                .statusCode(400)
                .body("qinq_svlan", contains("Only Q-in-Q interfaces may specify a service VLAN."));
        auth().contentType("application/json")
                .body(Map.of("qinq_svlan", svlan, "mode", "q-in-q", "vlan_translation_policy", policy))
                .patch("/api/dcim/interfaces/" + dev[1] + "/")
                .then()
                .statusCode(200)
                .body("qinq_svlan.id", equalTo(svlan))
                .body("mode.value", equalTo("q-in-q"))
                .body("vlan_translation_policy.id", equalTo(policy));
        auth().contentType("application/json")
                .body(Map.of("qinq_svlan", svlan, "mode", "q-in-q", "vlan_translation_policy", policy))
                .patch("/api/virtualization/interfaces/" + vm[1] + "/")
                .then()
                .statusCode(200)
                .body("qinq_svlan.vid", equalTo(300))
                .body("vlan_translation_policy.name", equalTo("pol " + u));
        auth().get("/api/dcim/interfaces/?vlan_translation_policy=pol " + u)
                .then()
                .body("results.id", contains(dev[1]));
        auth().get("/api/virtualization/interfaces/?vlan_translation_policy_id=" + policy)
                .then()
                .body("results.id", contains(vm[1]));
        auth().get("/api/dcim/interfaces/?vlan_id=" + svlan).then().body("results.id", containsInAnyOrder(dev[1]));
        // a policy in use is simply unset on its interfaces when deleted; its rules go with it
        auth().delete("/api/ipam/vlan-translation-policies/" + policy + "/")
                .then()
                .statusCode(204);
        auth().get("/api/dcim/interfaces/" + dev[1] + "/").then().body("vlan_translation_policy", nullValue());
        auth().get("/api/ipam/vlan-translation-rules/" + rule + "/").then().statusCode(404);
        auth().get("/api/ipam/vlan-translation-rules/?policy_id=" + policy)
                .then()
                .statusCode(400);
    }
}
