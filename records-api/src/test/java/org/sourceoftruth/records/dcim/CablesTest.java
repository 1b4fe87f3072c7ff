package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cables, their terminations and the traced paths, as NetBox's. */
@QuarkusTest
class CablesTest {

    private static Map<String, Object> end(String type, int id) {
        return Map.of("object_type", type, "object_id", id);
    }

    private static int cable(String aType, int a, String bType, int b) {
        return create(
                "/api/dcim/cables/",
                Map.of("a_terminations", List.of(end(aType, a)), "b_terminations", List.of(end(bType, b))));
    }

    /** A patch panel: a device with one rear port (one position) and its front port; {device, front, rear}. */
    private static int[] panel(int site, int[] tr, String name) {
        int device = org.sourceoftruth.records.Api.device(site, tr, name);
        int rear = create("/api/dcim/rear-ports/", Map.of("device", device, "name", "R", "type", "8p8c"));
        int front = create(
                "/api/dcim/front-ports/",
                Map.of("device", device, "name", "F", "type", "8p8c", "rear_ports", mapping("rear_port", rear, 1)));
        return new int[] {device, front, rear};
    }

    /** A port's mapping list of one item: its position 1 to {@code position} of the other port. */
    static List<Map<String, Object>> mapping(String otherPort, int other, int position) {
        return List.of(Map.of("position", 1, otherPort, other, otherPort + "_position", position));
    }

    private static int iface(int device, String name, String type) {
        return create("/api/dcim/interfaces/", Map.of("device", device, "name", name, "type", type));
    }

