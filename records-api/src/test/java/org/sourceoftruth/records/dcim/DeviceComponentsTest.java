package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Device components and their templates: each model's rules that can refuse a write (names
 * unique per device, front ports on their rear port's device and within its positions, device
 * bays on parents holding children, the inventory tree), the counters devices and device types
 * keep, and deletes that take the components along with a change record each.
 */
@QuarkusTest
class DeviceComponentsTest {

    private static int device(String prefix) {
        return Api.device(Api.site(prefix), Api.deviceTypeAndRole(), prefix + "-" + uniq());
    }

    @Test
    void namesAreUniquePerDeviceAndComponentsStayOnTheirDevice() {
        int device = device("cp");
        int other = device("cp2");
        int console = create(
                "/api/dcim/console-ports/",
                Map.of("device", device, "name", "con0", "type", "rj-45", "speed", 9600, "label", "Console"));
        auth().get("/api/dcim/console-ports/" + console + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("con0 (Console)"))
                .body("speed.value", equalTo(9600))
                .body("type.label", equalTo("RJ-45"))
                .body("device.id", equalTo(device))
                .body("module", nullValue())
                .body("cable", nullValue())
                .body("_occupied", equalTo(false));
        post("/api/dcim/console-ports/", Map.of("device", device, "name", "con0"))
                .statusCode(400)
                .body("__all__", hasItem("Console port with this Device and Name already exists."));
        create("/api/dcim/console-ports/", Map.of("device", other, "name", "con0"));
        post("/api/dcim/console-ports/", Map.of("device", device, "name", "con1", "speed", 1234))
                .statusCode(400)
                .body("speed[0]", equalTo("\"1234\" is not a valid choice."));
        auth().body(Map.of("device", other))
                .patch("/api/dcim/console-ports/" + console + "/")
                .then()
                .statusCode(400)
                .body("device", hasItem("Components cannot be moved to a different device."));

        post(
                        "/api/dcim/power-ports/",
                        Map.of("device", device, "name", "psu0", "maximum_draw", 100, "allocated_draw", 200))
                .statusCode(400)
                .body("allocated_draw", hasItem("Allocated draw cannot exceed the maximum draw (100W)."));
        int psu = create("/api/dcim/power-ports/", Map.of("device", device, "name", "psu0", "type", "iec-60320-c14"));
        int foreignPsu = create("/api/dcim/power-ports/", Map.of("device", other, "name", "psu0"));
        post("/api/dcim/power-outlets/", Map.of("device", device, "name", "out1", "power_port", foreignPsu))
                .statusCode(400)
                .body("__all__", hasItem("Parent power port (psu0) must belong to the same device"));
        int outlet = create(
                "/api/dcim/power-outlets/",
                Map.of("device", device, "name", "out1", "power_port", psu, "feed_leg", "A"));
        auth().get("/api/dcim/power-outlets/?power_port_id=" + psu)
                .then()
                .body("results.id", contains(outlet))
                .body("results[0].status.value", equalTo("enabled"))
                .body("results[0].feed_leg.value", equalTo("A"));
        auth().get("/api/dcim/power-outlets/" + outlet + "/").then().body("power_port.id", equalTo(psu));
    }

