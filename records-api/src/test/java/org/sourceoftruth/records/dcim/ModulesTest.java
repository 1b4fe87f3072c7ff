package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Module type profiles, module types, modules, module bays and their templates as NetBox's:
 * attributes checked against the profile's JSON schema, one module per bay of the module's own
 * device, components made from templates when a device is created or a module installed
 * ({module} resolved), each with its change record, and a module's components deleted with it.
 */
@QuarkusTest
class ModulesTest {
    private static final Map<String, Object> PSU_SCHEMA = Map.of(
            "properties",
                    Map.of(
                            "watts",
                            Map.of("type", "integer", "minimum", 1),
                            "form",
                            Map.of("type", "string", "enum", List.of("atx", "sfx"))),
            "required", List.of("watts"));

    @Test
    void attributesMustMatchTheProfilesSchema() {
        String u = uniq();
        post("/api/dcim/module-type-profiles/", Map.of("name", "np-" + u, "schema", Map.of("type", "object")))
                .statusCode(400)
                .body("schema", contains("JSON schema must define properties"));
        post("/api/dcim/module-type-profiles/", Map.of("name", "np-" + u, "schema", List.of(1)))
                .statusCode(400)
                .body("schema", contains("Invalid JSON schema definition"));
        post(
                        "/api/dcim/module-type-profiles/",
                        Map.of(
                                "name",
                                "np-" + u,
                                "schema",
                                Map.of("properties", Map.of("watts", Map.of("type", "watt")))))
                .statusCode(400)
                .body(
                        "schema",
                        contains("Invalid JSON schema definition: 'watt' is not valid under any"
                                + " of the given schemas"));
        int profile = create("/api/dcim/module-type-profiles/", Map.of("name", "psu-" + u, "schema", PSU_SCHEMA));
        auth().get("/api/dcim/module-type-profiles/" + profile + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("psu-" + u))
                .body("schema.required", contains("watts"));
        int mfr = create("/api/dcim/manufacturers/", Map.of("name", "mm-" + u, "slug", "mm-" + u));

        post(
                        "/api/dcim/module-types/",
                        Map.of(
                                "manufacturer",
                                mfr,
                                "model",
                                "PSU-A",
                                "profile",
                                profile,
                                "attributes",
                                Map.of("form", "atx")))
                .statusCode(400)
                .body("attributes", contains("Invalid schema: 'watts' is a required property"));
        post(
                        "/api/dcim/module-types/",
                        Map.of(
                                "manufacturer",
                                mfr,
                                "model",
                                "PSU-A",
                                "profile",
                                profile,
                                "attributes",
                                Map.of("watts", "many")))
                .statusCode(400)
                .body("attributes", contains("Invalid schema: 'many' is not of type 'integer'"));
        post(
                        "/api/dcim/module-types/",
                        Map.of(
                                "manufacturer",
                                mfr,
                                "model",
                                "PSU-A",
                                "profile",
                                profile,
                                "attributes",
                                Map.of("watts", 500, "form", "itx")))
                .statusCode(400)
                .body("attributes", contains("Invalid schema: 'itx' is not one of ['atx', 'sfx']"));
        int type = create(
                "/api/dcim/module-types/",
                Map.of(
                        "manufacturer",
                        mfr,
                        "model",
                        "PSU-A",
                        "profile",
                        profile,
                        "attributes",
                        Map.of("watts", 500, "form", "sfx")));
        auth().get("/api/dcim/module-types/" + type + "/")
                .then()
                .statusCode(200)
                .body("attributes.watts", equalTo(500))
                .body("profile.id", equalTo(profile))
                .body("manufacturer.id", equalTo(mfr))
                .body("display", equalTo("PSU-A"));
        auth().get("/api/dcim/module-types/?profile_id=" + profile).then().body("results.id", contains(type));
        auth().get("/api/dcim/module-types/?manufacturer=mm-" + u).then().body("results.id", contains(type));
        // a profile in use is protected; without a profile there are no attributes (ModuleType.clean)
        auth().delete("/api/dcim/module-type-profiles/" + profile + "/").then().statusCode(409);
        int plain = create(
                "/api/dcim/module-types/",
                Map.of("manufacturer", mfr, "model", "Plain", "attributes", Map.of("anything", 1)));
        auth().get("/api/dcim/module-types/" + plain + "/").then().body("attributes", nullValue());
        post("/api/dcim/module-types/", Map.of("manufacturer", mfr, "model", "Plain"))
                .statusCode(400)
                .body("__all__", contains("Module type with this Manufacturer and Model already exists."));
    }

