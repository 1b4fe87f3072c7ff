package org.sourceoftruth.records.vpn;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** L2VPNs with route targets, and their terminations on interfaces, VM interfaces and VLANs. */
@QuarkusTest
class L2vpnTest {

    @Test
    void terminationsAreShownOnTheTerminatedObjectsAndFiltered() {
        String u = uniq();
        long identifier = Math.abs(u.hashCode()) + 1000L;
        int rtIn = create("/api/ipam/route-targets/", Map.of("name", "65000:" + (identifier % 100000)));
        int rtOut = create("/api/ipam/route-targets/", Map.of("name", "65001:" + (identifier % 100000)));
        int vpn = create(
                "/api/vpn/l2vpns/",
                Map.of(
                        "name",
                        "l2-" + u,
                        "slug",
                        "l2-" + u,
                        "type",
                        "vxlan",
                        "identifier",
                        identifier,
                        "import_targets",
                        List.of(rtIn),
                        "export_targets",
                        List.of(rtOut)));
        int[] dev = VpnTunnelsTest.deviceInterface(u, "eth9");
        int[] vm = VpnTunnelsTest.vmInterface(u, "eth1");
        int vlan = create("/api/ipam/vlans/", Map.of("vid", 301, "name", "v-" + u));
        int onIface = create(
                "/api/vpn/l2vpn-terminations/",
                Map.of("l2vpn", vpn, "assigned_object_type", "dcim.interface", "assigned_object_id", dev[1]));
        int onVm = create(
                "/api/vpn/l2vpn-terminations/",
                Map.of(
                        "l2vpn",
                        vpn,
                        "assigned_object_type",
                        "virtualization.vminterface",
                        "assigned_object_id",
                        vm[1]));
        int onVlan = create(
                "/api/vpn/l2vpn-terminations/",
                Map.of("l2vpn", vpn, "assigned_object_type", "ipam.vlan", "assigned_object_id", vlan));

        auth().get("/api/vpn/l2vpns/" + vpn + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("l2-" + u + " (" + identifier + ")"))
                .body("type.label", equalTo("VXLAN"))
                .body("status.value", equalTo("active"))
                .body("import_targets.id", contains(rtIn))
                .body("export_targets.id", contains(rtOut));
        auth().get("/api/vpn/l2vpn-terminations/" + onVlan + "/")
                .then()
                .body("display", equalTo("v-" + u + " (301) <> l2-" + u + " (" + identifier + ")"))
                .body("assigned_object.vid", equalTo(301))
                .body("l2vpn.slug", equalTo("l2-" + u));
        auth().get("/api/dcim/interfaces/" + dev[1] + "/")
                .then()
                .body("l2vpn_termination.id", equalTo(onIface))
                .body("l2vpn_termination.l2vpn.id", equalTo(vpn));
        auth().get("/api/virtualization/interfaces/" + vm[1] + "/").then().body("l2vpn_termination.id", equalTo(onVm));
        auth().get("/api/ipam/vlans/" + vlan + "/").then().body("l2vpn_termination.id", equalTo(onVlan));
        auth().get("/api/ipam/vlans/?l2vpn_id=" + vpn + "&id=" + vlan).then().body("results.id", contains(vlan));
        auth().get("/api/ipam/vlans/?l2vpn=" + identifier).then().body("results.id", contains(vlan));
        auth().get("/api/dcim/interfaces/?l2vpn_id=" + vpn).then().body("results.id", contains(dev[1]));
        auth().get("/api/virtualization/interfaces/?l2vpn=" + identifier).then().body("results.id", contains(vm[1]));
        auth().get("/api/ipam/route-targets/?importing_l2vpn_id=" + vpn).then().body("results.id", contains(rtIn));
        auth().get("/api/ipam/route-targets/?exporting_l2vpn=" + identifier)
                .then()
                .body("results.id", contains(rtOut));
        auth().get("/api/vpn/l2vpns/?import_target_id=" + rtIn).then().body("results.id", contains(vpn));

        String mine = "/api/vpn/l2vpn-terminations/?l2vpn_id=" + vpn;
        auth().get(mine).then().body("results.id", containsInAnyOrder(onIface, onVm, onVlan));
        auth().get("/api/vpn/l2vpn-terminations/?l2vpn=l2-" + u).then().body("count", equalTo(3));
        auth().get(mine + "&device_id=" + dev[0]).then().body("results.id", contains(onIface));
        auth().get(mine + "&virtual_machine_id=" + vm[0]).then().body("results.id", contains(onVm));
        auth().get(mine + "&vlan_vid=301").then().body("results.id", contains(onVlan));
        auth().get(mine + "&assigned_object_type=ipam.vlan").then().body("results.id", contains(onVlan));
        auth().get(mine + "&interface=eth9").then().body("results.id", contains(onIface));
        auth().get(mine + "&vminterface_id=" + vm[1]).then().body("results.id", contains(onVm));

        auth().delete("/api/vpn/l2vpn-terminations/" + onIface + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/" + dev[1] + "/").then().body("l2vpn_termination", nullValue());
        auth().delete("/api/ipam/vlans/" + vlan + "/").then().statusCode(204);
        auth().get("/api/vpn/l2vpn-terminations/" + onVlan + "/").then().statusCode(404);
    }

    @Test
    void oneTerminationPerObjectAndTwoPerPointToPointL2vpn() {
        String u = uniq();
        int vpws = create("/api/vpn/l2vpns/", Map.of("name", "pw-" + u, "slug", "pw-" + u, "type", "vpws"));
        int vpls = create("/api/vpn/l2vpns/", Map.of("name", "ls-" + u, "slug", "ls-" + u, "type", "vpls"));
        int[] vlans = new int[3];
        for (int i = 0; i < 3; i++) {
            vlans[i] = create("/api/ipam/vlans/", Map.of("vid", 100 + i, "name", "p" + i + "-" + u));
        }
        create(
                "/api/vpn/l2vpn-terminations/",
                Map.of("l2vpn", vpws, "assigned_object_type", "ipam.vlan", "assigned_object_id", vlans[0]));
        post(
                        "/api/vpn/l2vpn-terminations/",
                        Map.of("l2vpn", vpls, "assigned_object_type", "ipam.vlan", "assigned_object_id", vlans[0]))
                .statusCode(400)
                .body("__all__", contains("L2VPN Termination already assigned (p0-" + u + " (100))"));
        create(
                "/api/vpn/l2vpn-terminations/",
                Map.of("l2vpn", vpws, "assigned_object_type", "ipam.vlan", "assigned_object_id", vlans[1]));
        post(
                        "/api/vpn/l2vpn-terminations/",
                        Map.of("l2vpn", vpws, "assigned_object_type", "ipam.vlan", "assigned_object_id", vlans[2]))
                .statusCode(400)
                .body(
                        "__all__",
                        contains("VPWS L2VPNs cannot have more than two terminations; found 2 already defined."));
        post(
                        "/api/vpn/l2vpn-terminations/",
                        Map.of("l2vpn", vpls, "assigned_object_type", "dcim.site", "assigned_object_id", 1))
                .statusCode(400)
                .body("$", hasKey("assigned_object_type"));
        post("/api/vpn/l2vpn-terminations/", Map.of("l2vpn", vpls, "assigned_object_type", "ipam.vlan"))
                .statusCode(400)
                .body("$", hasKey("assigned_object_id"));
        post("/api/vpn/l2vpns/", Map.of("name", "x-" + u, "slug", "x-" + u, "type", "nope"))
                .statusCode(400)
                .body("$", hasKey("type"));
        auth().get("/api/vpn/l2vpn-terminations/?l2vpn_id=" + vpls).then().body("count", equalTo(0));
        auth().get("/api/vpn/l2vpn-terminations/?l2vpn_id=" + vpws).then().body("count", equalTo(2));
    }
}