    @Test
    void frontPortsMapToAPositionOfARearPortOnTheirDevice() {
        int device = device("fp");
        int other = device("fp2");
        int rear =
                create("/api/dcim/rear-ports/", Map.of("device", device, "name", "R1", "type", "lc", "positions", 2));
        int foreignRear = create("/api/dcim/rear-ports/", Map.of("device", other, "name", "R1", "type", "lc"));
        post(
                        "/api/dcim/front-ports/",
                        Map.of(
                                "device",
                                device,
                                "name",
                                "F1",
                                "type",
                                "lc",
                                "rear_ports",
                                CablesTest.mapping("rear_port", foreignRear, 1)))
                .statusCode(400)
                .body("rear_ports", hasItem("rear_ports[0].rear_port: Rear port (R1) must belong to the same device"));
        post(
                        "/api/dcim/front-ports/",
                        Map.of(
                                "device",
                                device,
                                "name",
                                "F3",
                                "type",
                                "lc",
                                "rear_ports",
                                CablesTest.mapping("rear_port", rear, 3)))
                .statusCode(400)
                .body(
                        "rear_ports",
                        hasItem("rear_ports[0].rear_port_position: Invalid rear port position (3): Rear port R1 has"
                                + " only 2 positions."));
        int f1 = create(
                "/api/dcim/front-ports/",
                Map.of(
                        "device",
                        device,
                        "name",
                        "F1",
                        "type",
                        "lc",
                        "rear_ports",
                        CablesTest.mapping("rear_port", rear, 1)));
        int f2 = create(
                "/api/dcim/front-ports/",
                Map.of(
                        "device",
                        device,
                        "name",
                        "F2",
                        "type",
                        "lc",
                        "rear_ports",
                        CablesTest.mapping("rear_port", rear, 2)));
        post(
                        "/api/dcim/front-ports/",
                        Map.of(
                                "device",
                                device,
                                "name",
                                "F9",
                                "type",
                                "lc",
                                "rear_ports",
                                CablesTest.mapping("rear_port", rear, 2)))
                .statusCode(400)
                .body(
                        "rear_ports",
                        hasItem("rear_ports[0]: The fields rear_port, rear_port_position must make a unique set."));
        auth().get("/api/dcim/front-ports/" + f1 + "/")
                .then()
                .body("positions", equalTo(1))
                .body(
                        "rear_ports",
                        equalTo(List.of(Map.of("position", 1, "rear_port", rear, "rear_port_position", 1))));
        auth().get("/api/dcim/rear-ports/" + rear + "/")
                .then()
                .body("front_ports.front_port", contains(f1, f2))
                .body("front_ports.position", contains(1, 2));
        auth().get("/api/dcim/front-ports/?rear_port_id=" + rear + "&device_id=" + device)
                .then()
                .body("results.id", contains(f1, f2));
        auth().get("/api/dcim/rear-ports/?front_port_id=" + f2).then().body("results.id", contains(rear));
        // the rear port cannot shrink below its mapped front ports
        auth().body(Map.of("positions", 1))
                .patch("/api/dcim/rear-ports/" + rear + "/")
                .then()
                .statusCode(400)
                .body(
                        "positions",
                        hasItem("The number of positions cannot be less than the number of mapped front ports (2)"));
        auth().get("/api/dcim/devices/?pass_through_ports=true&id=" + device + "&id=" + other)
                .then()
                .body("results.id", containsInAnyOrder(device, other));
        auth().get("/api/dcim/devices/?pass_through_ports=false&id=" + device + "&id=" + other)
                .then()
                .body("results.id", contains(other));
    }

