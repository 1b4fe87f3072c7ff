package org.sourceoftruth.records.ipam;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Services on devices and virtual machines, and service templates, as NetBox 4.4 serves them. */
@QuarkusTest
class ServicesTest {

    @Test
    void serviceOnADeviceIsShownFilteredAndBoundToAddresses() {
        String u = uniq();
        int site = Api.site("svc-" + u);
        int device = Api.device(site, Api.deviceTypeAndRole(), "svc-dev-" + u);
        int address = create("/api/ipam/ip-addresses/", Map.of("address", "192.0.2.77/24", "description", u));
        int web = create(
                "/api/ipam/services/",
                Map.of(
                        "parent_object_type",
                        "dcim.device",
                        "parent_object_id",
                        device,
                        "name",
                        "web",
                        "protocol",
                        "tcp",
                        "ports",
                        List.of(443, 80, 82, 81),
                        "ipaddresses",
                        List.of(address)));
        create(
                "/api/ipam/services/",
                Map.of(
                        "parent_object_type",
                        "dcim.device",
                        "parent_object_id",
                        device,
                        "name",
                        "dns",
                        "protocol",
                        "udp",
                        "ports",
                        List.of(53)));

        auth().get("/api/ipam/services/" + web + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("web (TCP/80-82, 443)"))
                .body("parent_object_type", equalTo("dcim.device"))
                .body("parent_object_id", equalTo(device))
                .body("parent.id", equalTo(device))
                .body("parent.name", equalTo("svc-dev-" + u))
                .body("protocol.value", equalTo("tcp"))
                .body("protocol.label", equalTo("TCP"))
                .body("ports", contains(443, 80, 82, 81))
                .body("ipaddresses.id", contains(address));
        auth().get("/api/ipam/services/?brief=1&id=" + web)
                .then()
                .body(
                        "results[0].keySet()",
                        containsInAnyOrder("id", "url", "display", "name", "protocol", "ports", "description"));
        String byDevice = "/api/ipam/services/?device_id=" + device;
        auth().get(byDevice).then().body("results.name", containsInAnyOrder("web", "dns"));
        auth().get(byDevice + "&port=81").then().body("results.name", contains("web"));
        auth().get(byDevice + "&port__n=81").then().body("results.name", contains("dns"));
        auth().get(byDevice + "&protocol=udp").then().body("results.name", contains("dns"));
        auth().get("/api/ipam/services/?device=svc-dev-" + u).then().body("count", equalTo(2));
        auth().get("/api/ipam/services/?ip_address_id=" + address).then().body("results.name", contains("web"));
        auth().get("/api/ipam/services/?ip_address=192.0.2.77/24&device_id=" + device)
                .then()
                .body("results.name", contains("web"));
        auth().get("/api/ipam/ip-addresses/?service_id=" + web).then().body("results.id", contains(address));
        auth().get("/api/ipam/ip-addresses/?service_id=999999999")
                .then()
                .statusCode(400)
                .body("$", hasKey("service_id"));
    }

    @Test
    void deletingTheParentDeletesItsServicesWithChangeRecords() {
        String u = uniq();
        int site = Api.site("svd-" + u);
        int device = Api.device(site, Api.deviceTypeAndRole(), "svd-dev-" + u);
        int ssh = create(
                "/api/ipam/services/",
                Map.of(
                        "parent_object_type",
                        "dcim.device",
                        "parent_object_id",
                        device,
                        "name",
                        "ssh",
                        "protocol",
                        "tcp",
                        "ports",
                        List.of(22)));
        String request = auth().delete("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(204)
                .extract()
                .header("X-Request-ID");

        auth().get("/api/ipam/services/" + ssh + "/").then().statusCode(404);
        auth().get("/api/core/object-changes/?request_id=" + request + "&changed_object_type=ipam.service")
                .then()
                .body("results.changed_object_id", contains(ssh))
                .body("results.action.value", contains("delete"))
                .body("results[0].prechange_data.name", equalTo("ssh"));
    }

    @Test
    void badServicesAreFieldErrorsAndChangeNothing() {
        String u = uniq();
        int site = Api.site("svb-" + u);
        int device = Api.device(site, Api.deviceTypeAndRole(), "svb-dev-" + u);
        Map<String, Object> ok = Map.of(
                "parent_object_type",
                "dcim.device",
                "parent_object_id",
                device,
                "name",
                "x",
                "protocol",
                "tcp",
                "ports",
                List.of(22));
        post("/api/ipam/services/", with(ok, "ports", List.of(0)))
                .statusCode(400)
                .body("$", hasKey("ports"));
        post("/api/ipam/services/", with(ok, "ports", List.of(65536)))
                .statusCode(400)
                .body("$", hasKey("ports"));
        post("/api/ipam/services/", with(ok, "ports", List.of()))
                .statusCode(400)
                .body("$", hasKey("ports"));
        post("/api/ipam/services/", with(ok, "ports", "22")).statusCode(400).body("$", hasKey("ports"));
        post("/api/ipam/services/", with(ok, "protocol", "icmp"))
                .statusCode(400)
                .body("protocol", hasItem("\"icmp\" is not a valid choice."));
        post("/api/ipam/services/", with(ok, "parent_object_type", "dcim.site"))
                .statusCode(400)
                .body("$", hasKey("parent_object_type"));
        post("/api/ipam/services/", with(ok, "parent_object_id", 999_999_999)).statusCode(400);
        Map<String, Object> noParent = new java.util.HashMap<>(ok);
        noParent.remove("parent_object_type");
        noParent.remove("parent_object_id");
        post("/api/ipam/services/", noParent)
                .statusCode(400)
                .body("parent_object_type", hasItem("This field is required."))
                .body("parent_object_id", hasItem("This field is required."));
        auth().get("/api/ipam/services/?device_id=" + device).then().body("count", equalTo(0));
        int kept = create("/api/ipam/services/", ok);
        java.util.Map<String, Object> nulls = new java.util.HashMap<>();
        nulls.put("parent_object_type", "dcim.device");
        nulls.put("parent_object_id", null);
        auth().body(nulls)
                .contentType("application/json")
                .patch("/api/ipam/services/" + kept + "/")
                .then()
                .statusCode(400)
                .body("$", hasKey("parent_object_id"));
        nulls.put("parent_object_type", null);
        nulls.put("parent_object_id", null);
        auth().body(nulls)
                .contentType("application/json")
                .patch("/api/ipam/services/" + kept + "/")
                .then()
                .statusCode(400)
                .body("$", hasKey("parent_object_type"));
        auth().get("/api/ipam/services/" + kept + "/").then().body("parent.id", equalTo(device));

        create("/api/ipam/service-templates/", Map.of("name", "tpl-" + u, "protocol", "tcp", "ports", List.of(8080)));
        post("/api/ipam/service-templates/", Map.of("name", "tpl-" + u, "protocol", "tcp", "ports", List.of(8081)))
                .statusCode(400)
                .body("name", hasItem("service template with this name already exists."));
        auth().get("/api/ipam/service-templates/?name=tpl-" + u + "&port=8080")
                .then()
                .body("results.display", contains("tpl-" + u + " (TCP/8080)"));
    }

    private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> out = new java.util.HashMap<>(base);
        out.put(key, value);
        return out;
    }
}
