package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * NetBox 4.5's port mappings: a front port's {@code rear_ports} and a rear port's
 * {@code front_ports} (and their templates'), written from either side, checked, kept in the
 * change log as changes of the front port, and copied from templates when a device or a module is
 * made.
 */
@QuarkusTest
class PortMappingsTest {
    @Inject
    AgroalDataSource dataSource;

    private static int device(String prefix) {
        return Api.device(Api.site(prefix), Api.deviceTypeAndRole(), prefix + "-" + uniq());
    }

    private static Map<String, Object> item(int position, String other, int otherId, int otherPosition) {
        return Map.of("position", position, other, otherId, other + "_position", otherPosition);
    }

    private static int rear(int device, String name, int positions) {
        return create(
                "/api/dcim/rear-ports/", Map.of("device", device, "name", name, "type", "lc", "positions", positions));
    }

    private static int front(int device, String name, int positions, List<Map<String, Object>> rearPorts) {
        return create(
                "/api/dcim/front-ports/",
                Map.of("device", device, "name", name, "type", "lc", "positions", positions, "rear_ports", rearPorts));
    }

    /** The stored mapping rows of a front port: "id:position>rear:rear_position", by position. */
    private List<String> rows(int frontPort) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select id, front_port_position, rear_port_id,"
                        + " rear_port_position from dcim_portmapping where front_port_id = ? order by 2")) {
            ps.setLong(1, frontPort);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1) + ":" + rs.getInt(2) + ">" + rs.getLong(3) + ":" + rs.getInt(4));
                }
            }
            return out;
        }
    }

    private static JsonPath lastChange(String type, int id) {
        return auth().get("/api/core/object-changes/?changed_object_type=" + type + "&changed_object_id=" + id
                        + "&ordering=-id&limit=1")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static int changes(String type, int id) {
        return auth().get("/api/core/object-changes/?changed_object_type=" + type + "&changed_object_id=" + id)
                .then()
                .extract()
                .path("count");
    }

    @Test
    void aFrontPortMapsItsPositionsToSeveralRearPortsAndOnlyTheDifferenceIsWritten() throws Exception {
        int d = device("pm");
        int r1 = rear(d, "R1", 2);
        int r2 = rear(d, "R2", 2);
        int f = front(d, "F1", 2, List.of(item(1, "rear_port", r1, 1), item(2, "rear_port", r2, 2)));
        auth().get("/api/dcim/front-ports/" + f + "/")
                .then()
                .statusCode(200)
                .body("positions", equalTo(2))
                .body(
                        "rear_ports",
                        equalTo(List.of(
                                Map.of("position", 1, "rear_port", r1, "rear_port_position", 1),
                                Map.of("position", 2, "rear_port", r2, "rear_port_position", 2))));
        auth().get("/api/dcim/rear-ports/" + r2 + "/")
                .then()
                .body(
                        "front_ports",
                        equalTo(List.of(Map.of("position", 2, "front_port", f, "front_port_position", 2))));
        // the create's change record and event show the mappings already
        JsonPath created = lastChange("dcim.frontport", f);
        assertEquals("create", created.getString("results[0].action.value"));
        assertEquals(r2, created.getInt("results[0].postchange_data.rear_ports[1].rear_port"));

        List<String> before = rows(f);
        // re-point position 2 only: position 1's row stays as it is (its id too)
        auth().body(Map.of("rear_ports", List.of(item(1, "rear_port", r1, 1), item(2, "rear_port", r1, 2))))
                .patch("/api/dcim/front-ports/" + f + "/")
                .then()
                .statusCode(200)
                .body("rear_ports.rear_port", contains(r1, r1))
                .body("rear_ports.rear_port_position", contains(1, 2));
        List<String> after = rows(f);
        assertEquals(before.get(0), after.get(0), "an unchanged mapping was written again");
        assertTrue(!before.get(1).equals(after.get(1)), after.toString());
        JsonPath updated = lastChange("dcim.frontport", f);
        assertEquals("update", updated.getString("results[0].action.value"));
        assertEquals(r2, updated.getInt("results[0].prechange_data.rear_ports[1].rear_port"));
        assertEquals(r1, updated.getInt("results[0].postchange_data.rear_ports[1].rear_port"));
        auth().get("/api/dcim/rear-ports/" + r2 + "/").then().body("front_ports", hasSize(0));

        // swapping two positions' targets passes the unique constraints
        auth().body(Map.of("rear_ports", List.of(item(1, "rear_port", r1, 2), item(2, "rear_port", r1, 1))))
                .patch("/api/dcim/front-ports/" + f + "/")
                .then()
                .statusCode(200)
                .body("rear_ports.rear_port_position", contains(2, 1));
        // a write that leaves the list out leaves the mappings; an empty list removes them
        auth().body(Map.of("name", "F1", "type", "lc", "device", d))
                .put("/api/dcim/front-ports/" + f + "/")
                .then()
                .statusCode(200)
                .body("rear_ports", hasSize(2));
        auth().body(Map.of("rear_ports", List.of()))
                .patch("/api/dcim/front-ports/" + f + "/")
                .then()
                .statusCode(200)
                .body("rear_ports", hasSize(0));
        assertEquals(List.of(), rows(f));
        auth().get("/api/dcim/rear-ports/?front_port_id=" + f).then().body("count", equalTo(0));
    }

    @Test
    void writingThroughARearPortIsAChangeOfEachFrontPortItTouches() {
        int d = device("pmr");
        int f1 = front(d, "F1", 1, List.of());
        int f2 = front(d, "F2", 1, List.of());
        int f1Changes = changes("dcim.frontport", f1);
        int r = create(
                "/api/dcim/rear-ports/",
                Map.of(
                        "device",
                        d,
                        "name",
                        "R",
                        "type",
                        "lc",
                        "positions",
                        2,
                        "front_ports",
                        List.of(item(1, "front_port", f1, 1), item(2, "front_port", f2, 1))));
        auth().get("/api/dcim/front-ports/" + f2 + "/")
                .then()
                .body("rear_ports", equalTo(List.of(Map.of("position", 1, "rear_port", r, "rear_port_position", 2))));
        assertEquals(f1Changes + 1, changes("dcim.frontport", f1), "no change record for the mapped front port");
        JsonPath change = lastChange("dcim.frontport", f2);
        assertEquals("update", change.getString("results[0].action.value"));
        assertEquals(r, change.getInt("results[0].postchange_data.rear_ports[0].rear_port"));

        // the rear port's delete takes the mappings: a change of the front ports that had them
        auth().delete("/api/dcim/rear-ports/" + r + "/").then().statusCode(204);
        assertEquals(f1Changes + 2, changes("dcim.frontport", f1), "the lost mapping has no change record");
        JsonPath lost = lastChange("dcim.frontport", f1);
        assertEquals(0, lost.getList("results[0].postchange_data.rear_ports").size());
        auth().get("/api/dcim/front-ports/" + f1 + "/").then().statusCode(200).body("rear_ports", hasSize(0));
        // a device's delete takes both sides: one delete record each, no update of a deleted port
        auth().delete("/api/dcim/devices/" + d + "/").then().statusCode(204);
        auth().get("/api/dcim/front-ports/" + f2 + "/").then().statusCode(404);
    }

    @Test
    void badMappingsAreFieldErrorsAndChangeNothing() throws Exception {
        int d = device("pmb");
        int other = device("pmb2");
        int r = rear(d, "R1", 2);
        int foreign = rear(other, "RX", 1);
        int f = front(d, "F1", 2, List.of(item(1, "rear_port", r, 1)));
        front(d, "F2", 1, List.of(item(1, "rear_port", r, 2)));
        int elsewhere = front(d, "F3", 1, List.of(item(1, "rear_port", rear(d, "R2", 1), 1)));
        List<String> stored = rows(f);
        Map<Object, String> cases = new java.util.LinkedHashMap<>();
        cases.put("not a list", "Expected a list of items but got type \"str\".");
        cases.put(Map.of("position", 1), "Expected a list of items but got type \"dict\".");
        cases.put(List.of(7), "rear_ports[0]: Invalid data. Expected a dictionary, but got int.");
        cases.put(List.of(Map.of("rear_port", r)), "rear_ports[0].position: This field is required.");
        cases.put(
                List.of(Map.of("position", "one", "rear_port", r)),
                "rear_ports[0].position: A valid integer is required.");
        cases.put(List.of(Map.of("position", 1)), "rear_ports[0].rear_port: This field is required.");
        cases.put(
                List.of(Map.of("position", 1, "rear_port", Map.of("id", r))),
                "rear_ports[0].rear_port: Incorrect type. Expected pk value, received dict.");
        cases.put(
                List.of(item(1, "rear_port", 999999999, 1)),
                "rear_ports[0].rear_port: Invalid pk \"999999999\" - object does not exist.");
        cases.put(
                List.of(item(3, "rear_port", r, 1)),
                "rear_ports[0].position: Invalid position (3): front port F1 has only 2 positions.");
        cases.put(
                List.of(item(0, "rear_port", r, 1)),
                "rear_ports[0].position: Invalid position (0): front port F1 has only 2 positions.");
        cases.put(
                List.of(item(1, "rear_port", r, 1), item(1, "rear_port", r, 2)),
                "rear_ports[1].position: Position 1 is mapped twice.");
        cases.put(
                List.of(item(1, "rear_port", r, 0)),
                "rear_ports[0].rear_port_position: Ensure this value is greater than or equal to 1.");
        cases.put(
                List.of(item(1, "rear_port", r, 5000)),
                "rear_ports[0].rear_port_position: Ensure this value is less than or equal to 1024.");
        cases.put(
                List.of(item(1, "rear_port", r, 3)),
                "rear_ports[0].rear_port_position: Invalid rear port position (3): Rear port R1 has only 2 positions.");
        cases.put(
                List.of(item(1, "rear_port", foreign, 1)),
                "rear_ports[0].rear_port: Rear port (RX) must belong to the same device");
        cases.put(
                List.of(item(1, "rear_port", r, 2)),
                "rear_ports[0]: The fields rear_port, rear_port_position must make a unique set.");
        cases.put(
                List.of(item(1, "rear_port", r, 1), item(2, "rear_port", r, 1)),
                "rear_ports[1]: The fields rear_port, rear_port_position must make a unique set.");
        cases.put(
                List.of(item(1, "rear_port", r, 1), item(2, "rear_port", r, 2), item(3, "rear_port", r, 1)),
                "Ensure this field has no more than 2 elements (the port has 2 positions).");
        for (Map.Entry<Object, String> c : cases.entrySet()) {
            auth().body(Map.of("rear_ports", c.getKey()))
                    .patch("/api/dcim/front-ports/" + f + "/")
                    .then()
                    .statusCode(400)
                    .body("rear_ports", hasItem(c.getValue()));
        }
        auth().body("{\"rear_ports\": null}")
                .patch("/api/dcim/front-ports/" + f + "/")
                .then()
                .statusCode(400)
                .body("rear_ports", hasItem("This field may not be null."));
        // the same rules from the rear port's side, and on create
        auth().body(Map.of("front_ports", List.of(item(1, "front_port", elsewhere, 1))))
                .patch("/api/dcim/rear-ports/" + r + "/")
                .then()
                .statusCode(400)
                .body(
                        "front_ports",
                        hasItem("front_ports[0]: The fields front_port, front_port_position must make a unique set."));
        post(
                        "/api/dcim/front-ports/",
                        Map.of(
                                "device",
                                d,
                                "name",
                                "F9",
                                "type",
                                "lc",
                                "rear_ports",
                                List.of(item(1, "rear_port", r, 9))))
                .statusCode(400)
                .body(
                        "rear_ports",
                        hasItem("rear_ports[0].rear_port_position: Invalid rear port position (9): Rear port R1 has"
                                + " only 2 positions."));
        // NetBox's positions checks: a port keeps at least as many positions as it has mappings
        auth().body(Map.of("positions", 1))
                .patch("/api/dcim/rear-ports/" + r + "/")
                .then()
                .statusCode(400)
                .body(
                        "positions",
                        hasItem("The number of positions cannot be less than the number of mapped front ports (2)"));
        auth().body(Map.of("rear_ports", List.of(item(1, "rear_port", r, 1), item(2, "rear_port", foreign, 1))))
                .patch("/api/dcim/front-ports/" + f + "/")
                .then()
                .statusCode(400);
        assertEquals(stored, rows(f), "a refused write changed the mappings");
        auth().get("/api/dcim/front-ports/?device_id=" + d).then().body("count", equalTo(3));
    }

    /** Two writers mapping the same rear port position at once: one wins, the other is a 400, never a 5xx. */
    @Test
    void concurrentWritersOfOneRearPositionLeaveOneMapping() throws Exception {
        int d = device("pmc");
        int r = rear(d, "R", 1);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String name = "F" + i;
                Callable<Integer> write = () -> auth().body(Map.of(
                                "device",
                                d,
                                "name",
                                name,
                                "type",
                                "lc",
                                "rear_ports",
                                List.of(item(1, "rear_port", r, 1))))
                        .post("/api/dcim/front-ports/")
                        .then()
                        .extract()
                        .statusCode();
                answers.add(pool.submit(write));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> a : answers) {
                statuses.add(a.get(60, TimeUnit.SECONDS));
            }
            assertEquals(1, statuses.stream().filter(s -> s == 201).count(), statuses.toString());
            assertTrue(statuses.stream().allMatch(s -> s == 201 || s == 400), statuses.toString());
        } finally {
            pool.shutdownNow();
        }
        auth().get("/api/dcim/rear-ports/" + r + "/").then().body("front_ports", hasSize(1));
    }

    @Test
    void templatesMapAndDevicesAndModulesGetTheMappingsOfTheirTypes() {
        String u = uniq();
        int[] typeAndRole = Api.deviceTypeAndRole();
        int type = typeAndRole[0];
        int rt = create(
                "/api/dcim/rear-port-templates/",
                Map.of("device_type", type, "name", "R", "type", "mpo", "positions", 4));
        int ft1 = create(
                "/api/dcim/front-port-templates/",
                Map.of(
                        "device_type",
                        type,
                        "name",
                        "F1",
                        "type",
                        "lc",
                        "rear_ports",
                        List.of(item(1, "rear_port", rt, 1))));
        // a front port template of two positions on lanes 3 and 4
        int ft2 = create(
                "/api/dcim/front-port-templates/",
                Map.of(
                        "device_type",
                        type,
                        "name",
                        "F2",
                        "type",
                        "lc",
                        "positions",
                        2,
                        "rear_ports",
                        List.of(item(1, "rear_port", rt, 3), item(2, "rear_port", rt, 4))));
        auth().get("/api/dcim/rear-port-templates/" + rt + "/")
                .then()
                .body("front_ports.front_port", contains(ft1, ft2, ft2))
                .body("front_ports.position", contains(1, 3, 4));
        auth().get("/api/dcim/front-port-templates/?rear_port_id=" + rt).then().body("count", equalTo(2));
        int device = Api.device(Api.site("pmt"), typeAndRole, "pmt-" + u);
        int rear = auth().get("/api/dcim/rear-ports/?device_id=" + device)
                .then()
                .body("results.positions", contains(4))
                .extract()
                .path("results[0].id");
        auth().get("/api/dcim/front-ports/?device_id=" + device + "&ordering=name")
                .then()
                .body("results.name", contains("F1", "F2"))
                .body(
                        "results[0].rear_ports",
                        equalTo(List.of(Map.of("position", 1, "rear_port", rear, "rear_port_position", 1))))
                .body("results[1].positions", equalTo(2))
                .body("results[1].rear_ports.rear_port", contains(rear, rear))
                .body("results[1].rear_ports.rear_port_position", contains(3, 4));
        // the front ports' create records show their mappings
        int f2 = auth().get("/api/dcim/front-ports/?device_id=" + device + "&name=F2")
                .then()
                .extract()
                .path("results[0].id");
        assertEquals(
                List.of(3, 4),
                lastChange("dcim.frontport", f2).getList("results[0].postchange_data.rear_ports.rear_port_position"));

        // a module type's templates: the module's ports, mapped on the module's device
        int mfr = create("/api/dcim/manufacturers/", Map.of("name", "pmm-" + u, "slug", "pmm-" + u));
        int moduleType = create("/api/dcim/module-types/", Map.of("manufacturer", mfr, "model", "cassette-" + u));
        int mrt = create(
                "/api/dcim/rear-port-templates/",
                Map.of("module_type", moduleType, "name", "MR{module}", "type", "mpo", "positions", 2));
        create(
                "/api/dcim/front-port-templates/",
                Map.of(
                        "module_type",
                        moduleType,
                        "name",
                        "MF{module}",
                        "type",
                        "lc",
                        "rear_ports",
                        List.of(item(1, "rear_port", mrt, 2))));
        int bay = create("/api/dcim/module-bays/", Map.of("device", device, "name", "Slot 1", "position", "1"));
        int module =
                create("/api/dcim/modules/", Map.of("device", device, "module_bay", bay, "module_type", moduleType));
        int moduleRear = auth().get("/api/dcim/rear-ports/?module_id=" + module)
                .then()
                .body("results.name", contains("MR1"))
                .extract()
                .path("results[0].id");
        auth().get("/api/dcim/front-ports/?module_id=" + module)
                .then()
                .body("results.name", contains("MF1"))
                .body(
                        "results[0].rear_ports",
                        equalTo(List.of(Map.of("position", 1, "rear_port", moduleRear, "rear_port_position", 2))));
    }
}
