package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * NetBox 4.5's cable profiles: a profiled cable's terminations sit on its connectors with their
 * lanes, link peers and traced paths follow the lanes (through port mappings by position), the
 * profile limits the objects of each end; cable terminations are read-only; cables have bundles.
 */
@QuarkusTest
class CableProfilesTest {

    private static Map<String, Object> end(String type, int id) {
        return Map.of("object_type", type, "object_id", id);
    }

    private static List<Map<String, Object>> ends(String type, List<Integer> ids) {
        return ids.stream().map(id -> end(type, id)).toList();
    }

    private static int cable(String profile, String aType, List<Integer> a, String bType, List<Integer> b) {
        Map<String, Object> body = new HashMap<>();
        body.put("a_terminations", ends(aType, a));
        body.put("b_terminations", ends(bType, b));
        if (profile != null) {
            body.put("profile", profile);
        }
        return create("/api/dcim/cables/", body);
    }

    private static int iface(int device, String name) {
        return create("/api/dcim/interfaces/", Map.of("device", device, "name", name, "type", "1000base-t"));
    }

    private static List<Integer> ifaces(int device, String prefix, int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(iface(device, prefix + i));
        }
        return out;
    }

    @Test
    void aBreakoutCableFansTheLanesOfItsAEndOutToTheObjectsOfItsBEnd() {
        String u = uniq();
        int site = Api.site("cpb");
        int[] tr = Api.deviceTypeAndRole();
        int qsfp = iface(Api.device(site, tr, "cpb-sw-" + u), "qsfp0");
        List<Integer> e = ifaces(Api.device(site, tr, "cpb-srv-" + u), "e", 4);
        int c = cable("breakout-1c4p-4c1p", "dcim.interface", List.of(qsfp), "dcim.interface", e);
        auth().get("/api/dcim/cables/" + c + "/")
                .then()
                .body("profile.value", equalTo("breakout-1c4p-4c1p"))
                .body("profile.label", equalTo("1C4P:4C1P breakout"))
                .body("a_terminations[0].object_id", equalTo(qsfp))
                .body("b_terminations.object_id", contains(e.toArray()));
        // one connector on A with four lanes, four connectors of one lane on B, in the order given
        auth().get("/api/dcim/cable-terminations/?cable_id=" + c)
                .then()
                .body("count", equalTo(5))
                .body("results.cable_end", contains("A", "B", "B", "B", "B"))
                .body("results.connector", contains(1, 1, 2, 3, 4))
                .body("results[0].positions", contains(1, 2, 3, 4))
                .body("results[3].positions", contains(1))
                .body("results[3].termination_id", equalTo(e.get(2)));
        auth().get("/api/dcim/cable-terminations/?cable_id=" + c + "&brief=1")
                .then()
                .body(
                        "results[0].keySet()",
                        contains(
                                "id",
                                "url",
                                "display",
                                "cable",
                                "cable_end",
                                "termination_type",
                                "termination_id",
                                "connector",
                                "positions"));
        auth().get("/api/dcim/interfaces/" + qsfp + "/")
                .then()
                .body("link_peers.id", contains(e.toArray()))
                .body("connected_endpoints.id", contains(e.toArray()))
                .body("connected_endpoints_reachable", equalTo(true));
        // each lane of the B end reaches the A end's object alone
        auth().get("/api/dcim/interfaces/" + e.get(2) + "/")
                .then()
                .body("link_peers.id", contains(qsfp))
                .body("connected_endpoints.id", contains(qsfp));
        auth().get("/api/dcim/interfaces/?cable_connector=3&cable_id=" + c)
                .then()
                .body("results.id", contains(e.get(2)));
        auth().get("/api/dcim/interfaces/" + e.get(2) + "/trace/")
                .then()
                .statusCode(200)
                .body("$", hasSize(1))
                .body("[0][0][0].id", equalTo(e.get(2)))
                .body("[0][1].id", equalTo(c))
                .body("[0][2].id", contains(qsfp));
        auth().get("/api/dcim/cables/?profile=breakout-1c4p-4c1p&device_id="
                        + auth().get("/api/dcim/interfaces/" + qsfp + "/")
                                .then()
                                .extract()
                                .path("device.id"))
                .then()
                .body("results.id", contains(c));

        // without the profile the cable connects its ends as a whole again
        auth().body("{\"profile\": null}")
                .patch("/api/dcim/cables/" + c + "/")
                .then()
                .statusCode(200)
                .body("profile", nullValue());
        auth().get("/api/dcim/cable-terminations/?cable_id=" + c)
                .then()
                .body("count", equalTo(5))
                .body("results.connector", org.hamcrest.Matchers.everyItem(nullValue()))
                .body("results.positions", org.hamcrest.Matchers.everyItem(nullValue()));
        auth().get("/api/dcim/interfaces/" + e.get(2) + "/")
                .then()
                .body("link_peers.id", contains(qsfp))
                .body("connected_endpoints.id", contains(qsfp));
    }

    @Test
    void aProfileLimitsTheObjectsOnEachEndAndIsOneOfNetBoxsProfiles() {
        String u = uniq();
        int site = Api.site("cpl");
        int[] tr = Api.deviceTypeAndRole();
        List<Integer> a = ifaces(Api.device(site, tr, "cpl-a-" + u), "a", 2);
        List<Integer> b = ifaces(Api.device(site, tr, "cpl-b-" + u), "b", 5);
        int before = auth().get("/api/dcim/cables/?limit=1").then().extract().path("count");
        post(
                        "/api/dcim/cables/",
                        Map.of(
                                "profile",
                                "breakout-1c4p-4c1p",
                                "a_terminations",
                                ends("dcim.interface", a),
                                "b_terminations",
                                ends("dcim.interface", b.subList(0, 4))))
                .statusCode(400)
                .body(
                        "a_terminations",
                        hasItem("A side of cable has 2 terminations but only 1 are permitted for profile 1C4P:4C1P"
                                + " breakout"));
        post(
                        "/api/dcim/cables/",
                        Map.of(
                                "profile",
                                "breakout-1c4p-4c1p",
                                "a_terminations",
                                ends("dcim.interface", a.subList(0, 1)),
                                "b_terminations",
                                ends("dcim.interface", b)))
                .statusCode(400)
                .body(
                        "b_terminations",
                        hasItem("B side of cable has 5 terminations but only 4 are permitted for profile 1C4P:4C1P"
                                + " breakout"));
        post(
                        "/api/dcim/cables/",
                        Map.of(
                                "profile",
                                "breakout-9c9p",
                                "a_terminations",
                                ends("dcim.interface", a.subList(0, 1)),
                                "b_terminations",
                                ends("dcim.interface", b.subList(0, 1))))
                .statusCode(400)
                .body("profile", hasItem("\"breakout-9c9p\" is not a valid choice."));
        // a profile set later is checked against the ends the cable has
        int c = cable(null, "dcim.interface", a.subList(0, 1), "dcim.interface", b.subList(0, 2));
        auth().body(Map.of("profile", "single-1c4p"))
                .patch("/api/dcim/cables/" + c + "/")
                .then()
                .statusCode(400)
                .body(
                        "b_terminations",
                        hasItem("B side of cable has 2 terminations but only 1 are permitted for profile 1C4P"));
        auth().body(Map.of("profile", "trunk-2c2p"))
                .patch("/api/dcim/cables/" + c + "/")
                .then()
                .statusCode(200)
                .body("profile.label", equalTo("2C2P trunk"));
        auth().get("/api/dcim/cable-terminations/?cable_id=" + c + "&cable_end=B")
                .then()
                .body("results.connector", contains(1, 2))
                .body("results[1].positions", contains(1, 2));
        auth().get("/api/dcim/cables/?limit=1").then().body("count", equalTo(before + 1));
    }

    /**
     * The end to end path through a breakout: a switch's QSFP port on a 1C4P cable to an MPO rear
     * port of a patch panel, whose four front ports map to the rear port's four lanes and are
     * cabled to a server's four ports. The switch port reaches all four server ports, each server
     * port reaches the switch port alone; without the profile the switch port's path splits at the
     * rear port, having no lane to follow.
     */
    @Test
    void aTracedPathFollowsTheLanesOfAProfiledCableThroughAPatchPanel() {
        String u = uniq();
        int site = Api.site("cpp");
        int[] tr = Api.deviceTypeAndRole();
        int qsfp = iface(Api.device(site, tr, "cpp-sw-" + u), "qsfp0");
        int panel = Api.device(site, tr, "cpp-panel-" + u);
        int rear =
                create("/api/dcim/rear-ports/", Map.of("device", panel, "name", "MPO", "type", "mpo", "positions", 4));
        List<Integer> fronts = new ArrayList<>();
        for (int lane = 1; lane <= 4; lane++) {
            fronts.add(create(
                    "/api/dcim/front-ports/",
                    Map.of(
                            "device",
                            panel,
                            "name",
                            "LC" + lane,
                            "type",
                            "lc",
                            "rear_ports",
                            List.of(Map.of("position", 1, "rear_port", rear, "rear_port_position", lane)))));
        }
        List<Integer> server = ifaces(Api.device(site, tr, "cpp-srv-" + u), "e", 4);
        int trunk = cable("single-1c4p", "dcim.interface", List.of(qsfp), "dcim.rearport", List.of(rear));
        List<Integer> patches = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            patches.add(
                    cable(null, "dcim.frontport", List.of(fronts.get(i)), "dcim.interface", List.of(server.get(i))));
        }

        auth().get("/api/dcim/interfaces/" + qsfp + "/")
                .then()
                .body("link_peers.id", contains(rear))
                .body("connected_endpoints_type", equalTo("dcim.interface"))
                .body("connected_endpoints.id", contains(server.toArray()))
                .body("connected_endpoints_reachable", equalTo(true));
        auth().get("/api/dcim/interfaces/" + qsfp + "/trace/")
                .then()
                .statusCode(200)
                .body("$", hasSize(2))
                .body("[0][0][0].id", equalTo(qsfp))
                .body("[0][1].id", equalTo(trunk))
                .body("[0][2][0].id", equalTo(rear))
                .body("[1][0].id", contains(fronts.toArray()))
                .body("[1][1].id", equalTo(patches.get(0)))
                .body("[1][2].id", contains(server.toArray()));
        for (int i = 0; i < 4; i++) {
            auth().get("/api/dcim/interfaces/" + server.get(i) + "/")
                    .then()
                    .body("connected_endpoints.id", contains(qsfp))
                    .body("connected_endpoints_reachable", equalTo(true));
        }
        // lane 3: e3 - LC3 - MPO (position 3) - the trunk's lane 3 - qsfp0
        auth().get("/api/dcim/interfaces/" + server.get(2) + "/trace/")
                .then()
                .body("$", hasSize(2))
                .body("[0][2][0].id", equalTo(fronts.get(2)))
                .body("[1][0][0].id", equalTo(rear))
                .body("[1][1].id", equalTo(trunk))
                .body("[1][2][0].id", equalTo(qsfp));
        auth().get("/api/dcim/rear-ports/" + rear + "/paths/")
                .then()
                .statusCode(200)
                .body("$", hasSize(5))
                .body("is_complete", contains(true, true, true, true, true));
        auth().get("/api/dcim/interfaces/?connected=true&id=" + qsfp + "&id=" + server.get(3))
                .then()
                .body("count", equalTo(2));

        // no profile, no lanes: the rear port's four positions leave the switch port's path nowhere to go
        auth().body("{\"profile\": null}")
                .patch("/api/dcim/cables/" + trunk + "/")
                .then()
                .statusCode(200);
        auth().get("/api/dcim/interfaces/" + qsfp + "/")
                .then()
                .body("connected_endpoints", nullValue())
                .body("connected_endpoints_reachable", equalTo(false));
        auth().get("/api/dcim/interfaces/" + server.get(2) + "/").then().body("connected_endpoints.id", contains(qsfp));
        // the profile back: the lanes are followed again
        auth().body(Map.of("profile", "single-1c4p"))
                .patch("/api/dcim/cables/" + trunk + "/")
                .then()
                .statusCode(200);
        auth().get("/api/dcim/interfaces/" + qsfp + "/")
                .then()
                .body("connected_endpoints.id", contains(server.toArray()));
    }

    @Test
    void cableTerminationsAreReadOnlyAndWrittenByTheirCable() {
        String u = uniq();
        int site = Api.site("cpr");
        int[] tr = Api.deviceTypeAndRole();
        int a = iface(Api.device(site, tr, "cpr-a-" + u), "a");
        int b = iface(Api.device(site, tr, "cpr-b-" + u), "b");
        int c = cable(null, "dcim.interface", List.of(a), "dcim.interface", List.of(b));
        int termination = auth().get("/api/dcim/cable-terminations/?cable_id=" + c + "&cable_end=A")
                .then()
                .body("results[0].connector", nullValue())
                .body("results[0].positions", nullValue())
                .extract()
                .path("results[0].id");
        Map<String, Object> body =
                Map.of("cable", c, "cable_end", "B", "termination_type", "dcim.interface", "termination_id", a);
        auth().body(body)
                .post("/api/dcim/cable-terminations/")
                .then()
                .statusCode(405)
                .body("detail", equalTo("Method \"POST\" not allowed."));
        auth().body(body)
                .patch("/api/dcim/cable-terminations/" + termination + "/")
                .then()
                .statusCode(405);
        auth().body(body)
                .put("/api/dcim/cable-terminations/" + termination + "/")
                .then()
                .statusCode(405);
        auth().delete("/api/dcim/cable-terminations/" + termination + "/")
                .then()
                .statusCode(405);
        auth().get("/api/dcim/cable-terminations/" + termination + "/")
                .then()
                .statusCode(200)
                .body("cable_end", equalTo("A"))
                .body("termination.id", equalTo(a));
        auth().get("/api/dcim/cable-terminations/?interface_id=" + b).then().body("results[0].cable", equalTo(c));
        // written by the cable, each termination has its change record
        auth().get("/api/core/object-changes/?changed_object_type=dcim.cabletermination&changed_object_id="
                        + termination)
                .then()
                .body("results.action.value", contains("create"));
        auth().delete("/api/dcim/cables/" + c + "/").then().statusCode(204);
        auth().get("/api/core/object-changes/?changed_object_type=dcim.cabletermination&changed_object_id="
                        + termination + "&ordering=id")
                .then()
                .body("results.action.value", contains("create", "delete"));
    }

    @Test
    void cablesBelongToABundle() {
        String u = uniq();
        int site = Api.site("cpbn");
        int[] tr = Api.deviceTypeAndRole();
        int a = iface(Api.device(site, tr, "cpbn-a-" + u), "a");
        int b = iface(Api.device(site, tr, "cpbn-b-" + u), "b");
        int bundle = create("/api/dcim/cable-bundles/", Map.of("name", "trunk-" + u, "description", "east"));
        int c = create(
                "/api/dcim/cables/",
                Map.of(
                        "bundle",
                        bundle,
                        "a_terminations",
                        ends("dcim.interface", List.of(a)),
                        "b_terminations",
                        ends("dcim.interface", List.of(b))));
        auth().get("/api/dcim/cables/" + c + "/")
                .then()
                .body("bundle.id", equalTo(bundle))
                .body("bundle.name", equalTo("trunk-" + u))
                .body("bundle.description", equalTo("east"))
                .body("bundle.keySet()", contains("id", "url", "display", "name", "description"));
        auth().get("/api/dcim/cables/?bundle_id=" + bundle).then().body("results.id", contains(c));
        auth().get("/api/dcim/cables/?bundle=trunk-" + u).then().body("results.id", contains(c));
        auth().get("/api/dcim/cable-bundles/" + bundle + "/").then().body("cable_count", equalTo(1));
        auth().body(Map.of("bundle", 999999999))
                .patch("/api/dcim/cables/" + c + "/")
                .then()
                .statusCode(400)
                .body("$", org.hamcrest.Matchers.hasKey("bundle"));
        // deleting the bundle leaves its cables without one, each with its change record
        auth().delete("/api/dcim/cable-bundles/" + bundle + "/").then().statusCode(204);
        auth().get("/api/dcim/cables/" + c + "/").then().body("bundle", nullValue());
        auth().get("/api/core/object-changes/?changed_object_type=dcim.cable&changed_object_id=" + c
                        + "&ordering=-id&limit=1")
                .then()
                .body("results[0].action.value", equalTo("update"))
                .body("results[0].postchange_data.bundle", nullValue());
    }

    /** The lanes of NetBox's profiles: breakouts fan out and back, shuffles cross. */
    @Test
    void profilesMapLanesAsNetBoxs() {
        assertEquals(26, CableProfiles.CHOICES.values().size());
        CableProfiles.Profile breakout = CableProfiles.of("breakout-1c4p-4c1p");
        assertEquals(1, breakout.connectors("A"));
        assertEquals(4, breakout.connectors("B"));
        assertEquals(new CableProfiles.Lane(3, 1), breakout.far("A", 1, 3));
        assertEquals(new CableProfiles.Lane(1, 3), breakout.far("B", 3, 1));
        assertNull(breakout.far("A", 1, 5));
        CableProfiles.Profile shuffle = CableProfiles.of("breakout-2c4p-8c1p-shuffle");
        assertEquals(new CableProfiles.Lane(5, 1), shuffle.far("A", 1, 3));
        assertEquals(new CableProfiles.Lane(1, 3), shuffle.far("B", 5, 1));
        assertEquals(new CableProfiles.Lane(2, 4), shuffle.far("B", 8, 1));
        assertEquals(
                new CableProfiles.Lane(3, 2),
                CableProfiles.of("trunk-4c4p-shuffle").far("A", 2, 3));
        assertEquals(
                new CableProfiles.Lane(2, 1),
                CableProfiles.of("trunk-2c4p-shuffle").far("B", 1, 3));
        assertEquals(
                new CableProfiles.Lane(2, 7), CableProfiles.of("trunk-2c12p").far("A", 2, 7));
        assertEquals(List.of(1, 2, 3, 4, 5, 6), CableProfiles.of("single-1c6p").positions("B", 1));
        assertEquals("8C4P trunk", CableProfiles.CHOICES.label("trunk-8c4p"));
    }
}
