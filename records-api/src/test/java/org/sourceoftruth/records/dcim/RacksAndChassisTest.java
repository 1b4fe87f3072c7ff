package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rack types, rack reservations, rack space and elevations, virtual chassis and MAC address
 * objects, with NetBox's rules and messages.
 */
@QuarkusTest
class RacksAndChassisTest {

    private static int manufacturer(String u) {
        return create("/api/dcim/manufacturers/", Map.of("name", "rm-" + u, "slug", "rm-" + u));
    }

    /** A device type of {@code height} U, full depth or not. */
    private static int deviceType(int manufacturer, String model, double height, boolean fullDepth) {
        return create(
                "/api/dcim/device-types/",
                Map.of(
                        "manufacturer",
                        manufacturer,
                        "model",
                        model,
                        "slug",
                        model.toLowerCase(),
                        "u_height",
                        height,
                        "is_full_depth",
                        fullDepth));
    }

    private static int role(String u) {
        return create("/api/dcim/device-roles/", Map.of("name", "rr-" + u, "slug", "rr-" + u));
    }

    @Test
    void aRackTakesItsRackTypesPhysicalAttributes() {
        String u = uniq();
        int mfr = manufacturer(u);
        int site = create("/api/dcim/sites/", Map.of("name", "rs-" + u, "slug", "rs-" + u));
        int type = create(
                "/api/dcim/rack-types/",
                Map.of(
                        "manufacturer",
                        mfr,
                        "model",
                        "Cab " + u,
                        "slug",
                        "cab-" + u,
                        "form_factor",
                        "4-post-cabinet",
                        "u_height",
                        48,
                        "width",
                        19,
                        "starting_unit",
                        2,
                        "outer_width",
                        600,
                        "outer_unit",
                        "mm",
                        "mounting_depth",
                        1000));
        auth().get("/api/dcim/rack-types/" + type + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("Cab " + u))
                .body("manufacturer.id", equalTo(mfr))
                .body("form_factor.value", equalTo("4-post-cabinet"))
                .body("width.value", equalTo(19))
                .body("outer_unit.value", equalTo("mm"));
        int rack =
                create("/api/dcim/racks/", Map.of("name", "R-" + u, "site", site, "rack_type", type, "u_height", 10));
        auth().get("/api/dcim/racks/" + rack + "/")
                .then()
                .body("rack_type.id", equalTo(type))
                .body("u_height", equalTo(48))
                .body("starting_unit", equalTo(2))
                .body("form_factor.value", equalTo("4-post-cabinet"))
                .body("outer_width", equalTo(600))
                .body("mounting_depth", equalTo(1000));
        auth().get("/api/dcim/racks/?manufacturer=rm-" + u).then().body("results.id", contains(rack));
        auth().get("/api/dcim/racks/?rack_type_id=" + type).then().body("results.id", contains(rack));
        auth().get("/api/dcim/rack-types/?manufacturer_id=" + mfr).then().body("results.id", contains(type));
        post(
                        "/api/dcim/rack-types/",
                        Map.of(
                                "manufacturer",
                                mfr,
                                "model",
                                "X",
                                "slug",
                                "x-" + u,
                                "form_factor",
                                "2-post-frame",
                                "outer_depth",
                                5))
                .statusCode(400)
                .body("__all__", hasItem("Must specify a unit when setting an outer dimension"));
        // a change of the type reaches its racks in the same request, each rack's update logged
        var changed = auth().body(Map.of("u_height", 42, "mounting_depth", 800))
                .patch("/api/dcim/rack-types/" + type + "/")
                .then()
                .statusCode(200)
                .extract();
        auth().get("/api/dcim/racks/" + rack + "/")
                .then()
                .body("u_height", equalTo(42))
                .body("mounting_depth", equalTo(800));
        auth().get("/api/core/object-changes/?request_id=" + changed.header("X-Request-ID") + "&ordering=id")
                .then()
                .body("results.changed_object_type", contains("dcim.racktype", "dcim.rack"))
                .body("results[1].prechange_data.u_height", equalTo(48))
                .body("results[1].postchange_data.u_height", equalTo(42));
        // protected while racks use it
        auth().delete("/api/dcim/rack-types/" + type + "/").then().statusCode(409);
    }