    @Test
    void deviceBaysHoldChildDevicesOfParents() {
        String u = uniq();
        int site = Api.site("bay");
        int mfr = create("/api/dcim/manufacturers/", Map.of("name", "bm-" + u, "slug", "bm-" + u));
        int role = create("/api/dcim/device-roles/", Map.of("name", "br-" + u, "slug", "br-" + u));
        int chassisType = create(
                "/api/dcim/device-types/",
                Map.of(
                        "manufacturer",
                        mfr,
                        "model",
                        "chassis-" + u,
                        "slug",
                        "chassis-" + u,
                        "subdevice_role",
                        "parent"));
        int bladeType = create(
                "/api/dcim/device-types/",
                Map.of(
                        "manufacturer",
                        mfr,
                        "model",
                        "blade-" + u,
                        "slug",
                        "blade-" + u,
                        "subdevice_role",
                        "child",
                        "u_height",
                        0));
        int chassis = Api.device(site, new int[] {chassisType, role}, "chassis-" + u);
        int blade = Api.device(site, new int[] {bladeType, role}, "blade-" + u);
        int plain = device("plain");

        post("/api/dcim/device-bays/", Map.of("device", plain, "name", "bay1"))
                .statusCode(400)
                .body("__all__[0]", org.hamcrest.Matchers.startsWith("This type of device (m-"));
        post("/api/dcim/device-bays/", Map.of("device", chassis, "name", "bay1", "installed_device", plain))
                .statusCode(400)
                .body("installed_device[0]", org.hamcrest.Matchers.containsString("not a child device type"));
        post("/api/dcim/device-bays/", Map.of("device", chassis, "name", "bay1", "installed_device", chassis))
                .statusCode(400)
                .body("__all__", hasItem("Cannot install a device into itself."));
        int bay =
                create("/api/dcim/device-bays/", Map.of("device", chassis, "name", "bay1", "installed_device", blade));
        post("/api/dcim/device-bays/", Map.of("device", chassis, "name", "bay2", "installed_device", blade))
                .statusCode(400)
                .body(
                        "installed_device",
                        hasItem("Cannot install the specified device; device is already installed in bay1."));

        auth().get("/api/dcim/devices/" + blade + "/")
                .then()
                .statusCode(200)
                .body("parent_device.id", equalTo(chassis))
                .body("parent_device.name", equalTo("chassis-" + u))
                .body("parent_device.device_bay.id", equalTo(bay))
                .body("parent_device.device_bay.name", equalTo("bay1"))
                .body("parent_device.url", org.hamcrest.Matchers.endsWith("/api/dcim/devices/" + chassis + "/"));
        auth().get("/api/dcim/devices/" + chassis + "/")
                .then()
                .body("parent_device", nullValue())
                .body("device_bay_count", equalTo(1));
        auth().get("/api/dcim/devices/?parent_device_id=" + chassis).then().body("results.id", contains(blade));
        auth().get("/api/dcim/devices/?parent_bay_id=" + bay).then().body("results.id", contains(blade));
        auth().get("/api/dcim/device-bays/?installed_device_id=" + blade).then().body("results.id", contains(bay));
        // NetBox 4.6: a disabled bay takes no device (one already there stays) and reads occupied
        int blade2 = Api.device(site, new int[] {bladeType, role}, "blade2-" + u);
        int off = create("/api/dcim/device-bays/", Map.of("device", chassis, "name", "bay3", "enabled", false));
        auth().get("/api/dcim/device-bays/" + off + "/?brief=1")
                .then()
                .body("enabled", equalTo(false))
                .body("_occupied", equalTo(true));
        auth().body(Map.of("installed_device", blade2))
                .patch("/api/dcim/device-bays/" + off + "/")
                .then()
                .statusCode(400)
                .body("installed_device", contains("Cannot install a device in a disabled device bay."));
        auth().body(Map.of("enabled", false))
                .patch("/api/dcim/device-bays/" + bay + "/")
                .then()
                .statusCode(200);
        auth().body(Map.of("label", "kept"))
                .patch("/api/dcim/device-bays/" + bay + "/")
                .then()
                .statusCode(200)
                .body("installed_device.id", equalTo(blade));
        auth().get("/api/dcim/device-bays/?enabled=false&device_id=" + chassis)
                .then()
                .body("count", equalTo(2));

        post("/api/dcim/device-bay-templates/", Map.of("device_type", bladeType, "name", "b"))
                .statusCode(400)
                .body(
                        "__all__",
                        hasItem("Subdevice role of device type (blade-" + u
                                + ") must be set to \"parent\" to allow device bays."));
        create("/api/dcim/device-bay-templates/", Map.of("device_type", chassisType, "name", "b"));
        auth().get("/api/dcim/device-types/" + chassisType + "/").then().body("device_bay_template_count", equalTo(1));
    }

