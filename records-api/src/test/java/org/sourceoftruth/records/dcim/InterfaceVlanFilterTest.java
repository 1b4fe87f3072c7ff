package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.empty;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * NetBox's CommonInterfaceFilterSet {@code vlan} (a VID) and {@code vlan_id} (a VLAN's id) on
 * device and VM interfaces: the untagged VLAN, a tagged one or the Q-in-Q service VLAN matches;
 * both are CharFilters, so a repeated parameter counts with its last value.
 */
@QuarkusTest
class InterfaceVlanFilterTest {

    @Test
    void vlanIsAVidOnDeviceAndVmInterfaces() {
        String u = uniq();
        int untagged = create("/api/ipam/vlans/", Map.of("vid", 3101, "name", "untagged-" + u));
        int tagged = create("/api/ipam/vlans/", Map.of("vid", 3102, "name", "tagged-" + u));
        int service = create("/api/ipam/vlans/", Map.of("vid", 3103, "name", "service-" + u, "qinq_role", "svlan"));

        int device = Api.device(Api.site("vlanf"), Api.deviceTypeAndRole(), "vlanf-" + u);
        int access = create(
                "/api/dcim/interfaces/",
                Map.of(
                        "device",
                        device,
                        "name",
                        "e1",
                        "type",
                        "1000base-t",
                        "mode",
                        "access",
                        "untagged_vlan",
                        untagged));
        int trunk = create(
                "/api/dcim/interfaces/",
                Map.of(
                        "device",
                        device,
                        "name",
                        "e2",
                        "type",
                        "1000base-t",
                        "mode",
                        "tagged",
                        "tagged_vlans",
                        List.of(tagged)));
        int qinq = create(
                "/api/dcim/interfaces/",
                Map.of("device", device, "name", "e3", "type", "1000base-t", "mode", "q-in-q", "qinq_svlan", service));
        create("/api/dcim/interfaces/", Map.of("device", device, "name", "e4", "type", "1000base-t"));
        check("/api/dcim/interfaces/?device_id=" + device, access, trunk, qinq, untagged, tagged, service);

        int type = create("/api/virtualization/cluster-types/", Map.of("name", "ct-" + u, "slug", "ct-" + u));
        int cluster = create("/api/virtualization/clusters/", Map.of("name", "cl-" + u, "type", type));
        int vm = create("/api/virtualization/virtual-machines/", Map.of("name", "vm-" + u, "cluster", cluster));
        int vAccess = create(
                "/api/virtualization/interfaces/",
                Map.of("virtual_machine", vm, "name", "v1", "mode", "access", "untagged_vlan", untagged));
        int vTrunk = create(
                "/api/virtualization/interfaces/",
                Map.of("virtual_machine", vm, "name", "v2", "mode", "tagged", "tagged_vlans", List.of(tagged)));
        int vQinq = create(
                "/api/virtualization/interfaces/",
                Map.of("virtual_machine", vm, "name", "v3", "mode", "q-in-q", "qinq_svlan", service));
        create("/api/virtualization/interfaces/", Map.of("virtual_machine", vm, "name", "v4"));
        check(
                "/api/virtualization/interfaces/?virtual_machine_id=" + vm,
                vAccess,
                vTrunk,
                vQinq,
                untagged,
                tagged,
                service);
    }

    private static void check(String list, int access, int trunk, int qinq, int untagged, int tagged, int service) {
        auth().get(list + "&vlan=3101").then().statusCode(200).body("results.id", contains(access));
        auth().get(list + "&vlan=3102").then().body("results.id", contains(trunk));
        auth().get(list + "&vlan=3103").then().body("results.id", contains(qinq));
        auth().get(list + "&vlan= 3102 ").then().body("results.id", contains(trunk));
        // a VID, not an id: the VLAN's id matches only by chance of numbers, a VID no VLAN has never
        auth().get(list + "&vlan=4094").then().statusCode(200).body("results", empty());
        auth().get(list + "&vlan=abc").then().statusCode(200).body("results", empty());
        // one value: repeated, the last one counts
        auth().get(list + "&vlan=3101&vlan=3102").then().body("results.id", contains(trunk));
        auth().get(list + "&vlan_id=" + untagged).then().body("results.id", contains(access));
        auth().get(list + "&vlan_id=" + tagged).then().body("results.id", contains(trunk));
        auth().get(list + "&vlan_id=" + service).then().body("results.id", contains(qinq));
        auth().get(list + "&vlan_id=" + untagged + "&vlan_id=" + service).then().body("results.id", contains(qinq));
        auth().get(list + "&vlan_id=abc").then().statusCode(400);
        auth().get(list).then().body("results", org.hamcrest.Matchers.hasSize(4));
        auth().get(list + "&vlan=3101").then().body("results.id", containsInAnyOrder(access));
    }
}