    @Test
    void reservationUnitsMustBeTheRacksAndFree() {
        String u = uniq();
        int site = create("/api/dcim/sites/", Map.of("name", "rv-" + u, "slug", "rv-" + u));
        int rack = create("/api/dcim/racks/", Map.of("name", "R-" + u, "site", site, "u_height", 10));
        int user = auth().get("/api/users/users/?limit=1").then().extract().path("results[0].id");
        post(
                        "/api/dcim/rack-reservations/",
                        Map.of("rack", rack, "units", List.of(9, 11, 12), "user", user, "description", "too high"))
                .statusCode(400)
                .body("units", contains("Invalid unit(s) for 10U rack: 11, 12"));
        post(
                        "/api/dcim/rack-reservations/",
                        Map.of("rack", rack, "units", List.of(), "user", user, "description", "none"))
                .statusCode(400);
        int reservation = create(
                "/api/dcim/rack-reservations/",
                Map.of("rack", rack, "units", List.of(1, 2, 3), "user", user, "description", "for " + u));
        auth().get("/api/dcim/rack-reservations/" + reservation + "/")
                .then()
                .statusCode(200)
                .body("units", equalTo(List.of(1, 2, 3)))
                .body("status.value", equalTo("active"))
                .body("display", equalTo("Reservation for rack R-" + u))
                .body("user.id", equalTo(user));
        post(
                        "/api/dcim/rack-reservations/",
                        Map.of("rack", rack, "units", List.of(3, 4), "user", user, "description", "overlap"))
                .statusCode(400)
                .body("units", contains("The following units have already been reserved: 3"));
        auth().get("/api/dcim/rack-reservations/?unit=2&site_id=" + site)
                .then()
                .body("results.id", contains(reservation));
        auth().get("/api/dcim/rack-reservations/?unit=7&site_id=" + site).then().body("count", equalTo(0));
    }

