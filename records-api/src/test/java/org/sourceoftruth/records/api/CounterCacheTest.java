package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;

import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Counts kept in columns by triggers (Device.interface_count, DeviceType.device_count) follow
 * every way rows are added, moved and removed: single and bulk creates, a PATCH moving a row to
 * another owner (an inventory item: interfaces stay on their device), a bulk delete, and a cascade from deleting the owner.
 */
@QuarkusTest
class CounterCacheTest {

    @Test
    void interfaceCountFollowsCreatesMovesAndDeletes() {
        int site = Api.site("cc");
        int[] typeAndRole = Api.deviceTypeAndRole();
        int first = Api.device(site, typeAndRole, "cc-a-" + Api.uniq());
        int second = Api.device(site, typeAndRole, "cc-b-" + Api.uniq());

        List<Map<String, Object>> bulk = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            bulk.add(Map.of("device", first, "name", "eth" + i, "type", "1000base-t"));
        }
        List<Integer> ids = Api.post("/api/dcim/interfaces/", bulk)
                .statusCode(201)
                .extract()
                .path("id");
        int single = create("/api/dcim/interfaces/", Map.of("device", second, "name", "eth9", "type", "1000base-t"));
        assertInterfaceCount(first, 5);
        assertInterfaceCount(second, 1);

        // NetBox refuses to move an interface to another device (ComponentModel.clean); an
        // inventory item may move, and its counters follow
        auth().body(Map.of("device", second))
                .patch("/api/dcim/interfaces/" + ids.get(0) + "/")
                .then()
                .statusCode(400)
                .body("device", hasItem("Components cannot be moved to a different device."));
        auth().body(Map.of("description", "unchanged owner"))
                .patch("/api/dcim/interfaces/" + ids.get(1) + "/")
                .then()
                .statusCode(200);
        int item = create("/api/dcim/inventory-items/", Map.of("device", first, "name", "psu"));
        auth().body(Map.of("device", second))
                .patch("/api/dcim/inventory-items/" + item + "/")
                .then()
                .statusCode(200);
        auth().get("/api/dcim/devices/" + first + "/").then().body("inventory_item_count", equalTo(0));
        auth().get("/api/dcim/devices/" + second + "/").then().body("inventory_item_count", equalTo(1));
        assertInterfaceCount(first, 5);
        assertInterfaceCount(second, 1);

        auth().body(List.of(Map.of("id", ids.get(2)), Map.of("id", ids.get(3))))
                .delete("/api/dcim/interfaces/")
                .then()
                .statusCode(204);
        auth().delete("/api/dcim/interfaces/" + single + "/").then().statusCode(204);
        assertInterfaceCount(first, 3);
        assertInterfaceCount(second, 0);

        // Ordering by the count reads the column too.
        auth().get("/api/dcim/devices/?id=" + first + "&id=" + second + "&ordering=interface_count")
                .then()
                .statusCode(200)
                .body("results.id", contains(second, first));
    }

    @Test
    void deviceCountOfDeviceTypeFollowsDevices() {
        int site = Api.site("cc");
        int[] typeAndRole = Api.deviceTypeAndRole();
        int[] otherType = Api.deviceTypeAndRole();
        int a = Api.device(site, typeAndRole, "cc-c-" + Api.uniq());
        int b = Api.device(site, typeAndRole, "cc-d-" + Api.uniq());
        assertDeviceCount(typeAndRole[0], 2);
        assertDeviceCount(otherType[0], 0);

        auth().body(Map.of("device_type", otherType[0]))
                .patch("/api/dcim/devices/" + b + "/")
                .then()
                .statusCode(200);
        assertDeviceCount(typeAndRole[0], 1);
        assertDeviceCount(otherType[0], 1);
        // The nested device type inside a device shows the real count (NetBox's brief device type).
        auth().get("/api/dcim/devices/" + a + "/").then().body("device_type.device_count", equalTo(1));

        create("/api/dcim/interfaces/", Map.of("device", a, "name", "eth0", "type", "1000base-t"));
        auth().delete("/api/dcim/devices/" + a + "/").then().statusCode(204); // cascades to its interface
        assertDeviceCount(typeAndRole[0], 0);
    }

    private static void assertInterfaceCount(int device, int expected) {
        auth().get("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(200)
                .body("interface_count", equalTo(expected));
        auth().get("/api/dcim/interfaces/?device_id=" + device + "&limit=1")
                .then()
                .body("count", equalTo(expected));
    }

    private static void assertDeviceCount(int deviceType, int expected) {
        auth().get("/api/dcim/device-types/" + deviceType + "/")
                .then()
                .statusCode(200)
                .body("device_count", equalTo(expected));
    }
}
