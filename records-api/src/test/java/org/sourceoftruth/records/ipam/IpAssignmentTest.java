package org.sourceoftruth.records.ipam;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
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

/**
 * The generic relation of IP addresses (assigned_object_type/id) to device and VM interfaces,
 * and the primary-IP rules of devices and virtual machines.
 */
@QuarkusTest
class IpAssignmentTest {

    private static Map<String, Object> assign(String type, Object id) {
        Map<String, Object> body = new HashMap<>();
        body.put("assigned_object_type", type);
        body.put("assigned_object_id", id);
        return body;
    }

    @Test
    void assignedToAnInterfaceThenAVmInterfaceThenUnassigned() {
        String b = Ipam.v4Block();
        String dev = "dev-" + uniq();
        String vmName = "vm-" + uniq();
        int[] d = Ipam.deviceWithInterface(dev);
        int[] vm = Ipam.vmWithInterface(vmName);
        Map<String, Object> body = new HashMap<>(assign("dcim.interface", d[1]));
        body.put("address", b + ".5/24");
        int ip = create("/api/ipam/ip-addresses/", body);
        auth().get("/api/ipam/ip-addresses/" + ip + "/")
                .then()
                .statusCode(200)
                .body("assigned_object_type", equalTo("dcim.interface"))
                .body("assigned_object_id", equalTo(d[1]))
                .body("assigned_object.id", equalTo(d[1]))
                .body("assigned_object.name", equalTo("eth0"))
                .body("assigned_object.device.id", equalTo(d[0]))
                .body("assigned_object.device.name", equalTo(dev))
                .body("assigned_object.url", org.hamcrest.Matchers.endsWith("/api/dcim/interfaces/" + d[1] + "/"));
        auth().get("/api/dcim/interfaces/" + d[1] + "/").then().body("count_ipaddresses", equalTo(1));
        assertThat(addressesOf("device_id=" + d[0]), contains(b + ".5/24"));
        assertThat(addressesOf("device=" + dev), contains(b + ".5/24"));
        assertThat(addressesOf("interface_id=" + d[1]), contains(b + ".5/24"));
        assertThat(addressesOf("parent=" + b + ".0/24&assigned_to_interface=true"), contains(b + ".5/24"));

        // re-assigned to a VM interface
        auth().body(assign("virtualization.vminterface", vm[1]))
                .patch("/api/ipam/ip-addresses/" + ip + "/")
                .then()
                .statusCode(200)
                .body("assigned_object_type", equalTo("virtualization.vminterface"))
                .body("assigned_object.name", equalTo("ens3"))
                .body("assigned_object.virtual_machine.id", equalTo(vm[0]))
                .body("assigned_object.virtual_machine.name", equalTo(vmName));
        auth().get("/api/dcim/interfaces/" + d[1] + "/").then().body("count_ipaddresses", equalTo(0));
        auth().get("/api/virtualization/interfaces/" + vm[1] + "/").then().body("count_ipaddresses", equalTo(1));
        assertThat(addressesOf("device_id=" + d[0]), hasSize(0));
        assertThat(addressesOf("virtual_machine_id=" + vm[0]), contains(b + ".5/24"));
        assertThat(addressesOf("virtual_machine=" + vmName), contains(b + ".5/24"));
        assertThat(addressesOf("vminterface_id=" + vm[1]), contains(b + ".5/24"));

        // unassigned: both halves null, the read side too
        auth().body(assign(null, null))
                .patch("/api/ipam/ip-addresses/" + ip + "/")
                .then()
                .statusCode(200)
                .body("assigned_object_type", nullValue())
                .body("assigned_object_id", nullValue())
                .body("assigned_object", nullValue());
        assertThat(addressesOf("parent=" + b + ".0/24&assigned_to_interface=false"), contains(b + ".5/24"));
        assertThat(addressesOf("parent=" + b + ".0/24&assigned=false"), contains(b + ".5/24"));
    }

    private static List<String> addressesOf(String query) {
        return auth().get("/api/ipam/ip-addresses/?" + query)
                .then()
                .statusCode(200)
                .extract()
                .path("results.address");
    }

    @Test
    void theTypeAndIdPairMustNameOneExistingObject() {
        String b = Ipam.v4Block();
        int[] d = Ipam.deviceWithInterface("pair-" + uniq());
        Map<String, Object> body = new HashMap<>(assign("dcim.device", d[0]));
        body.put("address", b + ".5/24");
        post("/api/ipam/ip-addresses/", body)
                .statusCode(400)
                .body("assigned_object_type", contains("Invalid content type: dcim.device"));
        body.putAll(assign("dcim.interface", 999999999));
        post("/api/ipam/ip-addresses/", body)
                .statusCode(400)
                .body("assigned_object_id", contains("Related object not found using the provided value: 999999999."));
        body.putAll(assign("dcim.interface", null));
        post("/api/ipam/ip-addresses/", body)
                .statusCode(400)
                .body("assigned_object_id", contains("This field cannot be null."));
        body.putAll(assign(null, d[1]));
        post("/api/ipam/ip-addresses/", body)
                .statusCode(400)
                .body("assigned_object_type", contains("This field cannot be null."));
        // a network ID or broadcast address cannot sit on an interface (unless /31 or /32)
        body.putAll(assign("dcim.interface", d[1]));
        body.put("address", b + ".0/24");
        post("/api/ipam/ip-addresses/", body)
                .statusCode(400)
                .body("__all__", contains(b + ".0 is a network ID, which may not be assigned to an interface."));
        body.put("address", b + ".255/24");
        post("/api/ipam/ip-addresses/", body)
                .statusCode(400)
                .body(
                        "__all__",
                        contains(b + ".255 is a broadcast address, which may not be assigned to an interface."));
        body.put("address", b + ".254/31");
        post("/api/ipam/ip-addresses/", body).statusCode(201);
        auth().get("/api/ipam/ip-addresses/?parent=" + b + ".0/24").then().body("count", equalTo(1));
    }

