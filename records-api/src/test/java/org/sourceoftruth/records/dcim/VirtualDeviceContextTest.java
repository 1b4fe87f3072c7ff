package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Virtual device contexts: a device's VDCs, the interfaces in them, their primary addresses. */
@QuarkusTest
class VirtualDeviceContextTest {

    @Test
    void interfacesJoinTheirDevicesContexts() {
        String u = uniq();
        int site = Api.site("vdc");
        int device = Api.device(site, Api.deviceTypeAndRole(), "n7k-" + u);
        int lonely = Api.device(site, Api.deviceTypeAndRole(), "other-" + u);
        int admin = create(
                "/api/dcim/virtual-device-contexts/",
                Map.of("name", "admin", "device", device, "identifier", 1, "status", "active"));
        int prod = create(
                "/api/dcim/virtual-device-contexts/",
                Map.of("name", "prod", "device", device, "identifier", 2, "status", "planned"));
        int eth = create(
                "/api/dcim/interfaces/",
                Map.of(
                        "device",
                        device,
                        "name",
                        "Ethernet1/1",
                        "type",
                        "10gbase-x-sfpp",
                        "vdcs",
                        List.of(admin, prod)));
        create(
                "/api/dcim/interfaces/",
                Map.of("device", device, "name", "Ethernet1/2", "type", "10gbase-x-sfpp", "vdcs", List.of(prod)));

        auth().get("/api/dcim/interfaces/" + eth + "/")
                .then()
                .statusCode(200)
                .body("vdcs.name", contains("admin", "prod"))
                .body("vdcs[0].identifier", equalTo(1));
        auth().get("/api/dcim/virtual-device-contexts/" + prod + "/")
                .then()
                .body("interface_count", equalTo(2))
                .body("status.label", equalTo("Planned"))
                .body("device.id", equalTo(device))
                .body("primary_ip", equalTo(null));
        auth().get("/api/dcim/interfaces/?vdc_id=" + admin).then().body("results.name", contains("Ethernet1/1"));
        auth().get("/api/dcim/interfaces/?device_id=" + device + "&vdc=prod&vdc_identifier=2")
                .then()
                .body("count", equalTo(2));
        auth().get("/api/dcim/virtual-device-contexts/?interface_id=" + eth)
                .then()
                .body("count", equalTo(2));
        auth().get("/api/dcim/virtual-device-contexts/?device=" + device + "&q=admin")
                .then()
                .body("results.name", contains("admin"));
        auth().get("/api/dcim/devices/?has_virtual_device_context=true&id=" + device + "&id=" + lonely)
                .then()
                .body("results.id", contains(device));
        auth().get("/api/dcim/devices/?has_virtual_device_context=false&id=" + device + "&id=" + lonely)
                .then()
                .body("results.id", contains(lonely));

        post("/api/dcim/virtual-device-contexts/", Map.of("name", "admin", "device", device, "status", "active"))
                .statusCode(400)
                .body("__all__", hasItem("Virtual device context with this Device and Name already exists."));
        // a device with contexts is protected; its interfaces leave the contexts when deleted
        auth().delete("/api/dcim/devices/" + device + "/").then().statusCode(409);
        auth().delete("/api/dcim/interfaces/" + eth + "/").then().statusCode(204);
        auth().get("/api/dcim/virtual-device-contexts/" + prod + "/").then().body("interface_count", equalTo(1));
    }

    @Test
    void primaryAddressesBelongToTheDevicesInterfaces() {
        String u = uniq();
        int site = Api.site("vdcip");
        int device = Api.device(site, Api.deviceTypeAndRole(), "d-" + u);
        int iface = create("/api/dcim/interfaces/", Map.of("device", device, "name", "mgmt0", "type", "1000base-t"));
        int other = Api.device(site, Api.deviceTypeAndRole(), "o-" + u);
        int otherIface =
                create("/api/dcim/interfaces/", Map.of("device", other, "name", "mgmt0", "type", "1000base-t"));
        int own = create(
                "/api/ipam/ip-addresses/",
                Map.of(
                        "address",
                        "192.0.2.10/24",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        iface));
        int foreign = create(
                "/api/ipam/ip-addresses/",
                Map.of(
                        "address",
                        "192.0.2.11/24",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        otherIface));
        post(
                        "/api/dcim/virtual-device-contexts/",
                        Map.of("name", "v", "device", device, "status", "active", "primary_ip6", own))
                .statusCode(400)
                .body("primary_ip6", contains("192.0.2.10/24 is not an IPv6 address."));
        post(
                        "/api/dcim/virtual-device-contexts/",
                        Map.of("name", "v", "device", device, "status", "active", "primary_ip4", foreign))
                .statusCode(400)
                .body(
                        "primary_ip4",
                        contains("Primary IP address must belong to an interface on the assigned device."));
        int vdc = create(
                "/api/dcim/virtual-device-contexts/",
                Map.of("name", "v", "device", device, "status", "active", "primary_ip4", own));
        auth().get("/api/dcim/virtual-device-contexts/" + vdc + "/")
                .then()
                .body("primary_ip.id", equalTo(own))
                .body("primary_ip4.address", equalTo("192.0.2.10/24"));
        auth().get("/api/dcim/virtual-device-contexts/?has_primary_ip=true&device_id=" + device)
                .then()
                .body("count", equalTo(1));
        auth().get("/api/dcim/virtual-device-contexts/?primary_ip4=192.0.2.10/24")
                .then()
                .body("results.id", hasItem(vdc));
        post("/api/dcim/virtual-device-contexts/", Map.of("name", "w", "device", device))
                .statusCode(400)
                .body("status", contains("This field is required."));
    }
}