    @Test
    void aModuleSitsInOneBayOfItsOwnDevice() {
        Fixture f = new Fixture();
        int deviceType = f.deviceTypeWithBays(List.of("1", "2"));
        int device = f.device(deviceType);
        int other = f.device(deviceType);
        int bay = bayId(device, "Bay 1");
        int otherBay = bayId(other, "Bay 1");
        int moduleType =
                create("/api/dcim/module-types/", Map.of("manufacturer", f.manufacturer, "model", "LC-" + f.u));

        post("/api/dcim/modules/", Map.of("device", device, "module_bay", otherBay, "module_type", moduleType))
                .statusCode(400)
                .body(
                        "__all__",
                        contains("Module must be installed within a module bay belonging to"
                                + " the assigned device (dev-" + f.u + "-1)."));
        int module = create(
                "/api/dcim/modules/",
                Map.of(
                        "device",
                        device,
                        "module_bay",
                        bay,
                        "module_type",
                        moduleType,
                        "serial",
                        "S1",
                        "asset_tag",
                        "at-" + f.u));
        auth().get("/api/dcim/modules/" + module + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("Bay 1: LC-" + f.u + " (" + module + ")"))
                .body("module_bay.id", equalTo(bay))
                .body("module_bay.name", equalTo("Bay 1"))
                .body("module_type.id", equalTo(moduleType))
                .body("status.value", equalTo("active"));
        auth().get("/api/dcim/module-bays/" + bay + "/")
                .then()
                .body("installed_module.id", equalTo(module))
                .body("installed_module.module_bay.id", equalTo(bay));
        post("/api/dcim/modules/", Map.of("device", device, "module_bay", bay, "module_type", moduleType))
                .statusCode(400)
                .body("module_bay", contains("module with this module bay already exists."));
        post(
                        "/api/dcim/modules/",
                        Map.of(
                                "device",
                                device,
                                "module_bay",
                                bayId(device, "Bay 2"),
                                "module_type",
                                moduleType,
                                "asset_tag",
                                "at-" + f.u))
                .statusCode(400)
                .body("asset_tag", contains("module with this asset tag already exists."));
        auth().get("/api/dcim/modules/?device_id=" + device + "&manufacturer_id=" + f.manufacturer)
                .then()
                .body("results.id", contains(module));
        auth().get("/api/dcim/module-bays/?device_id=" + device + "&installed_module_id=" + module)
                .then()
                .body("results.id", contains(bay));

        // a template belongs to a device type or a module type: exactly one
        post(
                        "/api/dcim/module-bay-templates/",
                        Map.of("name", "X", "device_type", deviceType, "module_type", moduleType))
                .statusCode(400)
                .body(
                        "__all__",
                        contains(
                                "A component template cannot be associated with both a device type and a module type."));
        post("/api/dcim/module-bay-templates/", Map.of("name", "X"))
                .statusCode(400)
                .body(
                        "__all__",
                        contains(
                                "A component template must be associated with either a device type or a module type."));
        post("/api/dcim/module-bay-templates/", Map.of("name", "Bay 1", "device_type", deviceType))
                .statusCode(400)
                .body("__all__", contains("Module bay template with this Device type and Name already exists."));
    }

