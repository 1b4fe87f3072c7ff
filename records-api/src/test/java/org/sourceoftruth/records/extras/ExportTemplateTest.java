package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ?export=<name> on lists: export templates rendered by the webhooks' sandboxed engine. */
@QuarkusTest
class ExportTemplateTest {

    private static int template(String name, String code, Map<String, Object> extra) {
        Map<String, Object> body = new java.util.HashMap<>(
                Map.of("name", name, "object_types", List.of("dcim.site"), "template_code", code));
        body.putAll(extra);
        return create("/api/extras/export-templates/", body);
    }

    @Test
    void aListIsRenderedWithTheTemplateOverItsFilteredObjects() {
        String u = uniq();
        create("/api/dcim/sites/", Map.of("name", "exb-" + u, "slug", "exb-" + u, "status", "planned"));
        create("/api/dcim/sites/", Map.of("name", "exa-" + u, "slug", "exa-" + u));
        create("/api/dcim/sites/", Map.of("name", "other-" + u, "slug", "other-" + u));
        int csv = template(
                "csv " + u,
                "name,status\n{% for s in queryset %}{{ s.name }},{{ s.status.value }}\n{% endfor %}",
                Map.of("mime_type", "text/csv", "file_name", "sites-" + u, "file_extension", "csv"));
        auth().get("/api/extras/export-templates/" + csv + "/")
                .then()
                .statusCode(200)
                .body("as_attachment", equalTo(true))
                .body("environment_params", equalTo(Map.of()))
                .body("data_source", nullValue())
                .body("data_file", nullValue())
                .body("data_path", equalTo(""));

        Response r = auth().get("/api/dcim/sites/?export=csv " + u + "&name__isw=ex&name__ic=" + u);
        r.then()
                .statusCode(200)
                .header("Content-Type", startsWith("text/csv"))
                .header("Content-Disposition", equalTo("attachment; filename=\"sites-" + u + ".csv\""));
        assertEquals("name,status\nexa-" + u + ",active\nexb-" + u + ",planned\n", r.asString());

        // no MIME type: text/plain; not an attachment: no Content-Disposition; default file name
        template("plain " + u, "{{ queryset | length }} sites", Map.of("as_attachment", false));
        r = auth().get("/api/dcim/sites/?export=plain " + u + "&name__ic=" + u);
        r.then()
                .statusCode(200)
                .header("Content-Type", startsWith("text/plain"))
                .header("Content-Disposition", nullValue());
        assertEquals("3 sites", r.asString());
        template("named " + u, "{{ queryset | length }}", Map.of());
        auth().get("/api/dcim/sites/?export=named " + u + "&name__ic=" + u)
                .then()
                .statusCode(200)
                .header("Content-Disposition", equalTo("attachment; filename=\"netbox_sites\""));

        // saved filters apply to exports too
        create(
                "/api/extras/saved-filters/",
                Map.of(
                        "name",
                        "exf " + u,
                        "slug",
                        "exf-" + u,
                        "object_types",
                        List.of("dcim.site"),
                        "parameters",
                        Map.of("status", "planned")));
        assertEquals(
                "1 sites",
                auth().get("/api/dcim/sites/?export=plain " + u + "&filter=exf-" + u + "&name__ic=" + u)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());

        // unknown name, or a template for another type: 404 as NetBox
        auth().get("/api/dcim/sites/?export=nope-" + u).then().statusCode(404);
        auth().get("/api/dcim/regions/?export=csv " + u).then().statusCode(404);
        // "table" is reserved
        post(
                        "/api/extras/export-templates/",
                        Map.of("name", "table", "object_types", List.of("dcim.site"), "template_code", "x"))
                .statusCode(400)
                .body("name", hasItem("\"table\" is a reserved name. Please choose a different name."));
        // sync without a data source returns the template as it is
        auth().post("/api/extras/export-templates/" + csv + "/sync/")
                .then()
                .statusCode(200)
                .body("id", equalTo(csv));
    }

    @Test
    void aFailingTemplateIsA400WithTheReasonAndChangesNothing() {
        String u = uniq();
        create("/api/dcim/sites/", Map.of("name", "fail-" + u, "slug", "fail-" + u));
        template("syntax " + u, "{% for s in queryset %}{{ s.name | nosuchfilter }}{% endfor %}", Map.of());
        template("runtime " + u, "{% for s in queryset %}{{ s.name / 2 }}{% endfor %}", Map.of());
        template("huge " + u, "{% set big = 'x' * 1000000 %}" + "{{ big }}".repeat(20), Map.of());
        int before = auth().get("/api/dcim/sites/?limit=1").then().extract().path("count");

        auth().get("/api/dcim/sites/?export=syntax " + u + "&name__ic=" + u)
                .then()
                .statusCode(400)
                .body("detail", startsWith("An error occurred while rendering the template: line 1"))
                .body("detail", containsString("nosuchfilter"));
        auth().get("/api/dcim/sites/?export=runtime " + u + "&name__ic=" + u)
                .then()
                .statusCode(400)
                .body("detail", startsWith("An error occurred while rendering the template: "));
        // 20 million characters: stopped by the render budget (16 MiB of output), not by the server
        auth().get("/api/dcim/sites/?export=huge " + u + "&name__ic=" + u)
                .then()
                .statusCode(400)
                .body("detail", startsWith("An error occurred while rendering the template: "))
                .body("detail", containsString("rendered output is longer than"));

        // nothing else affected: the list and the templates are as before
        auth().get("/api/dcim/sites/?limit=1").then().statusCode(200).body("count", equalTo(before));
        auth().get("/api/extras/export-templates/?name=syntax " + u).then().body("count", equalTo(1));
    }

    @Test
    void aTemplateReachesNothingOutsideItsContext() {
        String u = uniq();
        create("/api/dcim/sites/", Map.of("name", "sbx-" + u, "slug", "sbx-" + u));
        String home = System.getProperty("user.home");
        String[] probes = {
            "{{ queryset.getClass }}|{{ queryset[0].getClass().getName() }}",
            "{{ queryset.__class__ }}|{{ queryset[0].__class__.__mro__ }}",
            "{{ ''.getClass().forName('java.lang.System').getProperty('user.home') }}",
            "{{ config }}{{ request }}{{ settings }}{{ inject:datasource }}{{ cdi:registry }}",
            "{% import os %}{{ os.environ }}",
            "{{ queryset[0].name.getBytes }}{{ queryset[0].id.toString }}",
        };
        for (int i = 0; i < probes.length; i++) {
            template("probe" + i + " " + u, probes[i], Map.of("as_attachment", false));
            Response r = auth().get("/api/dcim/sites/?export=probe" + i + " " + u + "&name__ic=" + u);
            String body = r.asString();
            // refused (400) or rendered as Jinja renders undefined names (empty); never a Java object
            assertFalse(r.statusCode() >= 500, probes[i] + " → " + r.statusCode() + " " + body);
            assertFalse(
                    body.contains("java.") || body.contains("class ") || body.contains(home), probes[i] + " → " + body);
            assertFalse(body.contains("Exception"), probes[i] + " → " + body);
        }
    }
}