    @Test
    void inventoryItemsFormATreeOnOneDevice() {
        int device = device("inv");
        int other = device("inv2");
        String u = uniq();
        int role = create("/api/dcim/inventory-item-roles/", Map.of("name", "ir-" + u, "slug", "ir-" + u));
        int mfr = create("/api/dcim/manufacturers/", Map.of("name", "im-" + u, "slug", "im-" + u));
        int eth = create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth0", "type", "1000base-t"));
        int chassis = create(
                "/api/dcim/inventory-items/",
                Map.of("device", device, "name", "chassis", "role", role, "manufacturer", mfr, "serial", "S1"));
        int card = create("/api/dcim/inventory-items/", Map.of("device", device, "name", "card", "parent", chassis));
        Map<String, Object> optic = new HashMap<>(Map.of(
                "device",
                device,
                "name",
                "optic",
                "parent",
                card,
                "component_type",
                "dcim.interface",
                "component_id",
                eth));
        int sfp = create("/api/dcim/inventory-items/", optic);
        auth().get("/api/dcim/inventory-items/" + sfp + "/")
                .then()
                .statusCode(200)
                .body("parent", equalTo(card))
                .body("_depth", equalTo(2))
                .body("component.id", equalTo(eth))
                .body("component_type", equalTo("dcim.interface"))
                .body("status.value", equalTo("active"));
        auth().get("/api/dcim/inventory-items/?device_id=" + device)
                .then()
                .body("results.name", contains("chassis", "card", "optic"));
        auth().get("/api/dcim/inventory-items/?parent_id=" + chassis).then().body("results.id", contains(card));

        // the same name may repeat under another parent, not under the same one
        create("/api/dcim/inventory-items/", Map.of("device", device, "name", "card", "parent", card));
        post("/api/dcim/inventory-items/", Map.of("device", device, "name", "card", "parent", chassis))
                .statusCode(400)
                .body("__all__", hasItem("Inventory item with this Device, Parent and Name already exists."));
        post("/api/dcim/inventory-items/", Map.of("device", other, "name", "x", "parent", chassis))
                .statusCode(400)
                .body("parent", hasItem("Parent inventory item does not belong to the same device."));
        post(
                        "/api/dcim/inventory-items/",
                        Map.of("device", other, "name", "x", "component_type", "dcim.interface", "component_id", eth))
                .statusCode(400)
                .body("device", hasItem("Cannot assign inventory item to component on another device"));
        auth().body(Map.of("parent", sfp))
                .patch("/api/dcim/inventory-items/" + chassis + "/")
                .then()
                .statusCode(400)
                .body("parent", hasItem("A node may not be made a child of any of its descendants."));
        auth().body(Map.of("parent", chassis))
                .patch("/api/dcim/inventory-items/" + chassis + "/")
                .then()
                .statusCode(400)
                .body("parent", hasItem("Cannot assign self as parent."));

        auth().get("/api/dcim/inventory-item-roles/" + role + "/").then().body("inventoryitem_count", equalTo(1));
        auth().get("/api/dcim/manufacturers/" + mfr + "/").then().body("inventoryitem_count", equalTo(1));
        // an item goes with the component it stands for (NetBox's GenericRelation)
        auth().delete("/api/dcim/interfaces/" + eth + "/").then().statusCode(204);
        auth().get("/api/dcim/inventory-items/" + sfp + "/").then().statusCode(404);
        auth().get("/api/dcim/devices/" + device + "/").then().body("inventory_item_count", equalTo(3));
    }

