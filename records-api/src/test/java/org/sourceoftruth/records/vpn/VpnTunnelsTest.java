package org.sourceoftruth.records.vpn;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Tunnel groups, tunnels and tunnel terminations on device and VM interfaces. */
@QuarkusTest
class VpnTunnelsTest {

    /** A site, a device on it and one interface; returns {device, interface}. */
    static int[] deviceInterface(String u, String name) {
        int site = Api.site("vpn-" + u);
        int device = Api.device(site, Api.deviceTypeAndRole(), "vpn-dev-" + name + "-" + u);
        int iface = create("/api/dcim/interfaces/", Map.of("device", device, "name", name, "type", "virtual"));
        return new int[] {device, iface};
    }

    /** A cluster, a VM in it and one VM interface; returns {vm, vminterface}. */
    static int[] vmInterface(String u, String name) {
        int type = create("/api/virtualization/cluster-types/", Map.of("name", "ct-" + u, "slug", "ct-" + u));
        int cluster = create("/api/virtualization/clusters/", Map.of("name", "cl-" + u, "type", type));
        int vm = create("/api/virtualization/virtual-machines/", Map.of("name", "vm-" + u, "cluster", cluster));
        int iface = create("/api/virtualization/interfaces/", Map.of("virtual_machine", vm, "name", name));
        return new int[] {vm, iface};
    }

    @Test
    void tunnelsTerminateOnInterfacesAndAreCountedAndFiltered() {
        String u = uniq();
        int group = create("/api/vpn/tunnel-groups/", Map.of("name", "tg-" + u, "slug", "tg-" + u));
        int tunnel = create(
                "/api/vpn/tunnels/",
                Map.of("name", "tun-" + u, "encapsulation", "gre", "group", group, "tunnel_id", 42));
        int[] dev = deviceInterface(u, "tun0");
        int[] vm = vmInterface(u, "wg0");
        int outside = create("/api/ipam/ip-addresses/", Map.of("address", "198.51.100.7/32", "description", u));
        int a = create(
                "/api/vpn/tunnel-terminations/",
                Map.of(
                        "tunnel",
                        tunnel,
                        "role",
                        "hub",
                        "termination_type",
                        "dcim.interface",
                        "termination_id",
                        dev[1],
                        "outside_ip",
                        outside));
        int b = create(
                "/api/vpn/tunnel-terminations/",
                Map.of("tunnel", tunnel, "termination_type", "virtualization.vminterface", "termination_id", vm[1]));

        auth().get("/api/vpn/tunnels/" + tunnel + "/")
                .then()
                .statusCode(200)
                .body("status.value", equalTo("active"))
                .body("encapsulation.label", equalTo("GRE"))
                .body("group.id", equalTo(group))
                .body("tunnel_id", equalTo(42))
                .body("terminations_count", equalTo(2));
        auth().get("/api/vpn/tunnel-groups/" + group + "/").then().body("tunnel_count", equalTo(1));
        auth().get("/api/vpn/tunnel-terminations/" + a + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("tun-" + u + ": Termination " + a))
                .body("role.value", equalTo("hub"))
                .body("termination_type", equalTo("dcim.interface"))
                .body("termination_id", equalTo(dev[1]))
                .body("termination.name", equalTo("tun0"))
                .body("outside_ip.id", equalTo(outside));
        auth().get("/api/vpn/tunnel-terminations/" + b + "/")
                .then()
                .body("role.value", equalTo("peer"))
                .body("termination.name", equalTo("wg0"));

        String mine = "/api/vpn/tunnel-terminations/?tunnel_id=" + tunnel;
        auth().get(mine).then().body("results.id", containsInAnyOrder(a, b));
        auth().get(mine + "&interface_id=" + dev[1]).then().body("results.id", contains(a));
        auth().get(mine + "&vminterface=wg0").then().body("results.id", contains(b));
        auth().get(mine + "&termination_type=virtualization.vminterface").then().body("results.id", contains(b));
        auth().get(mine + "&role=hub").then().body("results.id", contains(a));
        auth().get(mine + "&outside_ip_id=" + outside).then().body("results.id", contains(a));
        auth().get("/api/vpn/tunnel-terminations/?tunnel=tun-" + u).then().body("count", equalTo(2));
        auth().get("/api/vpn/tunnels/?group=tg-" + u).then().body("results.id", contains(tunnel));
        auth().get("/api/vpn/tunnels/?group_id=" + group + "&encapsulation=ipip")
                .then()
                .statusCode(400)
                .body("$", hasKey("encapsulation"));

        // deleting the interface deletes its termination, with a change record
        String request = auth().delete("/api/dcim/interfaces/" + dev[1] + "/")
                .then()
                .statusCode(204)
                .extract()
                .header("X-Request-ID");
        auth().get("/api/vpn/tunnel-terminations/" + a + "/").then().statusCode(404);
        auth().get("/api/core/object-changes/?request_id=" + request + "&changed_object_type=vpn.tunneltermination")
                .then()
                .body("results.changed_object_id", contains(a));
        auth().get("/api/vpn/tunnels/" + tunnel + "/").then().body("terminations_count", equalTo(1));
        // a group in use is protected, the tunnel takes its terminations with it
        auth().delete("/api/vpn/tunnel-groups/" + group + "/").then().statusCode(409);
        auth().delete("/api/vpn/tunnels/" + tunnel + "/").then().statusCode(204);
        auth().get("/api/vpn/tunnel-terminations/" + b + "/").then().statusCode(404);
    }

    @Test
    void anObjectTerminatesOneTunnelAndBadTerminationsAreFieldErrors() {
        String u = uniq();
        int t1 = create("/api/vpn/tunnels/", Map.of("name", "t1-" + u, "encapsulation", "wireguard"));
        int t2 = create("/api/vpn/tunnels/", Map.of("name", "t2-" + u, "encapsulation", "wireguard"));
        int[] dev = deviceInterface(u, "wg1");
        create(
                "/api/vpn/tunnel-terminations/",
                Map.of("tunnel", t1, "termination_type", "dcim.interface", "termination_id", dev[1]));
        post(
                        "/api/vpn/tunnel-terminations/",
                        Map.of("tunnel", t2, "termination_type", "dcim.interface", "termination_id", dev[1]))
                .statusCode(400)
                .body("termination", contains("wg1 is already attached to a tunnel (t1-" + u + ")."));
        post(
                        "/api/vpn/tunnel-terminations/",
                        Map.of("tunnel", t2, "termination_type", "dcim.site", "termination_id", 1))
                .statusCode(400)
                .body("$", hasKey("termination_type"));
        post("/api/vpn/tunnel-terminations/", Map.of("tunnel", t2))
                .statusCode(400)
                .body("$", hasKey("termination_type"));
        post(
                        "/api/vpn/tunnel-terminations/",
                        Map.of("tunnel", t2, "termination_type", "dcim.interface", "termination_id", 999999999))
                .statusCode(400)
                .body("$", hasKey("termination_id"));
        post(
                        "/api/vpn/tunnel-terminations/",
                        Map.of(
                                "tunnel",
                                t2,
                                "termination_type",
                                "dcim.interface",
                                "termination_id",
                                dev[1] + 100000,
                                "outside_ip",
                                999999999))
                .statusCode(400)
                .body("$", hasKey("outside_ip"));
        post("/api/vpn/tunnels/", Map.of("name", "t1-" + u, "encapsulation", "gre"))
                .statusCode(400)
                .body("$", hasKey("name"));
        auth().get("/api/vpn/tunnels/" + t2 + "/").then().body("terminations_count", equalTo(0));
    }
}