    @Test
    void creatingADeviceMakesItsBaysAndInstallingAModuleMakesNestedBays() {
        Fixture f = new Fixture();
        int deviceType = f.deviceTypeWithBays(List.of("1", "2"));
        auth().get("/api/dcim/device-types/" + deviceType + "/").then().body("module_bay_template_count", equalTo(2));
        var created = auth().body(
                        Map.of("name", "dev-" + f.u + "-x", "site", f.site, "device_type", deviceType, "role", f.role))
                .post("/api/dcim/devices/")
                .then()
                .statusCode(201)
                .body("module_bay_count", equalTo(2))
                .extract();
        int device = created.path("id");
        auth().get("/api/dcim/module-bays/?device_id=" + device)
                .then()
                .body("results.name", contains("Bay 1", "Bay 2"))
                .body("results.position", contains("1", "2"))
                .body("results.label", contains("L1", "L2"))
                .body("results[0].module", nullValue());
        // one change record per bay, in the device's request, after the device's own
        List<Map<String, Object>> changes = changesOf(created);
        assertEquals(
                List.of("dcim.device", "dcim.modulebay", "dcim.modulebay"),
                changes.stream().map(c -> c.get("changed_object_type")).toList());
        assertTrue(changes.stream()
                .allMatch(c -> ((Map<?, ?>) c.get("action")).get("value").equals("create")));
        assertEquals("Bay 1", ((Map<?, ?>) changes.get(1).get("postchange_data")).get("name"));

        // a line card with two bays of its own: {module} becomes the bay's position
        int card = create("/api/dcim/module-types/", Map.of("manufacturer", f.manufacturer, "model", "Card-" + f.u));
        create(
                "/api/dcim/module-bay-templates/",
                Map.of("module_type", card, "name", "Slot {module}/1", "label", "S{module}", "position", "{module}/1"));
        create(
                "/api/dcim/module-bay-templates/",
                Map.of("module_type", card, "name", "Slot {module}/2", "position", "{module}/2"));
        int bay2 = bayId(device, "Bay 2");
        var installed = auth().body(Map.of("device", device, "module_bay", bay2, "module_type", card))
                .post("/api/dcim/modules/")
                .then()
                .statusCode(201)
                .extract();
        int module = installed.path("id");
        auth().get("/api/dcim/module-bays/?module_id=" + module)
                .then()
                .body("results.name", contains("Slot 2/1", "Slot 2/2"))
                .body("results.position", contains("2/1", "2/2"))
                .body("results.label", contains("S2", ""))
                .body("results[0].device.id", equalTo(device))
                .body("results[0].module.id", equalTo(module))
                .body("results[0].installed_module", nullValue());
        assertEquals(
                List.of("dcim.module", "dcim.modulebay", "dcim.modulebay"),
                changesOf(installed).stream()
                        .map(c -> c.get("changed_object_type"))
                        .toList());
        auth().get("/api/dcim/devices/" + device + "/").then().body("module_bay_count", equalTo(4));
        auth().get("/api/dcim/module-bays/?parent_id=" + bay2)
                .then()
                .body("results.name", contains("Slot 2/1", "Slot 2/2"));

        // one level deeper: one token is the nearest bay's position, two tokens one per level
        int sfp = create("/api/dcim/module-types/", Map.of("manufacturer", f.manufacturer, "model", "SFP-" + f.u));
        create("/api/dcim/module-bay-templates/", Map.of("module_type", sfp, "name", "Lane {module}"));
        create("/api/dcim/module-bay-templates/", Map.of("module_type", sfp, "name", "Port {module}-{module}"));
        int slot = bayId(device, "Slot 2/1");
        int inner = create("/api/dcim/modules/", Map.of("device", device, "module_bay", slot, "module_type", sfp));
        auth().get("/api/dcim/module-bays/?module_id=" + inner)
                .then()
                .body("results.name", containsInAnyOrder("Lane 2/1", "Port 2-2/1"));
        int three = create("/api/dcim/module-types/", Map.of("manufacturer", f.manufacturer, "model", "Three-" + f.u));
        create("/api/dcim/module-bay-templates/", Map.of("module_type", three, "name", "{module}{module}{module}"));
        post(
                        "/api/dcim/modules/",
                        Map.of("device", device, "module_bay", bayId(device, "Slot 2/2"), "module_type", three))
                .statusCode(400)
                .body(
                        "non_field_errors",
                        contains(
                                "Cannot install module with placeholder values in a module bay tree 2 levels deep but 3 placeholders given."));

        // replicate_components=false installs the module alone
        int bare = create(
                "/api/dcim/modules/",
                Map.of(
                        "device",
                        device,
                        "module_bay",
                        bayId(device, "Bay 1"),
                        "module_type",
                        card,
                        "replicate_components",
                        false));
        auth().get("/api/dcim/module-bays/?module_id=" + bare).then().body("count", equalTo(0));
    }