    @Test
    void devicesTakeRackSpaceAndTheElevationShowsIt() {
        String u = uniq();
        int mfr = manufacturer(u);
        int twoU = deviceType(mfr, "Half-" + u, 2, false);
        int full = deviceType(mfr, "Full-" + u, 1, true);
        int role = role(u);
        int site = create("/api/dcim/sites/", Map.of("name", "re-" + u, "slug", "re-" + u));
        int rack = create("/api/dcim/racks/", Map.of("name", "R-" + u, "site", site, "u_height", 4));
        int server = create(
                "/api/dcim/devices/",
                Map.of(
                        "name",
                        "srv-" + u,
                        "site",
                        site,
                        "rack",
                        rack,
                        "position",
                        1,
                        "face",
                        "front",
                        "device_type",
                        twoU,
                        "role",
                        role));
        Map<String, Object> clash = Map.of(
                "name",
                "clash-" + u,
                "site",
                site,
                "rack",
                rack,
                "position",
                2,
                "face",
                "front",
                "device_type",
                twoU,
                "role",
                role);
        post("/api/dcim/devices/", clash)
                .statusCode(400)
                .body(
                        "position",
                        contains(
                                "U2.0 is already occupied or does not have sufficient space to accommodate this device type: Half-"
                                        + u + " (2.0U)"));
        post(
                        "/api/dcim/devices/",
                        Map.of(
                                "name",
                                "high-" + u,
                                "site",
                                site,
                                "rack",
                                rack,
                                "position",
                                4,
                                "face",
                                "front",
                                "device_type",
                                twoU,
                                "role",
                                role))
                .statusCode(400)
                .body("position[0]", startsWith("U4.0 is already occupied"));
        post(
                        "/api/dcim/devices/",
                        Map.of(
                                "name",
                                "noface-" + u,
                                "site",
                                site,
                                "rack",
                                rack,
                                "position",
                                3,
                                "device_type",
                                twoU,
                                "role",
                                role))
                .statusCode(400)
                .body("face", contains("Must specify rack face when defining rack position."));
        // the rear face is free where the half-depth server is
        create(
                "/api/dcim/devices/",
                Map.of(
                        "name",
                        "rear-" + u,
                        "site",
                        site,
                        "rack",
                        rack,
                        "position",
                        1,
                        "face",
                        "rear",
                        "device_type",
                        twoU,
                        "role",
                        role));
        // a full-depth device needs both faces free
        post(
                        "/api/dcim/devices/",
                        Map.of(
                                "name",
                                "deep-" + u,
                                "site",
                                site,
                                "rack",
                                rack,
                                "position",
                                2,
                                "face",
                                "front",
                                "device_type",
                                full,
                                "role",
                                role))
                .statusCode(400);
        int deep = create(
                "/api/dcim/devices/",
                Map.of(
                        "name",
                        "deep-" + u,
                        "site",
                        site,
                        "rack",
                        rack,
                        "position",
                        4,
                        "face",
                        "front",
                        "device_type",
                        full,
                        "role",
                        role));

        auth().get("/api/dcim/racks/" + rack + "/elevation/")
                .then()
                .statusCode(200)
                .body("count", equalTo(8))
                .body("results.name", contains("U4.5", "U4", "U3.5", "U3", "U2.5", "U2", "U1.5", "U1"))
                .body("results[0].id", equalTo(4.5f))
                .body("results[0].name", equalTo("U4.5"))
                .body("results[0].device.id", equalTo(deep))
                .body("results[0].face.value", equalTo("front"))
                .body("results[2].occupied", equalTo(false))
                .body("results[2].device", nullValue())
                .body("results[6].id", equalTo(1.5f))
                .body("results[6].device.id", equalTo(server))
                .body("results[7].name", equalTo("U1"))
                .body("results[7].occupied", equalTo(true));
        auth().get("/api/dcim/racks/" + rack + "/elevation/?exclude=" + server + "&limit=2&offset=6")
                .then()
                .body("count", equalTo(8))
                .body("results.occupied", contains(false, false))
                .body("previous", containsString("limit=2"));
        auth().get("/api/dcim/racks/" + rack + "/elevation/?face=rear")
                .then()
                .body("results[6].device.name", equalTo("rear-" + u))
                .body("results[0].device.id", equalTo(deep));
        auth().get("/api/dcim/racks/" + rack + "/elevation/?face=side")
                .then()
                .statusCode(400)
                .body("face", contains("\"side\" is not a valid choice."));
        String svg = auth().get("/api/dcim/racks/" + rack + "/elevation/?render=svg")
                .then()
                .statusCode(200)
                .contentType(startsWith("image/svg+xml"))
                .extract()
                .asString();
        org.junit.jupiter.api.Assertions.assertTrue(
                svg.startsWith("<?xml")
                        && svg.contains("<svg")
                        && svg.contains("srv-" + u)
                        && svg.contains("deep-" + u)
                        && !svg.contains("rear-" + u),
                svg);
        // the rack cannot shrink below its devices
        auth().contentType("application/json")
                .body(Map.of("u_height", 3))
                .patch("/api/dcim/racks/" + rack + "/")
                .then()
                .statusCode(400)
                .body("u_height", contains("Rack must be at least 4U tall to house currently" + " installed devices."));
    }