    @Test
    void fourHopPathConnectsBothInterfacesAndCuttingTheMiddleCableDisconnectsBoth() {
        String u = uniq();
        int site = org.sourceoftruth.records.Api.site("cab");
        int[] tr = org.sourceoftruth.records.Api.deviceTypeAndRole();
        int da = org.sourceoftruth.records.Api.device(site, tr, "cab-a-" + u);
        int db = org.sourceoftruth.records.Api.device(site, tr, "cab-b-" + u);
        int ia = iface(da, "eth0", "1000base-t");
        int ib = iface(db, "eth0", "1000base-t");
        int[] p1 = panel(site, tr, "cab-p1-" + u);
        int[] p2 = panel(site, tr, "cab-p2-" + u);

        int c1 = cable("dcim.interface", ia, "dcim.frontport", p1[1]);
        auth().get("/api/dcim/interfaces/" + ia + "/")
                .then()
                .statusCode(200)
                .body("cable.id", equalTo(c1))
                .body("cable_end", equalTo("A"))
                .body("_occupied", equalTo(true))
                .body("link_peers_type", equalTo("dcim.frontport"))
                .body("link_peers[0].id", equalTo(p1[1]))
                .body("connected_endpoints", nullValue())
                .body("connected_endpoints_reachable", equalTo(false));
        int c2 = cable("dcim.rearport", p1[2], "dcim.rearport", p2[2]);
        int c3 = cable("dcim.frontport", p2[1], "dcim.interface", ib);

        auth().get("/api/dcim/interfaces/" + ia + "/")
                .then()
                .body("connected_endpoints_type", equalTo("dcim.interface"))
                .body("connected_endpoints[0].id", equalTo(ib))
                .body("connected_endpoints_reachable", equalTo(true));
        auth().get("/api/dcim/interfaces/" + ib + "/")
                .then()
                .body("connected_endpoints[0].id", equalTo(ia))
                .body("cable_end", equalTo("B"));
        auth().get("/api/dcim/cables/" + c2 + "/")
                .then()
                .body("display", equalTo("#" + c2))
                .body("a_terminations[0].object_type", equalTo("dcim.rearport"))
                .body("a_terminations[0].object_id", equalTo(p1[2]))
                .body("a_terminations[0].object.id", equalTo(p1[2]))
                .body("b_terminations[0].object.id", equalTo(p2[2]))
                .body("status.value", equalTo("connected"));
        auth().get("/api/dcim/interfaces/" + ia + "/trace/")
                .then()
                .statusCode(200)
                .body("$", hasSize(3))
                .body("[0][0][0].id", equalTo(ia))
                .body("[0][1].id", equalTo(c1))
                .body("[0][2][0].id", equalTo(p1[1]))
                .body("[1][0][0].id", equalTo(p1[2]))
                .body("[1][1].id", equalTo(c2))
                .body("[2][1].id", equalTo(c3))
                .body("[2][2][0].id", equalTo(ib));
        auth().get("/api/dcim/rear-ports/" + p1[2] + "/paths/")
                .then()
                .statusCode(200)
                .body("$", hasSize(2))
                .body("is_complete", contains(true, true));
        auth().get("/api/dcim/connected-device/?peer_device=cab-a-" + u + "&peer_interface=eth0")
                .then()
                .statusCode(200)
                .body("id", equalTo(db))
                .body("name", equalTo("cab-b-" + u));
        auth().get("/api/dcim/connected-device/?peer_device=cab-a-" + u).then().statusCode(400);
        auth().get("/api/dcim/connected-device/?peer_device=nope-" + u + "&peer_interface=eth0")
                .then()
                .statusCode(404);

        // filters
        auth().get("/api/dcim/cables/?device_id=" + da).then().body("results.id", contains(c1));
        auth().get("/api/dcim/cables/?termination_a_type=dcim.rearport&rearport_id=" + p2[2])
                .then()
                .body("results.id", contains(c2));
        auth().get("/api/dcim/interfaces/?device_id=" + da + "&cabled=true&connected=true")
                .then()
                .body("results.id", contains(ia));
        auth().get("/api/dcim/interfaces/?cable_id=" + c3).then().body("results.id", contains(ib));

        // the interface's change records show the cable coming (an update each)
        auth().get("/api/core/object-changes/?changed_object_type=dcim.interface&changed_object_id=" + ia)
                .then()
                .body("results.action.value", hasItem("update"));

        auth().delete("/api/dcim/cables/" + c2 + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/" + ia + "/")
                .then()
                .body("connected_endpoints", nullValue())
                .body("cable.id", equalTo(c1));
        auth().get("/api/dcim/interfaces/" + ib + "/").then().body("connected_endpoints", nullValue());
        auth().get("/api/dcim/rear-ports/" + p1[2] + "/")
                .then()
                .body("cable", nullValue())
                .body("_occupied", equalTo(false));
        auth().get("/api/dcim/cable-terminations/?cable=" + c2).then().body("count", equalTo(0));
        auth().get("/api/dcim/interfaces/?device_id=" + da + "&connected=true")
                .then()
                .body("count", equalTo(0));

        // deleting a cabled interface takes its termination; the cable stays with one end
        auth().delete("/api/dcim/interfaces/" + ib + "/").then().statusCode(204);
        auth().get("/api/dcim/cables/" + c3 + "/").then().statusCode(200).body("b_terminations", hasSize(0));
    }

    @Test
    void aCircuitBetweenTwoSitesConnectsTheInterfacesCabledToItsEnds() {
        String u = uniq();
        int s1 = org.sourceoftruth.records.Api.site("cc1");
        int s2 = org.sourceoftruth.records.Api.site("cc2");
        int[] tr = org.sourceoftruth.records.Api.deviceTypeAndRole();
        int x = iface(org.sourceoftruth.records.Api.device(s1, tr, "ccx-" + u), "ge-0/0/0", "10gbase-x-sfpp");
        int y = iface(org.sourceoftruth.records.Api.device(s2, tr, "ccy-" + u), "ge-0/0/0", "10gbase-x-sfpp");
        int provider = create("/api/circuits/providers/", Map.of("name", "P " + u, "slug", "p-" + u));
        int type = create("/api/circuits/circuit-types/", Map.of("name", "T " + u, "slug", "t-" + u));
        int circuit = create("/api/circuits/circuits/", Map.of("cid", "C-" + u, "provider", provider, "type", type));
        int ta = create(
                "/api/circuits/circuit-terminations/",
                Map.of("circuit", circuit, "term_side", "A", "termination_type", "dcim.site", "termination_id", s1));
        int tz = create(
                "/api/circuits/circuit-terminations/",
                Map.of("circuit", circuit, "term_side", "Z", "termination_type", "dcim.site", "termination_id", s2));
        cable("dcim.interface", x, "circuits.circuittermination", ta);
        // one end cabled: the path runs through the circuit to the far site
        auth().get("/api/dcim/interfaces/" + x + "/trace/")
                .then()
                .body("$", hasSize(2))
                .body("[1][0][0].id", equalTo(tz))
                .body("[1][1]", hasSize(0))
                .body("[1][2][0].id", equalTo(s2));
        cable("circuits.circuittermination", tz, "dcim.interface", y);
        auth().get("/api/dcim/interfaces/" + x + "/").then().body("connected_endpoints[0].id", equalTo(y));
        auth().get("/api/dcim/interfaces/" + y + "/").then().body("connected_endpoints[0].id", equalTo(x));
        auth().get("/api/circuits/circuit-terminations/" + ta + "/")
                .then()
                .body("_occupied", equalTo(true))
                .body("link_peers[0].id", equalTo(x));
        auth().get("/api/circuits/circuit-terminations/" + tz + "/paths/")
                .then()
                .body("$", hasSize(2));
    }

    @Test
    void badEndsAreFieldErrorsAndChangeNothing() {
        String u = uniq();
        int site = org.sourceoftruth.records.Api.site("cbad");
        int[] tr = org.sourceoftruth.records.Api.deviceTypeAndRole();
        int d = org.sourceoftruth.records.Api.device(site, tr, "cbad-" + u);
        int i1 = iface(d, "e1", "1000base-t");
        int i2 = iface(d, "e2", "1000base-t");
        int i3 = iface(d, "e3", "1000base-t");
        int virtual = iface(d, "v1", "virtual");
        int psu = create("/api/dcim/power-ports/", Map.of("device", d, "name", "psu"));
        cable("dcim.interface", i1, "dcim.interface", i2);
        int before = auth().get("/api/dcim/cables/?limit=1").then().extract().path("count");

        post(
                        "/api/dcim/cables/",
                        Map.of(
                                "a_terminations",
                                List.of(end("dcim.nothing", i3)),
                                "b_terminations",
                                List.of(end("dcim.interface", i2))))
                .statusCode(400)
                .body("$", hasKey("a_terminations"));
        post(
                        "/api/dcim/cables/",
                        Map.of(
                                "a_terminations",
                                List.of(end("dcim.interface", i3)),
                                "b_terminations",
                                List.of(end("dcim.interface", 999999999))))
                .statusCode(400)
                .body("$", hasKey("b_terminations"));
        post(
                        "/api/dcim/cables/",
                        Map.of(
                                "a_terminations",
                                List.of(end("dcim.interface", i3)),
                                "b_terminations",
                                List.of(end("dcim.interface", i2))))
                .statusCode(400)
                .body(
                        "b_terminations[0]",
                        equalTo("Duplicate termination found for dcim.interface " + i2 + ": cable "
                                + auth().get("/api/dcim/interfaces/" + i2 + "/")
                                        .then()
                                        .extract()
                                        .path("cable.id")));
        post(
                        "/api/dcim/cables/",
                        Map.of(
                                "a_terminations",
                                List.of(end("dcim.interface", i3)),
                                "b_terminations",
                                List.of(end("dcim.powerport", psu))))
                .statusCode(400)
                .body("b_terminations[0]", equalTo("Incompatible termination types: interface and powerport"));
        post(
                        "/api/dcim/cables/",
                        Map.of(
                                "a_terminations",
                                List.of(end("dcim.interface", i3)),
                                "b_terminations",
                                List.of(end("dcim.interface", virtual))))
                .statusCode(400)
                .body("b_terminations[0]", equalTo("Cables cannot be terminated to Virtual interfaces"));
        post("/api/dcim/cables/", Map.of("a_terminations", List.of(end("dcim.interface", i3))))
                .statusCode(400)
                .body("__all__[0]", equalTo("Must define A and B terminations when creating a new cable."));
        auth().get("/api/dcim/cables/?limit=1").then().body("count", equalTo(before));
        auth().get("/api/dcim/interfaces/" + i3 + "/").then().body("cable", nullValue());
    }

    @Test
    void aTwentyCablePathTracesInABoundedNumberOfStatements() {
        String u = uniq();
        int site = org.sourceoftruth.records.Api.site("c20");
        int[] tr = org.sourceoftruth.records.Api.deviceTypeAndRole();
        int ia = iface(org.sourceoftruth.records.Api.device(site, tr, "c20-a-" + u), "eth0", "1000base-t");
        int ib = iface(org.sourceoftruth.records.Api.device(site, tr, "c20-b-" + u), "eth0", "1000base-t");
        List<int[]> panels = new ArrayList<>();
        for (int i = 0; i < 19; i++) {
            panels.add(panel(site, tr, "c20-p" + i + "-" + u));
        }
        // iA - F0|R0 - R1|F1 - F2|R2 - ... : panels entered alternately at the front and at the rear
        String type = "dcim.interface";
        int id = ia;
        for (int i = 0; i < panels.size(); i++) {
            boolean front = i % 2 == 0;
            cable(type, id, front ? "dcim.frontport" : "dcim.rearport", front ? panels.get(i)[1] : panels.get(i)[2]);
            type = front ? "dcim.rearport" : "dcim.frontport";
            id = front ? panels.get(i)[2] : panels.get(i)[1];
        }
        cable(type, id, "dcim.interface", ib);
        var r = auth().get("/api/dcim/interfaces/" + ia + "/trace/")
                .then()
                .statusCode(200)
                .body("$", hasSize(20))
                .body("[19][2][0].id", equalTo(ib))
                .extract();
        int statements = Integer.parseInt(r.header("X-SQL-Statements"));
        System.out.println("cable trace: 20 cables, " + statements + " SQL statements");
        assertTrue(statements <= 40, "trace of 20 cables took " + statements + " statements");
        auth().get("/api/dcim/interfaces/" + ib + "/").then().body("connected_endpoints[0].id", equalTo(ia));
    }

    private static void patch(String path, Map<String, Object> body) {
        auth().contentType("application/json").body(body).patch(path).then().statusCode(200);
    }

    private static int changes(String type, int id) {
        return auth().get("/api/core/object-changes/?changed_object_type=" + type + "&changed_object_id=" + id)
                .then()
                .extract()
                .path("count");
    }

    @Test
    void remappingAFrontPortRetracesThePathsThroughIt() {
        String u = uniq();
        int site = org.sourceoftruth.records.Api.site("crm");
        int[] tr = org.sourceoftruth.records.Api.deviceTypeAndRole();
        int panel = org.sourceoftruth.records.Api.device(site, tr, "crm-p-" + u);
        int r1 = create("/api/dcim/rear-ports/", Map.of("device", panel, "name", "R1", "type", "8p8c"));
        int r2 = create("/api/dcim/rear-ports/", Map.of("device", panel, "name", "R2", "type", "8p8c"));
        int front = create(
                "/api/dcim/front-ports/",
                Map.of("device", panel, "name", "F", "type", "8p8c", "rear_ports", mapping("rear_port", r1, 1)));
        int d = org.sourceoftruth.records.Api.device(site, tr, "crm-d-" + u);
        int ia = iface(d, "a", "1000base-t");
        int ib = iface(d, "b", "1000base-t");
        int ic = iface(d, "c", "1000base-t");
        cable("dcim.interface", ia, "dcim.frontport", front);
        cable("dcim.rearport", r1, "dcim.interface", ib);
        cable("dcim.rearport", r2, "dcim.interface", ic);
        auth().get("/api/dcim/interfaces/" + ia + "/").then().body("connected_endpoints[0].id", equalTo(ib));
        auth().get("/api/dcim/interfaces/" + ic + "/")
                .then()
                .body("connected_endpoints", nullValue())
                .body("connected_endpoints_reachable", equalTo(false));
        int icChanges = changes("dcim.interface", ic);

        patch("/api/dcim/front-ports/" + front + "/", Map.of("rear_ports", mapping("rear_port", r2, 1)));
        auth().get("/api/dcim/interfaces/" + ia + "/")
                .then()
                .body("connected_endpoints[0].id", equalTo(ic))
                .body("connected_endpoints_reachable", equalTo(true));
        auth().get("/api/dcim/interfaces/" + ic + "/").then().body("connected_endpoints[0].id", equalTo(ia));
        auth().get("/api/dcim/interfaces/" + ib + "/")
                .then()
                .body("connected_endpoints", nullValue())
                .body("connected_endpoints_reachable", equalTo(false));
        auth().get("/api/dcim/rear-ports/" + r1 + "/paths/")
                .then()
                .body("$", hasSize(1))
                .body("[0].is_complete", equalTo(false));
        // paths are derived data: the far endpoint gets no change record, the front port its own
        assertTrue(changes("dcim.interface", ic) == icChanges, "a retrace logged the far interface");
        auth().get("/api/core/object-changes/?changed_object_type=dcim.frontport&changed_object_id=" + front)
                .then()
                .body("results.action.value", hasItem("update"));

        // a second position on R2 makes paths through it follow positions: a front port at position 2 is another path
        patch("/api/dcim/rear-ports/" + r2 + "/", Map.of("positions", 2));
        auth().get("/api/dcim/interfaces/" + ia + "/").then().body("connected_endpoints[0].id", equalTo(ic));
        auth().get("/api/dcim/interfaces/" + ic + "/")
                .then()
                .body("connected_endpoints", nullValue())
                .body("connected_endpoints_reachable", equalTo(false));

        // deleting the front port leaves both sides without a far end
        auth().delete("/api/dcim/front-ports/" + front + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/" + ic + "/").then().body("connected_endpoints", nullValue());
        auth().get("/api/dcim/rear-ports/" + r2 + "/paths/")
                .then()
                .body("$", hasSize(1))
                .body("[0].path", hasSize(3));
    }

    @Test
    void movingACircuitTerminationRetracesThePathsThroughItsCircuits() {
        String u = uniq();
        int s1 = org.sourceoftruth.records.Api.site("cm1");
        int s2 = org.sourceoftruth.records.Api.site("cm2");
        int[] tr = org.sourceoftruth.records.Api.deviceTypeAndRole();
        int x = iface(org.sourceoftruth.records.Api.device(s1, tr, "cmx-" + u), "xe-0", "10gbase-x-sfpp");
        int provider = create("/api/circuits/providers/", Map.of("name", "P " + u, "slug", "p-" + u));
        int network = create("/api/circuits/provider-networks/", Map.of("provider", provider, "name", "Net " + u));
        int type = create("/api/circuits/circuit-types/", Map.of("name", "T " + u, "slug", "t-" + u));
        int c1 = create("/api/circuits/circuits/", Map.of("cid", "C1-" + u, "provider", provider, "type", type));
        int c2 = create("/api/circuits/circuits/", Map.of("cid", "C2-" + u, "provider", provider, "type", type));
        int ta = create(
                "/api/circuits/circuit-terminations/",
                Map.of("circuit", c1, "term_side", "A", "termination_type", "dcim.site", "termination_id", s1));
        cable("dcim.interface", x, "circuits.circuittermination", ta);
        auth().get("/api/dcim/interfaces/" + x + "/trace/").then().body("$", hasSize(1));

        // the far end appears: the path runs on to its site (NetBox's rebuild_cablepaths of the peer)
        int tz = create(
                "/api/circuits/circuit-terminations/",
                Map.of("circuit", c1, "term_side", "Z", "termination_type", "dcim.site", "termination_id", s2));
        auth().get("/api/dcim/interfaces/" + x + "/trace/")
                .then()
                .body("$", hasSize(2))
                .body("[1][0][0].id", equalTo(tz))
                .body("[1][2][0].id", equalTo(s2));
        auth().get("/api/dcim/interfaces/" + x + "/").then().body("connected_endpoints_reachable", equalTo(false));

        // ending in a provider network completes the path there
        patch(
                "/api/circuits/circuit-terminations/" + tz + "/",
                Map.of("termination_type", "circuits.providernetwork", "termination_id", network));
        auth().get("/api/dcim/interfaces/" + x + "/")
                .then()
                .body("connected_endpoints_type", equalTo("circuits.providernetwork"))
                .body("connected_endpoints[0].id", equalTo(network))
                .body("connected_endpoints_reachable", equalTo(true));
        auth().get("/api/dcim/interfaces/" + x + "/trace/")
                .then()
                .body("$", hasSize(2))
                .body("[1][1]", hasSize(0))
                .body("[1][2][0].id", equalTo(network));

        // the far end moves to another circuit: the path stops at the near termination again
        patch("/api/circuits/circuit-terminations/" + tz + "/", Map.of("circuit", c2));
        auth().get("/api/dcim/interfaces/" + x + "/")
                .then()
                .body("connected_endpoints", nullValue())
                .body("connected_endpoints_reachable", equalTo(false));
        auth().get("/api/dcim/interfaces/" + x + "/trace/").then().body("$", hasSize(1));
        patch("/api/circuits/circuit-terminations/" + tz + "/", Map.of("circuit", c1));
        auth().get("/api/dcim/interfaces/" + x + "/").then().body("connected_endpoints[0].id", equalTo(network));
        auth().delete("/api/circuits/circuit-terminations/" + tz + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/" + x + "/").then().body("connected_endpoints", nullValue());
        auth().get("/api/dcim/interfaces/" + x + "/trace/").then().body("$", hasSize(1));
    }

    @Test
    void aWirelessLinkIsTheLinkOfItsInterfacesAndTheirPath() {
        String u = uniq();
        int site = org.sourceoftruth.records.Api.site("cwl");
        int[] tr = org.sourceoftruth.records.Api.deviceTypeAndRole();
        int w1 = iface(org.sourceoftruth.records.Api.device(site, tr, "cwl-1-" + u), "wlan0", "ieee802.11ac");
        int w2 = iface(org.sourceoftruth.records.Api.device(site, tr, "cwl-2-" + u), "wlan0", "ieee802.11ac");
        auth().get("/api/dcim/interfaces/" + w1 + "/")
                .then()
                .body("link_peers", hasSize(0))
                .body("connected_endpoints", nullValue())
                .body("connected_endpoints_reachable", equalTo(false));
        int before = changes("dcim.interface", w1);

        int link =
                create("/api/wireless/wireless-links/", Map.of("interface_a", w1, "interface_b", w2, "ssid", "s-" + u));
        // NetBox's Interface.link_peers: the other end; link_peers_type stays null without a cable
        auth().get("/api/dcim/interfaces/" + w1 + "/")
                .then()
                .body("wireless_link.id", equalTo(link))
                .body("link_peers[0].id", equalTo(w2))
                .body("link_peers_type", nullValue())
                .body("_occupied", equalTo(false))
                .body("cable", nullValue())
                .body("connected_endpoints_type", equalTo("dcim.interface"))
                .body("connected_endpoints[0].id", equalTo(w2))
                .body("connected_endpoints_reachable", equalTo(true));
        auth().get("/api/dcim/interfaces/" + w2 + "/")
                .then()
                .body("link_peers[0].id", equalTo(w1))
                .body("connected_endpoints[0].id", equalTo(w1));
        auth().get("/api/dcim/interfaces/" + w1 + "/trace/")
                .then()
                .statusCode(200)
                .body("$", hasSize(1))
                .body("[0][0][0].id", equalTo(w1))
                .body("[0][1].id", equalTo(link))
                .body("[0][1].status", equalTo("connected"))
                .body("[0][2][0].id", equalTo(w2));
        auth().get("/api/dcim/interfaces/?id=" + w1 + "&connected=true").then().body("count", equalTo(1));
        auth().get("/api/dcim/connected-device/?peer_device=cwl-1-" + u + "&peer_interface=wlan0")
                .then()
                .statusCode(200)
                .body("name", equalTo("cwl-2-" + u));
        // each interface is saved again: its change record shows the link
        assertTrue(changes("dcim.interface", w1) == before + 1, "no change record for the linked interface");
        auth().get("/api/core/object-changes/?changed_object_type=dcim.interface&changed_object_id=" + w1
                        + "&ordering=-id&limit=1")
                .then()
                .body("results[0].postchange_data.wireless_link", equalTo(link));

        patch("/api/wireless/wireless-links/" + link + "/", Map.of("status", "planned"));
        auth().get("/api/dcim/interfaces/" + w1 + "/")
                .then()
                .body("connected_endpoints[0].id", equalTo(w2))
                .body("connected_endpoints_reachable", equalTo(false));

        auth().delete("/api/wireless/wireless-links/" + link + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/" + w1 + "/")
                .then()
                .body("wireless_link", nullValue())
                .body("link_peers", hasSize(0))
                .body("connected_endpoints", nullValue())
                .body("connected_endpoints_reachable", equalTo(false));
        auth().get("/api/dcim/interfaces/" + w1 + "/trace/").then().body("$", hasSize(0));
        assertTrue(changes("dcim.interface", w2) >= 3, "the unlinked interface has no change record");
    }

    @Test
    void aTraceGoesOnAcrossTheBridgeOfItsFarInterface() {
        String u = uniq();
        int site = org.sourceoftruth.records.Api.site("cbr");
        int[] tr = org.sourceoftruth.records.Api.deviceTypeAndRole();
        int ia = iface(org.sourceoftruth.records.Api.device(site, tr, "cbr-a-" + u), "eth0", "1000base-t");
        int mid = org.sourceoftruth.records.Api.device(site, tr, "cbr-m-" + u);
        int ib = iface(mid, "eth0", "1000base-t");
        int ic = iface(mid, "eth1", "1000base-t");
        int far = org.sourceoftruth.records.Api.device(site, tr, "cbr-d-" + u);
        int id = iface(far, "eth0", "1000base-t");
        int c1 = cable("dcim.interface", ia, "dcim.interface", ib);
        int c2 = cable("dcim.interface", ic, "dcim.interface", id);
        auth().get("/api/dcim/interfaces/" + ia + "/trace/").then().body("$", hasSize(1));
        patch("/api/dcim/interfaces/" + ib + "/", Map.of("bridge", ic));
        // PathEndpoint.trace(): the far interface's bridge continues the trace; the stored path does not
        auth().get("/api/dcim/interfaces/" + ia + "/trace/")
                .then()
                .body("$", hasSize(2))
                .body("[0][1].id", equalTo(c1))
                .body("[0][2][0].id", equalTo(ib))
                .body("[1][0][0].id", equalTo(ic))
                .body("[1][1].id", equalTo(c2))
                .body("[1][2][0].id", equalTo(id));
        auth().get("/api/dcim/interfaces/" + ia + "/").then().body("connected_endpoints[0].id", equalTo(ib));
        // bridges leading back end the trace instead of looping: id bridges to ie, cabled back to ix bridged to ic
        int ie = iface(far, "eth1", "1000base-t");
        int ix = iface(mid, "eth2", "1000base-t");
        int c3 = cable("dcim.interface", ie, "dcim.interface", ix);
        patch("/api/dcim/interfaces/" + id + "/", Map.of("bridge", ie));
        patch("/api/dcim/interfaces/" + ix + "/", Map.of("bridge", ic));
        auth().get("/api/dcim/interfaces/" + ia + "/trace/")
                .then()
                .statusCode(200)
                .body("$", hasSize(3))
                .body("[2][1].id", equalTo(c3))
                .body("[2][2][0].id", equalTo(ix));
    }
}