    @Test
    void deletingAModuleDeletesWhatItBroughtWithChangeRecords() {
        Fixture f = new Fixture();
        int device = f.device(f.deviceTypeWithBays(List.of("1")));
        int card = create("/api/dcim/module-types/", Map.of("manufacturer", f.manufacturer, "model", "Card-" + f.u));
        create(
                "/api/dcim/module-bay-templates/",
                Map.of("module_type", card, "name", "Sub {module}", "position", "{module}.1"));
        int module = create(
                "/api/dcim/modules/",
                Map.of("device", device, "module_bay", bayId(device, "Bay 1"), "module_type", card));
        int sub = bayId(device, "Sub 1");
        int nested = create("/api/dcim/modules/", Map.of("device", device, "module_bay", sub, "module_type", card));
        int nestedSub = bayId(device, "Sub 1.1");
        int eth = create(
                "/api/dcim/interfaces/",
                Map.of("device", device, "module", module, "name", "eth0", "type", "1000base-t"));
        auth().get("/api/dcim/interfaces/" + eth + "/")
                .then()
                .body("module.id", equalTo(module))
                .body("module.module_bay.name", equalTo("Bay 1"));
        auth().get("/api/dcim/interfaces/?module_id=" + module).then().body("results.id", contains(eth));
        auth().get("/api/dcim/devices/" + device + "/").then().body("module_bay_count", equalTo(3));

        var deleted = auth().delete("/api/dcim/modules/" + module + "/")
                .then()
                .statusCode(204)
                .extract();
        List<String> records = changesOf(deleted).stream()
                .map(c -> c.get("changed_object_type") + ":" + c.get("changed_object_id") + ":"
                        + ((Map<?, ?>) c.get("action")).get("value"))
                .toList();
        assertTrue(
                records.containsAll(List.of(
                        "dcim.modulebay:" + nestedSub + ":delete",
                        "dcim.module:" + nested + ":delete",
                        "dcim.modulebay:" + sub + ":delete",
                        "dcim.interface:" + eth + ":delete",
                        "dcim.module:" + module + ":delete")),
                records.toString());
        assertEquals(
                "dcim.module:" + module + ":delete", records.get(records.size() - 1), "the module last: " + records);
        auth().get("/api/dcim/module-bays/?device_id=" + device)
                .then()
                .body("results.name", contains("Bay 1"))
                .body("results[0].installed_module", nullValue());
        auth().get("/api/dcim/interfaces/" + eth + "/").then().statusCode(404);
        auth().get("/api/dcim/devices/" + device + "/").then().body("module_bay_count", equalTo(1));
    }

