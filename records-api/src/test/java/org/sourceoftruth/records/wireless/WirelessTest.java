package org.sourceoftruth.records.wireless;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
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
import org.sourceoftruth.records.testsupport.Snapshots;

/** Wireless LAN groups, wireless LANs and wireless links, and the wireless fields of interfaces. */
@QuarkusTest
class WirelessTest {

    @Test
    void lansAreGroupedScopedAndAssignedToInterfaces() {
        String u = uniq();
        int root = create("/api/wireless/wireless-lan-groups/", Map.of("name", "wg-" + u, "slug", "wg-" + u));
        int child = create(
                "/api/wireless/wireless-lan-groups/", Map.of("name", "wgc-" + u, "slug", "wgc-" + u, "parent", root));
        int site = Api.site("wl-" + u);
        int vlan = create("/api/ipam/vlans/", Map.of("vid", 42, "name", "wv-" + u));
        int lan = create(
                "/api/wireless/wireless-lans/",
                Map.of(
                        "ssid",
                        "corp-" + u.substring(0, 6),
                        "group",
                        child,
                        "vlan",
                        vlan,
                        "scope_type",
                        "dcim.site",
                        "scope_id",
                        site,
                        "auth_type",
                        "wpa-personal",
                        "auth_cipher",
                        "aes",
                        "auth_psk",
                        "hunter22"));
        int device = Api.device(site, Api.deviceTypeAndRole(), "ap-" + u);
        int radio = create(
                "/api/dcim/interfaces/",
                Map.of("device", device, "name", "wlan0", "type", "ieee802.11ax", "wireless_lans", List.of(lan)));

        auth().get("/api/wireless/wireless-lans/" + lan + "/")
                .then()
                .statusCode(200)
                .body("group.id", equalTo(child))
                .body("group._depth", equalTo(1))
                .body("status.value", equalTo("active"))
                .body("vlan.vid", equalTo(42))
                .body("scope_type", equalTo("dcim.site"))
                .body("scope.id", equalTo(site))
                .body("auth_type.label", equalTo("WPA Personal (PSK)"))
                .body("auth_cipher.value", equalTo("aes"))
                .body("auth_psk", equalTo("hunter22"));
        auth().get("/api/wireless/wireless-lan-groups/" + child + "/")
                .then()
                .body("parent.id", equalTo(root))
                .body("_depth", equalTo(1))
                .body("wirelesslan_count", equalTo(1));
        auth().get("/api/dcim/interfaces/" + radio + "/")
                .then()
                .body("wireless_lans.id", contains(lan))
                .body("wireless_lans[0].keySet()", containsInAnyOrder("id", "url", "display", "ssid", "description"))
                .body("wireless_link", nullValue());

        // a group filter matches the LANs of its descendants too
        auth().get("/api/wireless/wireless-lans/?group_id=" + root).then().body("results.id", contains(lan));
        auth().get("/api/wireless/wireless-lans/?group=wgc-" + u).then().body("results.id", contains(lan));
        auth().get("/api/wireless/wireless-lans/?site_id=" + site).then().body("results.id", contains(lan));
        auth().get("/api/wireless/wireless-lans/?interface_id=" + radio).then().body("results.id", contains(lan));
        auth().get("/api/wireless/wireless-lans/?vlan_id=" + vlan).then().body("results.id", contains(lan));
        auth().get("/api/wireless/wireless-lans/?auth_type=wpa-personal&site_id=" + site)
                .then()
                .body("count", equalTo(1));
        auth().get("/api/dcim/interfaces/?wireless_lan_id=" + lan).then().body("results.id", contains(radio));
        auth().get("/api/wireless/wireless-lan-groups/?ancestor_id=" + root)
                .then()
                .body("results.id", contains(child));
        post("/api/wireless/wireless-lan-groups/", Map.of("name", "wg-" + u, "slug", "other-" + u, "parent", child))
                .statusCode(400)
                .body("$", hasKey("name"));
        post("/api/wireless/wireless-lans/", Map.of("ssid", "x".repeat(33)))
                .statusCode(400)
                .body("$", hasKey("ssid"));
        post("/api/wireless/wireless-lans/", Map.of("ssid", "x", "auth_type", "wpa3"))
                .statusCode(400)
                .body("$", hasKey("auth_type"));
    }