    /**
     * NetBox's DeviceType.clean(): a type cannot grow taller than the space its racked devices
     * have, nor become 0U while any is racked. A device's own update still checks its position
     * when it changes it.
     */
    @Test
    void aDeviceTypeCannotOutgrowTheRackSpaceOfItsDevices() {
        String u = uniq();
        int mfr = manufacturer(u);
        int oneU = deviceType(mfr, "One-" + u, 1, false);
        int role = role(u);
        int site = create("/api/dcim/sites/", Map.of("name", "ty-" + u, "slug", "ty-" + u));
        int rack = create(
                "/api/dcim/racks/", Map.of("name", "R-" + u, "facility_id", "F-" + u, "site", site, "u_height", 6));
        auth().get("/api/dcim/racks/" + rack + "/").then().body("display", equalTo("R-" + u + " (F-" + u + ")"));
        int low = create(
                "/api/dcim/devices/",
                Map.of(
                        "name",
                        "low-" + u,
                        "site",
                        site,
                        "rack",
                        rack,
                        "position",
                        1,
                        "face",
                        "front",
                        "device_type",
                        oneU,
                        "role",
                        role));
        create(
                "/api/dcim/devices/",
                Map.of(
                        "name",
                        "mid-" + u,
                        "site",
                        site,
                        "rack",
                        rack,
                        "position",
                        2,
                        "face",
                        "front",
                        "device_type",
                        oneU,
                        "role",
                        role));
        String type = "/api/dcim/device-types/" + oneU + "/";
        patch(type, Map.of("u_height", 2))
                .statusCode(400)
                .body(
                        "u_height",
                        contains("Device low-" + u + " in rack R-" + u + " (F-" + u
                                + ") does not have sufficient space to accommodate a height of 2.0U"));
        patch(type, Map.of("u_height", 0))
                .statusCode(400)
                .body(
                        "u_height",
                        contains("Unable to set 0U height: Found"
                                + " <a href=\"/dcim/devices/?manufacturer_id=" + mfr + "&device_type_id=" + oneU
                                + "\">2 instances</a>"
                                + " already mounted within racks."));
        auth().get(type).then().body("u_height", equalTo(1.0f));
        // a device changing nothing about its place is not checked against it; moving it is
        patch("/api/dcim/devices/" + low + "/", Map.of("description", "stays")).statusCode(200);
        patch("/api/dcim/devices/" + low + "/", Map.of("position", 2))
                .statusCode(400)
                .body("position[0]", startsWith("U2.0 is already occupied"));
        // with room above, the type may grow
        patch("/api/dcim/devices/" + low + "/", Map.of("position", 4)).statusCode(200);
        patch(type, Map.of("u_height", 2)).statusCode(200).body("u_height", equalTo(2.0f));
    }