    @Test
    void countersFollowCreatesAndDeletesAndDeletesCascadeWithChangeRecords() {
        int device = device("cnt");
        int cp = create("/api/dcim/console-ports/", Map.of("device", device, "name", "c1"));
        create("/api/dcim/console-ports/", Map.of("device", device, "name", "c2"));
        int csp = create("/api/dcim/console-server-ports/", Map.of("device", device, "name", "s1"));
        int pp = create("/api/dcim/power-ports/", Map.of("device", device, "name", "p1"));
        int po = create("/api/dcim/power-outlets/", Map.of("device", device, "name", "o1", "power_port", pp));
        int rp = create("/api/dcim/rear-ports/", Map.of("device", device, "name", "r1", "type", "8p8c"));
        int fp = create(
                "/api/dcim/front-ports/",
                Map.of(
                        "device",
                        device,
                        "name",
                        "f1",
                        "type",
                        "8p8c",
                        "rear_ports",
                        CablesTest.mapping("rear_port", rp, 1)));
        int item = create("/api/dcim/inventory-items/", Map.of("device", device, "name", "i1"));
        auth().get("/api/dcim/devices/" + device + "/")
                .then()
                .body("console_port_count", equalTo(2))
                .body("console_server_port_count", equalTo(1))
                .body("power_port_count", equalTo(1))
                .body("power_outlet_count", equalTo(1))
                .body("front_port_count", equalTo(1))
                .body("rear_port_count", equalTo(1))
                .body("inventory_item_count", equalTo(1))
                .body("device_bay_count", equalTo(0));
        auth().get("/api/dcim/devices/?console_port_count=2&console_ports=true&id=" + device)
                .then()
                .body("count", equalTo(1));
        auth().delete("/api/dcim/console-ports/" + cp + "/").then().statusCode(204);
        auth().get("/api/dcim/devices/" + device + "/").then().body("console_port_count", equalTo(1));
        // deleting the rear port leaves its front port, without the mapping (NetBox 4.5)
        auth().delete("/api/dcim/rear-ports/" + rp + "/").then().statusCode(204);
        auth().get("/api/dcim/front-ports/" + fp + "/").then().statusCode(200).body("rear_ports", equalTo(List.of()));
        auth().get("/api/dcim/devices/" + device + "/")
                .then()
                .body("front_port_count", equalTo(1))
                .body("rear_port_count", equalTo(0));

        String request = auth().delete("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(204)
                .extract()
                .header("X-Request-ID");
        auth().get("/api/core/object-changes/?request_id=" + request + "&limit=100")
                .then()
                .statusCode(200)
                .body(
                        "results.findAll { it.action.value == 'delete' }.changed_object_type",
                        containsInAnyOrder(
                                "dcim.consoleport",
                                "dcim.consoleserverport",
                                "dcim.powerport",
                                "dcim.poweroutlet",
                                "dcim.frontport",
                                "dcim.inventoryitem",
                                "dcim.device"))
                .body("results.find { it.changed_object_type == 'dcim.poweroutlet' }.changed_object_id", equalTo(po))
                .body(
                        "results.find { it.changed_object_type == 'dcim.consoleserverport' }.changed_object_id",
                        equalTo(csp))
                .body(
                        "results.find { it.changed_object_type == 'dcim.inventoryitem' }.changed_object_id",
                        equalTo(item));
        auth().get("/api/dcim/power-ports/" + pp + "/").then().statusCode(404);
    }

    @Test
    void templatesBelongToOneDeviceTypeWithUniqueNames() {
        int[] typeAndRole = Api.deviceTypeAndRole();
        int type = typeAndRole[0];
        int otherType = Api.deviceTypeAndRole()[0];
        post("/api/dcim/console-port-templates/", Map.of("name", "con"))
                .statusCode(400)
                .body(
                        "__all__",
                        hasItem("A component template must be associated with either a device type or a module type."));
        int con = create(
                "/api/dcim/console-port-templates/", Map.of("device_type", type, "name", "con", "type", "rj-45"));
        post("/api/dcim/console-port-templates/", Map.of("device_type", type, "name", "con"))
                .statusCode(400)
                .body("__all__", hasItem("Console port template with this Device type and Name already exists."));
        auth().body(Map.of("device_type", otherType))
                .patch("/api/dcim/console-port-templates/" + con + "/")
                .then()
                .statusCode(400)
                .body("device_type", hasItem("Component templates cannot be moved to a different device type."));
        auth().get("/api/dcim/console-port-templates/" + con + "/")
                .then()
                .body("module_type", nullValue())
                .body("device_type.id", equalTo(type))
                .body("type.value", equalTo("rj-45"));

        int rear = create("/api/dcim/rear-port-templates/", Map.of("device_type", type, "name", "R", "type", "lc"));
        int foreignRear =
                create("/api/dcim/rear-port-templates/", Map.of("device_type", otherType, "name", "R", "type", "lc"));
        post(
                        "/api/dcim/front-port-templates/",
                        Map.of(
                                "device_type",
                                type,
                                "name",
                                "F",
                                "type",
                                "lc",
                                "rear_ports",
                                CablesTest.mapping("rear_port", foreignRear, 1)))
                .statusCode(400)
                .body(
                        "rear_ports",
                        hasItem("rear_ports[0].rear_port: Rear port (R) must belong to the same device type"));
        post(
                        "/api/dcim/front-port-templates/",
                        Map.of(
                                "device_type",
                                type,
                                "name",
                                "F",
                                "type",
                                "lc",
                                "rear_ports",
                                CablesTest.mapping("rear_port", rear, 2)))
                .statusCode(400);
        create(
                "/api/dcim/front-port-templates/",
                Map.of(
                        "device_type",
                        type,
                        "name",
                        "F",
                        "type",
                        "lc",
                        "rear_ports",
                        CablesTest.mapping("rear_port", rear, 1)));
        int eth = create(
                "/api/dcim/interface-templates/", Map.of("device_type", type, "name", "eth0", "type", "1000base-t"));
        int br = create(
                "/api/dcim/interface-templates/",
                Map.of("device_type", type, "name", "br0", "type", "bridge", "bridge", eth));
        auth().get("/api/dcim/interface-templates/" + br + "/")
                .then()
                .body("bridge.id", equalTo(eth))
                .body("enabled", equalTo(true));
        post(
                        "/api/dcim/interface-templates/",
                        Map.of("device_type", type, "name", "v", "type", "virtual", "poe_mode", "pse"))
                .statusCode(400)
                .body("poe_mode", hasItem("Virtual interfaces cannot have a PoE mode."));
        int parent = create(
                "/api/dcim/inventory-item-templates/",
                Map.of(
                        "device_type",
                        type,
                        "name",
                        "slot",
                        "component_type",
                        "dcim.interfacetemplate",
                        "component_id",
                        eth));
        int child = create(
                "/api/dcim/inventory-item-templates/", Map.of("device_type", type, "name", "sfp", "parent", parent));
        auth().get("/api/dcim/inventory-item-templates/" + child + "/")
                .then()
                .body("parent", equalTo(parent))
                .body("_depth", equalTo(1));

        auth().get("/api/dcim/device-types/" + type + "/")
                .then()
                .body("console_port_template_count", equalTo(1))
                .body("rear_port_template_count", equalTo(1))
                .body("front_port_template_count", equalTo(1))
                .body("interface_template_count", equalTo(2))
                .body("inventory_item_template_count", equalTo(2));
        auth().get("/api/dcim/device-types/?interfaces=true&pass_through_ports=true&id=" + type + "&id=" + otherType)
                .then()
                .body("results.id", contains(type));
        auth().get("/api/dcim/console-port-templates/?device_type_id=" + type)
                .then()
                .body("results.id", contains(con));
        // deleting the device type takes its templates along
        Api.device(Api.site("tpl"), typeAndRole, "tpl-" + uniq());
        auth().delete("/api/dcim/device-types/" + otherType + "/").then().statusCode(204);
        auth().get("/api/dcim/rear-port-templates/" + foreignRear + "/").then().statusCode(404);
        List.of(con)
                .forEach(id -> auth().get("/api/dcim/console-port-templates/" + id + "/")
                        .then()
                        .statusCode(200));
    }
}