    @Test
    void linksJoinTwoWirelessInterfaces() {
        String u = uniq();
        int site = Api.site("wk-" + u);
        int[] tr = Api.deviceTypeAndRole();
        int d1 = Api.device(site, tr, "wk1-" + u);
        int d2 = Api.device(site, tr, "wk2-" + u);
        int a = create("/api/dcim/interfaces/", Map.of("device", d1, "name", "wlan0", "type", "ieee802.11ac"));
        int b = create("/api/dcim/interfaces/", Map.of("device", d2, "name", "wlan0", "type", "ieee802.11ac"));
        int c = create("/api/dcim/interfaces/", Map.of("device", d2, "name", "wlan1", "type", "ieee802.11ac"));
        int wired = create("/api/dcim/interfaces/", Map.of("device", d2, "name", "eth0", "type", "1000base-t"));
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "wt-" + u, "slug", "wt-" + u));

        post("/api/wireless/wireless-links/", Map.of("interface_a", a, "interface_b", wired))
                .statusCode(400)
                .body("interface_b", contains("1000BASE-T (1GE) is not a wireless interface."));
        post("/api/wireless/wireless-links/", Map.of("interface_a", a, "interface_b", b, "distance", 1.5))
                .statusCode(400)
                .body("$", hasKey("distance_unit"));
        int link = create(
                "/api/wireless/wireless-links/",
                Map.of(
                        "interface_a",
                        a,
                        "interface_b",
                        b,
                        "ssid",
                        "bh-" + u.substring(0, 6),
                        "tenant",
                        tenant,
                        "distance",
                        1.5,
                        "distance_unit",
                        "km",
                        "auth_type",
                        "open"));
        post("/api/wireless/wireless-links/", Map.of("interface_a", c, "interface_b", a))
                .statusCode(400)
                .body("$", hasKey("interface_b"));

        auth().get("/api/wireless/wireless-links/" + link + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("bh-" + u.substring(0, 6)))
                .body("interface_a.id", equalTo(a))
                .body("interface_b.device.id", equalTo(d2))
                .body("status.value", equalTo("connected"))
                .body("distance", equalTo(1.5f))
                .body("distance_unit.label", equalTo("Kilometers"))
                .body("tenant.id", equalTo(tenant));
        auth().get("/api/dcim/interfaces/" + a + "/")
                .then()
                .body("wireless_link.id", equalTo(link))
                .body("wireless_link.ssid", equalTo("bh-" + u.substring(0, 6)));
        auth().get("/api/dcim/interfaces/" + b + "/").then().body("wireless_link.id", equalTo(link));
        auth().get("/api/dcim/interfaces/?wireless_link_id=" + link)
                .then()
                .body("results.id", containsInAnyOrder(a, b));
        auth().get("/api/wireless/wireless-links/?interface_a_id=" + a).then().body("results.id", contains(link));
        auth().get("/api/wireless/wireless-links/?tenant=wt-" + u).then().body("results.id", contains(link));
        auth().get("/api/wireless/wireless-links/?distance__gte=1&tenant_id=" + tenant)
                .then()
                .body("count", equalTo(1));

        // an interface in a link is protected; deleting the link frees it
        auth().delete("/api/dcim/interfaces/" + a + "/").then().statusCode(409);
        auth().delete("/api/wireless/wireless-links/" + link + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/" + a + "/").then().body("wireless_link", nullValue());
    }
    /** Interfaces' wireless link, wireless LANs and L2VPN termination cost the same statements for 1 or 8 rows. */
    @Test
    void interfacesShowTheirWirelessAndL2vpnRelationsWithoutAQueryPerRow() {
        String u = uniq();
        int site = Api.site("wq-" + u);
        int[] tr = Api.deviceTypeAndRole();
        int d1 = Api.device(site, tr, "wq1-" + u);
        int d2 = Api.device(site, tr, "wq2-" + u);
        int lan = create("/api/wireless/wireless-lans/", Map.of("ssid", "q-" + u.substring(0, 6)));
        int vpn = create("/api/vpn/l2vpns/", Map.of("name", "wq-" + u, "slug", "wq-" + u, "type", "vpls"));
        for (int i = 0; i < 4; i++) {
            int a = create(
                    "/api/dcim/interfaces/",
                    Map.of("device", d1, "name", "wlan" + i, "type", "ieee802.11ac", "wireless_lans", List.of(lan)));
            int b = create(
                    "/api/dcim/interfaces/",
                    Map.of("device", d2, "name", "wlan" + i, "type", "ieee802.11ac", "wireless_lans", List.of(lan)));
            create("/api/wireless/wireless-links/", Map.of("interface_a", a, "interface_b", b));
            create(
                    "/api/vpn/l2vpn-terminations/",
                    Map.of("l2vpn", vpn, "assigned_object_type", "dcim.interface", "assigned_object_id", a));
        }
        String list = "/api/dcim/interfaces/?device_id=" + d1 + "&device_id=" + d2 + "&limit=";
        int one = statements(list + 1, 1);
        int eight = statements(list + 8, 8);
        assertEquals(one, eight, "statements for 1 vs 8 interfaces");
        auth().get(list + 8)
                .then()
                .body("results.findAll { it.wireless_link != null }.size()", equalTo(8))
                .body("results.findAll { it.l2vpn_termination != null }.size()", equalTo(4))
                .body("results.findAll { it.wireless_lans.size() == 1 }.size()", equalTo(8));
    }

    private static int statements(String url, int expected) {
        int min = Integer.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            Snapshots.moveOn(); // every request looks its nested objects up (none reused)
            var r = auth().get(url)
                    .then()
                    .statusCode(200)
                    .body("results", hasSize(expected))
                    .extract();
            min = Math.min(min, Integer.parseInt(r.header("X-SQL-Statements")));
        }
        return min;
    }
}