    @Test
    void aChassisMasterIsOneOfItsMembersAndPositionsAreUnique() {
        String u = uniq();
        int mfr = manufacturer(u);
        int type = deviceType(mfr, "Sw-" + u, 1, true);
        int role = role(u);
        int site = create("/api/dcim/sites/", Map.of("name", "vc-" + u, "slug", "vc-" + u));
        int sw1 = create(
                "/api/dcim/devices/", Map.of("name", "sw1-" + u, "site", site, "device_type", type, "role", role));
        int sw2 = create(
                "/api/dcim/devices/", Map.of("name", "sw2-" + u, "site", site, "device_type", type, "role", role));
        int outsider = create(
                "/api/dcim/devices/", Map.of("name", "sw3-" + u, "site", site, "device_type", type, "role", role));
        int vc = create("/api/dcim/virtual-chassis/", Map.of("name", "Stack " + u, "domain", "d1"));
        patch("/api/dcim/devices/" + sw1 + "/", Map.of("virtual_chassis", vc))
                .statusCode(400)
                .body(
                        "vc_position",
                        contains("A device assigned to a virtual chassis must have its position defined."));
        patch("/api/dcim/devices/" + sw1 + "/", Map.of("virtual_chassis", vc, "vc_position", 1, "vc_priority", 200))
                .statusCode(200)
                .body("virtual_chassis.id", equalTo(vc))
                .body("vc_position", equalTo(1));
        patch("/api/dcim/devices/" + sw2 + "/", Map.of("virtual_chassis", vc, "vc_position", 1))
                .statusCode(400)
                .body("__all__", contains("Device with this Virtual chassis and VC position already exists."));
        patch("/api/dcim/devices/" + sw2 + "/", Map.of("virtual_chassis", vc, "vc_position", 2))
                .statusCode(200);

        patch("/api/dcim/virtual-chassis/" + vc + "/", Map.of("master", outsider))
                .statusCode(400)
                .body(
                        "master",
                        contains("The selected master (sw3-" + u + ") is not assigned to this virtual chassis."));
        patch("/api/dcim/virtual-chassis/" + vc + "/", Map.of("master", sw1))
                .statusCode(200)
                .body("master.id", equalTo(sw1))
                .body("member_count", equalTo(2))
                .body("members.id", contains(sw1, sw2));
        Map<String, Object> leave = new java.util.HashMap<>();
        leave.put("virtual_chassis", null);
        patch("/api/dcim/devices/" + sw1 + "/", leave)
                .statusCode(400)
                .body(
                        "virtual_chassis",
                        contains("Device cannot be removed from virtual chassis Stack " + u
                                + " because it is currently designated as its master."));

        auth().get("/api/dcim/devices/?virtual_chassis_id=" + vc).then().body("results.id", contains(sw1, sw2));
        auth().get("/api/dcim/devices/?site_id=" + site + "&virtual_chassis_member=false")
                .then()
                .body("results.id", contains(outsider));
        auth().get("/api/dcim/virtual-chassis/?master=sw1-" + u).then().body("results.id", contains(vc));
        auth().get("/api/dcim/virtual-chassis/?site_id=" + site).then().body("results.id", contains(vc));
        // the master's chassis interfaces include the members' (not management-only ones)
        int if1 = create("/api/dcim/interfaces/", Map.of("device", sw1, "name", "ge-0/0/1", "type", "1000base-t"));
        int if2 = create("/api/dcim/interfaces/", Map.of("device", sw2, "name", "ge-1/0/1", "type", "1000base-t"));
        create("/api/dcim/interfaces/", Map.of("device", sw2, "name", "mgmt", "type", "1000base-t", "mgmt_only", true));
        auth().get("/api/dcim/interfaces/?virtual_chassis_member_or_master_id=" + sw1)
                .then()
                .body("results.id", contains(if1, if2));
        auth().get("/api/dcim/interfaces/?virtual_chassis_member_or_master_id=" + sw2)
                .then()
                .body("count", equalTo(2));
        auth().get("/api/dcim/interfaces/?virtual_chassis_id=" + vc).then().body("count", equalTo(3));

        // a chassis created with a master takes it as a member, at position 1 (NetBox's signal)
        post("/api/dcim/virtual-chassis/", Map.of("name", "Other " + u, "master", sw1))
                .statusCode(400)
                .body("__all__", contains("Virtual chassis with this Master already exists."));
        int vc2 = post("/api/dcim/virtual-chassis/", Map.of("name", "Solo " + u, "master", outsider))
                .statusCode(201)
                .body("member_count", equalTo(1))
                .body("master.id", equalTo(outsider))
                .extract()
                .path("id");
        auth().get("/api/dcim/devices/" + outsider + "/")
                .then()
                .body("virtual_chassis.id", equalTo(vc2))
                .body("vc_position", equalTo(1));
        auth().get("/api/core/object-changes/?changed_object_type=dcim.device&changed_object_id=" + outsider)
                .then()
                .body("count", equalTo(2))
                .body("results.action.value", hasItem("update"));

        // deleting a chassis clears its members' position and priority too (NetBox's
        // clear_virtualchassis_members signal), each member's update logged
        auth().delete("/api/dcim/virtual-chassis/" + vc + "/").then().statusCode(204);
        auth().get("/api/dcim/devices/" + sw1 + "/")
                .then()
                .body("virtual_chassis", nullValue())
                .body("vc_position", nullValue())
                .body("vc_priority", nullValue());
        auth().get("/api/dcim/devices/" + sw2 + "/").then().body("vc_position", nullValue());
        auth().get("/api/core/object-changes/?changed_object_type=dcim.device&changed_object_id=" + sw1
                        + "&ordering=-id&limit=1")
                .then()
                .body("results[0].action.value", equalTo("update"))
                .body("results[0].postchange_data.vc_position", nullValue())
                .body("results[0].prechange_data.vc_priority", equalTo(200));
    }

