package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Requests NetBox's own clients send, answered as they expect: a relation's id under the
 * relation's name (Ansible's netbox.netbox modules query {@code device_type=1} on component
 * templates, {@code contact=4} on contact assignments, {@code power_panel=1} on power feeds),
 * and a virtual chassis member's primary IP on another member's interface (the collection's
 * seed script sets it on the master).
 */
@QuarkusTest
class NetBoxClientRequestsTest {

    @Test
    void relationFiltersByNameAlsoTakeIds() {
        String u = uniq();
        int[] typeAndRole = Api.deviceTypeAndRole();
        int type = typeAndRole[0];
        int other = Api.deviceTypeAndRole()[0];
        int template = create(
                "/api/dcim/console-port-templates/", Map.of("device_type", type, "name", "con", "type", "rj-45"));
        create("/api/dcim/console-port-templates/", Map.of("device_type", other, "name", "con", "type", "rj-45"));
        String slug = auth().get("/api/dcim/device-types/" + type + "/")
                .then()
                .extract()
                .path("slug");
        for (String value : List.of(String.valueOf(type), slug)) {
            auth().get("/api/dcim/console-port-templates/?name=con&device_type=" + value)
                    .then()
                    .statusCode(200)
                    .body("results.id", contains(template));
        }
        // an id that names nothing is still NetBox's 400, as is a name that names nothing
        for (String value : List.of("987654321", "no-such-type-" + u)) {
            auth().get("/api/dcim/console-port-templates/?device_type=" + value)
                    .then()
                    .statusCode(400)
                    .body(
                            "device_type",
                            contains("Select a valid choice. " + value + " is not one of the available choices."));
        }

        int site = Api.site("ncr");
        int panel = create("/api/dcim/power-panels/", Map.of("site", site, "name", "Panel " + u));
        int otherPanel = create("/api/dcim/power-panels/", Map.of("site", site, "name", "Other " + u));
        int feed = create("/api/dcim/power-feeds/", Map.of("power_panel", panel, "name", "Feed A"));
        create("/api/dcim/power-feeds/", Map.of("power_panel", otherPanel, "name", "Feed A"));
        auth().get("/api/dcim/power-feeds/?name=Feed A&power_panel=" + panel)
                .then()
                .statusCode(200)
                .body("results.id", contains(feed));

        int contact = create("/api/tenancy/contacts/", Map.of("name", "Contact " + u));
        int assignment = create(
                "/api/tenancy/contact-assignments/",
                Map.of("object_type", "dcim.site", "object_id", site, "contact", contact));
        auth().get("/api/tenancy/contact-assignments/?object_id=" + site + "&contact=" + contact)
                .then()
                .statusCode(200)
                .body("results.id", contains(assignment));
        // by the relation's own key too (NetBox's filter where it has one)
        auth().get("/api/tenancy/contact-assignments/?object_id=" + site + "&contact_id=" + contact)
                .then()
                .statusCode(200)
                .body("results.id", contains(assignment));
    }

    /** NetBox's Device.clean with vc_interfaces(if_master=False): any member's non-management interface. */
    @Test
    void aChassisMemberTakesAPrimaryIpOnAnotherMembersInterface() {
        String u = uniq();
        int site = Api.site("vcip");
        int[] typeAndRole = Api.deviceTypeAndRole();
        int master = Api.device(site, typeAndRole, "sw1-" + u);
        int member = Api.device(site, typeAndRole, "sw2-" + u);
        int loner = Api.device(site, typeAndRole, "sw3-" + u);
        int vc = create("/api/dcim/virtual-chassis/", Map.of("name", "Stack " + u));
        auth().body(Map.of("virtual_chassis", vc, "vc_position", 1))
                .patch("/api/dcim/devices/" + master + "/")
                .then()
                .statusCode(200);
        auth().body(Map.of("virtual_chassis", vc, "vc_position", 2))
                .patch("/api/dcim/devices/" + member + "/")
                .then()
                .statusCode(200);
        int eth = create("/api/dcim/interfaces/", Map.of("device", member, "name", "eth0", "type", "1000base-t"));
        int mgmt = create(
                "/api/dcim/interfaces/",
                Map.of("device", member, "name", "mgmt0", "type", "1000base-t", "mgmt_only", true));
        int third = 100 + Math.floorMod(u.hashCode(), 150);
        int ip = create(
                "/api/ipam/ip-addresses/",
                Map.of(
                        "address",
                        "198.18." + third + ".1/24",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        eth));
        int mgmtIp = create(
                "/api/ipam/ip-addresses/",
                Map.of(
                        "address",
                        "198.18." + third + ".2/24",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        mgmt));
        auth().body(Map.of("primary_ip4", ip))
                .patch("/api/dcim/devices/" + master + "/")
                .then()
                .statusCode(200)
                .body("primary_ip4.id", equalTo(ip));
        // not a management-only interface of another member, nor any interface outside the chassis
        auth().body(Map.of("primary_ip4", mgmtIp))
                .patch("/api/dcim/devices/" + master + "/")
                .then()
                .statusCode(400)
                .body(
                        "primary_ip4",
                        contains("The specified IP address (198.18." + third
                                + ".2/24) is not assigned to this device."));
        auth().body(Map.of("primary_ip4", mgmtIp))
                .patch("/api/dcim/devices/" + loner + "/")
                .then()
                .statusCode(400);
        auth().get("/api/dcim/devices/" + master + "/").then().body("primary_ip4.id", equalTo(ip));
    }
}