    @Test
    void primaryAddressesMustBelongToTheDeviceOrVm() {
        String b = Ipam.v4Block();
        String v6 = Ipam.v6Block();
        int[] d = Ipam.deviceWithInterface("prim-" + uniq());
        int[] other = Ipam.deviceWithInterface("other-" + uniq());
        int[] vm = Ipam.vmWithInterface("vmprim-" + uniq());
        Map<String, Object> onDevice = new HashMap<>(assign("dcim.interface", d[1]));
        onDevice.put("address", b + ".10/24");
        int ip4 = create("/api/ipam/ip-addresses/", onDevice);
        onDevice.put("address", v6 + "::10/64");
        int ip6 = create("/api/ipam/ip-addresses/", onDevice);
        int loose = Ipam.ip(b + ".11/24");

        auth().body(Map.of("primary_ip4", loose))
                .patch("/api/dcim/devices/" + d[0] + "/")
                .then()
                .statusCode(400)
                .body(
                        "primary_ip4",
                        contains("The specified IP address (" + b + ".11/24) is not assigned to this device."));
        auth().body(Map.of("primary_ip4", ip6))
                .patch("/api/dcim/devices/" + d[0] + "/")
                .then()
                .statusCode(400)
                .body("primary_ip4", contains(v6 + "::10/64 is not an IPv4 address."));
        auth().body(Map.of("primary_ip4", ip4, "primary_ip6", ip6))
                .patch("/api/dcim/devices/" + d[0] + "/")
                .then()
                .statusCode(200)
                .body("primary_ip4.id", equalTo(ip4))
                .body("primary_ip4.address", equalTo(b + ".10/24"))
                .body("primary_ip4.family.value", equalTo(4))
                .body("primary_ip4.dns_name", equalTo(""))
                .body("primary_ip6.address", equalTo(v6 + "::10/64"))
                .body("primary_ip.id", equalTo(ip6));
        // the same address cannot be another device's primary
        auth().body(Map.of("primary_ip4", ip4))
                .patch("/api/dcim/devices/" + other[0] + "/")
                .then()
                .statusCode(400);
        // while designated primary, the address cannot move to another device nor be unassigned
        auth().body(assign("dcim.interface", other[1]))
                .patch("/api/ipam/ip-addresses/" + ip4 + "/")
                .then()
                .statusCode(400)
                .body(
                        "__all__",
                        contains("Cannot reassign IP address while it is designated as the"
                                + " primary IP for the parent object"));
        auth().body(assign(null, null))
                .patch("/api/ipam/ip-addresses/" + ip4 + "/")
                .then()
                .statusCode(400);
        int eth1 = create("/api/dcim/interfaces/", Map.of("device", d[0], "name", "eth1", "type", "virtual"));
        auth().body(assign("dcim.interface", eth1))
                .patch("/api/ipam/ip-addresses/" + ip4 + "/")
                .then()
                .statusCode(200);
        auth().get("/api/dcim/devices/?has_primary_ip=true&id=" + d[0]).then().body("count", equalTo(1));
        auth().body(Map.of("oob_ip", ip4))
                .patch("/api/dcim/devices/" + d[0] + "/")
                .then()
                .statusCode(200)
                .body("oob_ip.address", equalTo(b + ".10/24"));
        auth().body(Map.of("oob_ip", loose))
                .patch("/api/dcim/devices/" + d[0] + "/")
                .then()
                .statusCode(400)
                .body("oob_ip", contains("The specified IP address (" + b + ".11/24) is not assigned to this device."));
        // deleting the address clears the device's primary pointer
        auth().delete("/api/ipam/ip-addresses/" + ip6 + "/").then().statusCode(204);
        auth().get("/api/dcim/devices/" + d[0] + "/")
                .then()
                .body("primary_ip6", nullValue())
                .body("primary_ip.id", equalTo(ip4));

        Map<String, Object> onVm = new HashMap<>(assign("virtualization.vminterface", vm[1]));
        onVm.put("address", b + ".20/24");
        int vmIp = create("/api/ipam/ip-addresses/", onVm);
        auth().body(Map.of("primary_ip4", loose))
                .patch("/api/virtualization/virtual-machines/" + vm[0] + "/")
                .then()
                .statusCode(400)
                .body(
                        "primary_ip4",
                        contains("The specified IP address (" + b + ".11/24) is not assigned" + " to this VM."));
        auth().body(Map.of("primary_ip6", vmIp))
                .patch("/api/virtualization/virtual-machines/" + vm[0] + "/")
                .then()
                .statusCode(400)
                .body("primary_ip6", contains("Must be an IPv6 address. (" + b + ".20/24 is an IPv4" + " address.)"));
        auth().body(Map.of("primary_ip4", vmIp))
                .patch("/api/virtualization/virtual-machines/" + vm[0] + "/")
                .then()
                .statusCode(200)
                .body("primary_ip4.address", equalTo(b + ".20/24"))
                .body("primary_ip.id", equalTo(vmIp));
        auth().get("/api/virtualization/virtual-machines/?has_primary_ip=true&id=" + vm[0])
                .then()
                .body("count", equalTo(1));
        // deleting the device removes its interfaces and their addresses (its primary one included)
        auth().delete("/api/dcim/devices/" + d[0] + "/").then().statusCode(204);
        auth().get("/api/ipam/ip-addresses/" + ip4 + "/")
                .then()
                .statusCode(404)
                .body("detail", equalTo("No IPAddress matches the given query."));
    }
}