    @Test
    void anInterfacesPrimaryMacIsOneOfItsOwnAndGivesItsMacAddress() {
        String u = uniq();
        int mfr = manufacturer(u);
        int site = create("/api/dcim/sites/", Map.of("name", "mc-" + u, "slug", "mc-" + u));
        int dev = create(
                "/api/dcim/devices/",
                Map.of(
                        "name",
                        "mac-" + u,
                        "site",
                        site,
                        "device_type",
                        deviceType(mfr, "T-" + u, 1, true),
                        "role",
                        role(u)));
        int eth0 = create("/api/dcim/interfaces/", Map.of("device", dev, "name", "eth0", "type", "1000base-t"));
        int eth1 = create("/api/dcim/interfaces/", Map.of("device", dev, "name", "eth1", "type", "1000base-t"));
        int own = create(
                "/api/dcim/mac-addresses/",
                Map.of(
                        "mac_address",
                        "aa-bb-cc-00-11-22",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        eth0));
        int other = create(
                "/api/dcim/mac-addresses/",
                Map.of(
                        "mac_address",
                        "AA:BB:CC:00:11:33",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        eth1));
        auth().get("/api/dcim/mac-addresses/" + own + "/")
                .then()
                .body("mac_address", equalTo("AA:BB:CC:00:11:22"))
                .body("assigned_object.id", equalTo(eth0))
                .body("display", equalTo("AA:BB:CC:00:11:22"));
        patch("/api/dcim/interfaces/" + eth0 + "/", Map.of("primary_mac_address", other))
                .statusCode(400)
                .body(
                        "primary_mac_address",
                        contains("MAC address AA:BB:CC:00:11:33 is not assigned to this interface."));
        patch("/api/dcim/interfaces/" + eth0 + "/", Map.of("primary_mac_address", own))
                .statusCode(200)
                .body("mac_address", equalTo("AA:BB:CC:00:11:22"))
                .body("primary_mac_address.id", equalTo(own))
                .body("mac_addresses.id", contains(own));
        // mac_address is read-only: the primary MAC object's address
        patch("/api/dcim/interfaces/" + eth0 + "/", Map.of("mac_address", "00:00:00:00:00:01"))
                .statusCode(200)
                .body("mac_address", equalTo("AA:BB:CC:00:11:22"));
        patch("/api/dcim/mac-addresses/" + own + "/", Map.of("mac_address", "aa:bb:cc:00:11:44"))
                .statusCode(200);
        auth().get("/api/dcim/interfaces/" + eth0 + "/").then().body("mac_address", equalTo("AA:BB:CC:00:11:44"));
        auth().get("/api/dcim/interfaces/?mac_address=AA:BB:CC:00:11:44").then().body("results.id", contains(eth0));
        auth().get("/api/dcim/devices/?mac_address__ic=cc:00:11:44").then().body("results.id", contains(dev));
        auth().get("/api/dcim/mac-addresses/?device_id=" + dev + "&primary=true")
                .then()
                .body("results.id", contains(own));
        auth().get("/api/dcim/mac-addresses/?interface_id=" + eth1).then().body("results.id", contains(other));
        patch("/api/dcim/mac-addresses/" + own + "/", Map.of("assigned_object_id", eth1))
                .statusCode(400)
                .body(
                        "__all__",
                        contains("Cannot reassign MAC Address while it is designated as the primary MAC for an"
                                + " object"));
        auth().delete("/api/dcim/mac-addresses/" + own + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/" + eth0 + "/")
                .then()
                .body("mac_address", nullValue())
                .body("primary_mac_address", nullValue());
    }

    private static io.restassured.response.ValidatableResponse patch(String path, Map<String, Object> body) {
        return auth().contentType("application/json").body(body).patch(path).then();
    }
}