    @Test
    void everyTemplateMakesItsComponentWithReferencesBetweenThem() {
        Fixture f = new Fixture();
        int type = f.deviceTypeWithBays(List.of("1"));
        create(
                "/api/dcim/interface-templates/",
                Map.of("device_type", type, "name", "mgmt0", "type", "1000base-t", "mgmt_only", true));
        int rear = create(
                "/api/dcim/rear-port-templates/",
                Map.of("device_type", type, "name", "R1", "type", "lc", "positions", 2));
        create(
                "/api/dcim/front-port-templates/",
                Map.of(
                        "device_type",
                        type,
                        "name",
                        "F1",
                        "type",
                        "lc",
                        "rear_ports",
                        CablesTest.mapping("rear_port", rear, 2)));
        int psu = create(
                "/api/dcim/power-port-templates/", Map.of("device_type", type, "name", "PSU1", "maximum_draw", 500));
        create("/api/dcim/power-outlet-templates/", Map.of("device_type", type, "name", "O1", "power_port", psu));
        create("/api/dcim/console-port-templates/", Map.of("device_type", type, "name", "con", "type", "rj-45"));
        auth().body(Map.of("subdevice_role", "parent"))
                .patch("/api/dcim/device-types/" + type + "/")
                .then()
                .statusCode(200);
        create("/api/dcim/device-bay-templates/", Map.of("device_type", type, "name", "Blade 1"));
        create("/api/dcim/device-bay-templates/", Map.of("device_type", type, "name", "Blade 2"));
        int device = f.device(type);
        auth().get("/api/dcim/device-bays/?device_id=" + device)
                .then()
                .body("results.name", contains("Blade 1", "Blade 2"))
                .body("results[0].installed_device", nullValue());
        auth().get("/api/dcim/interfaces/?device_id=" + device)
                .then()
                .body("results.name", contains("mgmt0"))
                .body("results[0].mgmt_only", equalTo(true))
                .body("results[0].module", nullValue());
        int rearPort = auth().get("/api/dcim/rear-ports/?device_id=" + device)
                .then()
                .body("results.name", contains("R1"))
                .body("results[0].positions", equalTo(2))
                .extract()
                .path("results[0].id");
        auth().get("/api/dcim/front-ports/?device_id=" + device)
                .then()
                .body("results.name", contains("F1"))
                .body("results[0].rear_ports[0].rear_port", equalTo(rearPort))
                .body("results[0].rear_ports[0].rear_port_position", equalTo(2))
                .body("results[0].rear_ports[0].position", equalTo(1));
        int powerPort = auth().get("/api/dcim/power-ports/?device_id=" + device)
                .then()
                .body("results[0].maximum_draw", equalTo(500))
                .extract()
                .path("results[0].id");
        auth().get("/api/dcim/power-outlets/?device_id=" + device)
                .then()
                .body("results[0].power_port.id", equalTo(powerPort));
        auth().get("/api/dcim/devices/" + device + "/")
                .then()
                .body("interface_count", equalTo(1))
                .body("console_port_count", equalTo(1))
                .body("module_bay_count", equalTo(1));

        // a module type's interfaces land on the device, named after the bay, and leave with the module
        int card = create("/api/dcim/module-types/", Map.of("manufacturer", f.manufacturer, "model", "NIC-" + f.u));
        create(
                "/api/dcim/interface-templates/",
                Map.of("module_type", card, "name", "eth{module}/0", "type", "10gbase-x-sfpp"));
        post(
                        "/api/dcim/modules/",
                        Map.of(
                                "device",
                                device,
                                "module_bay",
                                bayId(device, "Bay 1"),
                                "module_type",
                                card,
                                "replicate_components",
                                "maybe"))
                .statusCode(400)
                .body("replicate_components", contains("Must be a valid boolean."));
        int module = create(
                "/api/dcim/modules/",
                Map.of("device", device, "module_bay", bayId(device, "Bay 1"), "module_type", card));
        auth().get("/api/dcim/interfaces/?module_id=" + module)
                .then()
                .body("results.name", contains("eth1/0"))
                .body("results[0].device.id", equalTo(device));
        auth().delete("/api/dcim/modules/" + module + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/?device_id=" + device).then().body("results.name", contains("mgmt0"));

        // adopt_components: an interface of that name without a module joins the module
        int loose =
                create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth1/0", "type", "10gbase-x-sfpp"));
        post("/api/dcim/modules/", Map.of("device", device, "module_bay", bayId(device, "Bay 1"), "module_type", card))
                .statusCode(400)
                .body("non_field_errors", contains("A Interface named eth1/0 already exists"));
        var adopted = auth().body(Map.of(
                        "device",
                        device,
                        "module_bay",
                        bayId(device, "Bay 1"),
                        "module_type",
                        card,
                        "adopt_components",
                        true))
                .post("/api/dcim/modules/")
                .then()
                .statusCode(201)
                .extract();
        auth().get("/api/dcim/interfaces/" + loose + "/").then().body("module.id", equalTo(adopted.path("id")));
        assertEquals(
                List.of("dcim.module:create", "dcim.interface:update"),
                changesOf(adopted).stream()
                        .map(c -> c.get("changed_object_type") + ":" + ((Map<?, ?>) c.get("action")).get("value"))
                        .toList());
    }

    /**
     * NetBox's Device.save(): interface bridges are set once the interfaces exist, and inventory
     * item templates make a tree of items, each pointing at the component its template points at.
     */
    @Test
    void interfaceBridgesAndInventoryItemTreesAreMadeFromTheirTemplates() {
        Fixture f = new Fixture();
        int type = create(
                "/api/dcim/device-types/",
                Map.of("manufacturer", f.manufacturer, "model", "IB-" + f.u, "slug", "ib-" + f.u));
        int br0 =
                create("/api/dcim/interface-templates/", Map.of("device_type", type, "name", "br0", "type", "bridge"));
        create(
                "/api/dcim/interface-templates/",
                Map.of("device_type", type, "name", "eth0", "type", "1000base-t", "bridge", br0));
        int role = create("/api/dcim/inventory-item-roles/", Map.of("name", "ir-" + f.u, "slug", "ir-" + f.u));
        int chassis = create(
                "/api/dcim/inventory-item-templates/",
                Map.of(
                        "device_type",
                        type,
                        "name",
                        "chassis",
                        "role",
                        role,
                        "manufacturer",
                        f.manufacturer,
                        "part_id",
                        "CH-1"));
        int card = create(
                "/api/dcim/inventory-item-templates/", Map.of("device_type", type, "name", "card", "parent", chassis));
        create(
                "/api/dcim/inventory-item-templates/",
                Map.of(
                        "device_type",
                        type,
                        "name",
                        "optic",
                        "parent",
                        card,
                        "component_type",
                        "dcim.interfacetemplate",
                        "component_id",
                        br0));

        var created = auth().body(Map.of("name", "ib-" + f.u, "site", f.site, "device_type", type, "role", f.role))
                .post("/api/dcim/devices/")
                .then()
                .statusCode(201)
                .body("inventory_item_count", equalTo(3))
                .extract();
        int device = created.path("id");
        int bridge = auth().get("/api/dcim/interfaces/?device_id=" + device + "&name=br0")
                .then()
                .body("count", equalTo(1))
                .extract()
                .path("results[0].id");
        int eth0Id = auth().get("/api/dcim/interfaces/?device_id=" + device + "&name=eth0")
                .then()
                .body("results[0].bridge.id", equalTo(bridge))
                .extract()
                .path("results[0].id");
        auth().get("/api/dcim/interfaces/" + bridge + "/")
                .then()
                .body("bridge_interfaces.id", contains(eth0Id))
                .body("bridge_interfaces[0].name", equalTo("eth0"));
        int chassisItem = auth().get("/api/dcim/inventory-items/?device_id=" + device + "&name=chassis")
                .then()
                .body("results[0].parent", nullValue())
                .body("results[0].role.id", equalTo(role))
                .body("results[0].manufacturer.id", equalTo(f.manufacturer))
                .body("results[0].part_id", equalTo("CH-1"))
                .extract()
                .path("results[0].id");
        int cardItem = auth().get("/api/dcim/inventory-items/?device_id=" + device + "&name=card")
                .then()
                .body("results[0].parent", equalTo(chassisItem))
                .body("results[0]._depth", equalTo(1))
                .extract()
                .path("results[0].id");
        auth().get("/api/dcim/inventory-items/?device_id=" + device + "&name=optic")
                .then()
                .body("results[0].parent", equalTo(cardItem))
                .body("results[0]._depth", equalTo(2))
                .body("results[0].component_type", equalTo("dcim.interface"))
                .body("results[0].component_id", equalTo(bridge));
        // each component's create record shows it as made, bridge and parent included
        List<Map<String, Object>> changes = changesOf(created);
        Map<?, ?> eth0 = changes.stream()
                                .filter(c -> "eth0".equals(((Map<?, ?>) c.get("postchange_data")).get("name")))
                                .findFirst()
                                .orElseThrow()
                                .get("postchange_data")
                        instanceof Map<?, ?> m
                ? m
                : Map.of();
        assertEquals(bridge, eth0.get("bridge"));
        assertEquals(1 + 2 + 3, changes.size());
    }

    /** Creating a device costs the same statements whatever number of bays its type's templates make. */
    @Test
    void creatingADeviceCostsTheSameStatementsForTwoAndFortyBays() {
        Fixture f = new Fixture();
        int two = deviceCreateStatements(f, f.deviceTypeWithBays(positions(2)), 2);
        int forty = deviceCreateStatements(f, f.deviceTypeWithBays(positions(40)), 40);
        System.out.println("statements to create a device with 2 / 40 module bays: " + two + " / " + forty);
        assertEquals(two, forty, "2 bays: " + two + ", 40: " + forty);
    }

    private static List<String> positions(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(String.valueOf(i));
        }
        return out;
    }

