package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/** Config templates rendered for devices and VMs (render-config) and with a given context (render). */
@QuarkusTest
class ConfigTemplateTest {
    private static final String CODE =
            "hostname {{ device.name }}\n{% for s in ntp_servers %}ntp server {{ s }}\n{% endfor %}"
                    + "site {{ device.site.slug }} {{ extra | default('-') }}";

    @Test
    void aDeviceRendersItsTemplateWithItsConfigContext() {
        String u = uniq();
        int site = create("/api/dcim/sites/", Map.of("name", "ct-" + u, "slug", "ct-" + u));
        int[] typeAndRole = Api.deviceTypeAndRole();
        int device = Api.device(site, typeAndRole, "sw-" + u);
        create(
                "/api/extras/config-contexts/",
                Map.of(
                        "name",
                        "ntp-" + u,
                        "sites",
                        List.of(site),
                        "data",
                        Map.of("ntp_servers", List.of("10.0.0.1", "10.0.0.2"))));
        // no template yet, anywhere: NetBox's 400
        auth().post("/api/dcim/devices/" + device + "/render-config/")
                .then()
                .statusCode(400)
                .body("error", equalTo("No config template found for this device."));

        int template = create("/api/extras/config-templates/", Map.of("name", "switch " + u, "template_code", CODE));
        auth().get("/api/extras/config-templates/" + template + "/")
                .then()
                .statusCode(200)
                .body("environment_params", equalTo(Map.of()))
                .body("data_source", org.hamcrest.Matchers.nullValue())
                .body("auto_sync_enabled", equalTo(false))
                .body("as_attachment", equalTo(true));
        // the role's template applies when the device has none
        auth().body(Map.of("config_template", template))
                .patch("/api/dcim/device-roles/" + typeAndRole[1] + "/")
                .then()
                .statusCode(200)
                .body("config_template.id", equalTo(template))
                .body("config_template.name", equalTo("switch " + u));
        String expected = "hostname sw-" + u + "\nntp server 10.0.0.1\nntp server 10.0.0.2\nsite ct-" + u + " ";
        auth().post("/api/dcim/devices/" + device + "/render-config/")
                .then()
                .statusCode(200)
                .body("configtemplate.id", equalTo(template))
                .body("configtemplate.name", equalTo("switch " + u))
                .body("content", equalTo(expected + "-"));
        // the request body is context too; text/plain when asked for
        Response text = auth().accept("text/plain")
                .body(Map.of("extra", "X"))
                .post("/api/dcim/devices/" + device + "/render-config/");
        text.then().statusCode(200).header("Content-Type", startsWith("text/plain"));
        assertEquals(expected + "X", text.asString());
        assertEquals(
                expected + "-",
                auth().post("/api/dcim/devices/" + device + "/render-config/?format=txt")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());

        // the device's own template wins over its role's; a template in use cannot be deleted
        int own = create(
                "/api/extras/config-templates/", Map.of("name", "own " + u, "template_code", "own {{ device.id }}"));
        auth().body(Map.of("config_template", own))
                .patch("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(200);
        auth().post("/api/dcim/devices/" + device + "/render-config/")
                .then()
                .statusCode(200)
                .body("content", equalTo("own " + device));
        auth().delete("/api/extras/config-templates/" + own + "/").then().statusCode(409);
        auth().get("/api/dcim/devices/?config_template_id=" + own).then().body("results.id", equalTo(List.of(device)));
    }

    @Test
    void aVirtualMachineRendersThroughItsPlatform() {
        String u = uniq();
        int template = create(
                "/api/extras/config-templates/",
                Map.of(
                        "name",
                        "vm " + u,
                        "template_code",
                        "vm {{ virtualmachine.name }} {{ role | default('none') }}"));
        int platform = create(
                "/api/dcim/platforms/", Map.of("name", "os-" + u, "slug", "os-" + u, "config_template", template));
        int type = create("/api/virtualization/cluster-types/", Map.of("name", "ct-" + u, "slug", "ct-" + u));
        int cluster = create("/api/virtualization/clusters/", Map.of("name", "cl-" + u, "type", type));
        int vm = create(
                "/api/virtualization/virtual-machines/",
                Map.of("name", "vm-" + u, "cluster", cluster, "platform", platform));
        auth().post("/api/virtualization/virtual-machines/" + vm + "/render-config/")
                .then()
                .statusCode(200)
                .body("content", equalTo("vm vm-" + u + " none"));
        auth().get("/api/dcim/platforms/" + platform + "/").then().body("config_template.id", equalTo(template));
    }

    /** environment_params: Jinja's whitespace settings apply; a parameter the engine cannot honour is a 400. */
    @Test
    void environmentParamsApplyOrAreRefused() {
        String u = uniq();
        String code = "{% for i in interfaces %}\n  {% if i %}\ninterface {{ i }}\n  {% endif %}\n{% endfor %}\n";
        int trimmed = create(
                "/api/extras/config-templates/",
                Map.of(
                        "name",
                        "ws " + u,
                        "template_code",
                        code,
                        "environment_params",
                        Map.of("trim_blocks", true, "lstrip_blocks", true, "keep_trailing_newline", true)));
        auth().body(Map.of("interfaces", List.of("eth0", "eth1")))
                .post("/api/extras/config-templates/" + trimmed + "/render/")
                .then()
                .statusCode(200)
                .body("content", equalTo("interface eth0\ninterface eth1\n"));
        int plain = create("/api/extras/config-templates/", Map.of("name", "ws-default " + u, "template_code", code));
        auth().body(Map.of("interfaces", List.of("eth0")))
                .post("/api/extras/config-templates/" + plain + "/render/")
                .then()
                .statusCode(200)
                .body("content", equalTo("\n  \ninterface eth0\n  \n"));
        int unsupported = create(
                "/api/extras/config-templates/",
                Map.of(
                        "name",
                        "ws-bad " + u,
                        "template_code",
                        code,
                        "environment_params",
                        Map.of("extensions", List.of("jinja2.ext.do"))));
        auth().body(Map.of())
                .post("/api/extras/config-templates/" + unsupported + "/render/")
                .then()
                .statusCode(400)
                .body(
                        "detail",
                        equalTo("An error occurred while rendering the template: environment parameter"
                                + " \"extensions\" is not supported here (supported: trim_blocks, lstrip_blocks,"
                                + " keep_trailing_newline, autoescape)."));
    }

    @Test
    void aTemplateRendersWithTheRequestBodyAsContextAndFailuresAre400s() {
        String u = uniq();
        int template = create(
                "/api/extras/config-templates/",
                Map.of(
                        "name",
                        "plain " + u,
                        "template_code",
                        "{% for i in interfaces %}interface {{ i.name }}\n{% endfor %}"));
        auth().body(Map.of("interfaces", List.of(Map.of("name", "eth0"), Map.of("name", "eth1"))))
                .post("/api/extras/config-templates/" + template + "/render/")
                .then()
                .statusCode(200)
                .body("content", equalTo("interface eth0\ninterface eth1\n"))
                .body("configtemplate.display", equalTo("plain " + u));

        int broken = create(
                "/api/extras/config-templates/",
                Map.of("name", "broken " + u, "template_code", "{{ device.name + 1 }}"));
        auth().body(Map.of("device", Map.of("name", "x")))
                .post("/api/extras/config-templates/" + broken + "/render/")
                .then()
                .statusCode(400)
                .body("detail", startsWith("An error occurred while rendering the template: "));
        int unclosed = create(
                "/api/extras/config-templates/", Map.of("name", "unclosed " + u, "template_code", "{% for x in y %}"));
        auth().post("/api/extras/config-templates/" + unclosed + "/render/")
                .then()
                .statusCode(400)
                .body("detail", containsString("line 1"));
        // nothing else affected: the template still renders for good input
        auth().body(Map.of("interfaces", List.of()))
                .post("/api/extras/config-templates/" + template + "/render/")
                .then()
                .statusCode(200)
                .body("content", equalTo(""));

        // bad input: not an object, unknown template, not JSON
        auth().body(List.of(1, 2))
                .post("/api/extras/config-templates/" + template + "/render/")
                .then()
                .statusCode(400)
                .body("non_field_errors", hasItem("Invalid data. Expected a dictionary, but got list."));
        auth().body("{\"a\":")
                .post("/api/extras/config-templates/" + template + "/render/")
                .then()
                .statusCode(400);
        auth().post("/api/extras/config-templates/999999999/render/").then().statusCode(404);
        auth().post("/api/dcim/devices/999999999/render-config/").then().statusCode(404);
        auth().body("[]")
                .post("/api/dcim/devices/999999999/render-config/")
                .then()
                .statusCode(400);

        // a read-only token may not render (NetBox's TokenWritePermission)
        Accounts.Account reader = Accounts.account("ro", Map.of("write_enabled", false));
        Accounts.permission(List.of("extras.configtemplate"), List.of("view"), null, List.of(reader.id()));
        reader.api()
                .post("/api/extras/config-templates/" + template + "/render/")
                .then()
                .statusCode(403);
    }
}