    /** The fewest statements over three creates (a request may also refresh a token's last_used time). */
    private static int deviceCreateStatements(Fixture f, int deviceType, int bays) {
        int min = Integer.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            var r = auth().body(
                            Map.of("name", "qc-" + uniq(), "site", f.site, "device_type", deviceType, "role", f.role))
                    .post("/api/dcim/devices/")
                    .then()
                    .statusCode(201)
                    .body("module_bay_count", equalTo(bays))
                    .extract();
            min = Math.min(min, Integer.parseInt(r.header("X-SQL-Statements")));
        }
        return min;
    }

    private static List<Map<String, Object>> changesOf(ExtractableResponse<Response> r) {
        return auth().get("/api/core/object-changes/?ordering=id&limit=1000&request_id=" + r.header("X-Request-ID"))
                .then()
                .statusCode(200)
                .extract()
                .path("results");
    }

    /**
     * NetBox 4.6: a module bay (and its template) may be disabled: nothing can be installed in
     * it, a module already there may stay, and the bay reads occupied; module types count their
     * modules and templates, manufacturers their module types.
     */
    @Test
    void disabledBaysTakeNoModuleAndModuleTypesCount() {
        Fixture f = new Fixture();
        int deviceType = f.deviceTypeWithBays(List.of("1"));
        int disabledTemplate = create(
                "/api/dcim/module-bay-templates/", Map.of("device_type", deviceType, "name", "Off", "enabled", false));
        auth().get("/api/dcim/module-bay-templates/" + disabledTemplate + "/")
                .then()
                .body("enabled", equalTo(false));
        int device = f.device(deviceType);
        int bay = bayId(device, "Bay 1");
        int off = bayId(device, "Off");
        auth().get("/api/dcim/module-bays/" + off + "/")
                .then()
                .body("enabled", equalTo(false))
                .body("_occupied", equalTo(true));
        auth().get("/api/dcim/module-bays/" + bay + "/?brief=1")
                .then()
                .body("enabled", equalTo(true))
                .body("_occupied", equalTo(false));
        int moduleType =
                create("/api/dcim/module-types/", Map.of("manufacturer", f.manufacturer, "model", "MT-" + f.u));
        create(
                "/api/dcim/interface-templates/",
                Map.of("module_type", moduleType, "name", "e{module}", "type", "10gbase-x-sfpp"));
        post("/api/dcim/modules/", Map.of("device", device, "module_bay", off, "module_type", moduleType))
                .statusCode(400)
                .body("module_bay", contains("Cannot install a module in a disabled module bay."));
        int module =
                create("/api/dcim/modules/", Map.of("device", device, "module_bay", bay, "module_type", moduleType));
        auth().get("/api/dcim/module-bays/" + bay + "/").then().body("_occupied", equalTo(true));
        // disabling the bay leaves its module where it is, and the module can still be changed
        auth().body(Map.of("enabled", false))
                .patch("/api/dcim/module-bays/" + bay + "/")
                .then()
                .statusCode(200);
        auth().body(Map.of("serial", "kept"))
                .patch("/api/dcim/modules/" + module + "/")
                .then()
                .statusCode(200);
        auth().get("/api/dcim/module-types/" + moduleType + "/")
                .then()
                .body("module_count", equalTo(1))
                .body("interface_template_count", equalTo(1))
                .body("console_port_template_count", equalTo(0));
        auth().get("/api/dcim/module-types/?module_count__gte=1&model=MT-" + f.u)
                .then()
                .body("results.id", contains(moduleType));
        auth().get("/api/dcim/manufacturers/" + f.manufacturer + "/").then().body("moduletype_count", equalTo(1));
    }

    private static int bayId(int device, String name) {
        return auth().get("/api/dcim/module-bays/?device_id=" + device + "&name=" + name)
                .then()
                .statusCode(200)
                .body("results", hasSize(1))
                .extract()
                .path("results[0].id");
    }

    /** A site, a role and a manufacturer to hang device types, devices and module types on. */
    private static final class Fixture {
        final String u = uniq();
        final int site = Api.site("mb");
        final int role = create("/api/dcim/device-roles/", Map.of("name", "mr-" + u, "slug", "mr-" + u));
        final int manufacturer = create("/api/dcim/manufacturers/", Map.of("name", "mf-" + u, "slug", "mf-" + u));
        private int devices;
        private int types;

        /** A device type with a bay template per position: "Bay <p>", label "L<p>". */
        int deviceTypeWithBays(List<String> positions) {
            String model = "dt-" + u + "-" + ++types;
            int type = create(
                    "/api/dcim/device-types/", Map.of("manufacturer", manufacturer, "model", model, "slug", model));
            List<Map<String, Object>> templates = new ArrayList<>();
            for (String p : positions) {
                templates.add(Map.of("device_type", type, "name", "Bay " + p, "label", "L" + p, "position", p));
            }
            post("/api/dcim/module-bay-templates/", templates).statusCode(201);
            return type;
        }

        int device(int deviceType) {
            return create(
                    "/api/dcim/devices/",
                    Map.of(
                            "name",
                            "dev-" + u + "-" + ++devices,
                            "site",
                            site,
                            "device_type",
                            deviceType,
                            "role",
                            role));
        }
    }
}
