package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Objects bound to data files (NetBox's SyncedDataMixin) over a local data source: binding
 * copies the file, the sync action and a source's sync (with auto_sync_enabled) copy it again,
 * and a vanished file unbinds.
 */
@QuarkusTest
class SyncedDataTest {

    private static int source(Path dir) {
        int id = Api.create(
                "/api/core/data-sources/",
                Map.of(
                        "name",
                        "sd-" + uniq(),
                        "type",
                        "local",
                        "source_url",
                        dir.toUri().toString()));
        sync(id);
        return id;
    }

    private static void sync(int source) {
        Api.auth()
                .post("/api/core/data-sources/" + source + "/sync/")
                .then()
                .statusCode(200)
                .body("status.value", equalTo("completed"));
    }

    private static int file(int source, String path) {
        return Api.auth()
                .get("/api/core/data-files/?source_id=" + source + "&path=" + path)
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .extract()
                .path("results[0].id");
    }

    @Test
    void bindingCopiesTheFileAndSyncsCopyItAgain() throws Exception {
        Path dir = Files.createTempDirectory("synced-data");
        Files.writeString(dir.resolve("hello.j2"), "Hello {{ name }}!");
        Files.writeString(dir.resolve("context.json"), "{\"ntp\": [\"10.0.0.1\"]}");
        Files.writeString(dir.resolve("broken.json"), "{not json");
        Files.writeString(dir.resolve("context.yaml"), "ntp:\n  - 10.0.0.9\nsyslog: 10.0.0.10\n");
        int source = source(dir);
        int hello = file(source, "hello.j2");
        int context = file(source, "context.json");

        // a config template bound to a file: its code is the file's, from where and when is shown
        int template = Api.auth()
                .body(Map.of(
                        "name",
                        "t-" + uniq(),
                        "template_code",
                        "ignored",
                        "data_file",
                        hello,
                        "auto_sync_enabled",
                        true))
                .post("/api/extras/config-templates/")
                .then()
                .statusCode(201)
                .body("template_code", equalTo("Hello {{ name }}!"))
                .body("data_source.id", equalTo(source))
                .body("data_file.id", equalTo(hello))
                .body("data_file.path", equalTo("hello.j2"))
                .body("data_path", equalTo("hello.j2"))
                .body("data_synced", notNullValue())
                .body("auto_sync_enabled", equalTo(true))
                .extract()
                .path("id");
        Api.auth()
                .body(Map.of("name", "x"))
                .post("/api/extras/config-templates/" + template + "/render/")
                .then()
                .statusCode(200)
                .body("content", equalTo("Hello x!"));
        Api.auth()
                .get("/api/extras/config-templates/?id=" + template + "&data_file_id=" + hello)
                .then()
                .body("count", equalTo(1));
        Api.auth()
                .get("/api/extras/config-templates/?id=" + template + "&data_source_id=" + source
                        + "&auto_sync_enabled=true")
                .then()
                .body("count", equalTo(1));
        Api.auth()
                .get("/api/extras/config-templates/?id=" + template + "&data_file_id__n=" + hello)
                .then()
                .body("count", equalTo(0));
        // while bound, the file decides the content
        Api.auth()
                .body(Map.of("template_code", "mine"))
                .patch("/api/extras/config-templates/" + template + "/")
                .then()
                .statusCode(200)
                .body("template_code", equalTo("Hello {{ name }}!"));

        // a config context takes the file's data; a file that is no JSON is refused (inactive: an
        // active context without assignments would apply to every device and VM of other tests)
        int ctx = Api.auth()
                .body(Map.of(
                        "name",
                        "c-" + uniq(),
                        "data",
                        Map.of("x", 1),
                        "is_active",
                        false,
                        "data_source",
                        source,
                        "data_file",
                        context))
                .post("/api/extras/config-contexts/")
                .then()
                .statusCode(201)
                .body("data.ntp[0]", equalTo("10.0.0.1"))
                .body("data_file.id", equalTo(context))
                .extract()
                .path("id");
        Api.post(
                        "/api/extras/config-contexts/",
                        Map.of(
                                "name",
                                "c-" + uniq(),
                                "data",
                                Map.of("x", 1),
                                "is_active",
                                false,
                                "data_file",
                                file(source, "broken.json")))
                .statusCode(400)
                .body("data_file[0]", containsString("broken.json"));
        // YAML is read too, as NetBox's DataFile.get_data()
        Api.post(
                        "/api/extras/config-contexts/",
                        Map.of(
                                "name",
                                "c-" + uniq(),
                                "data",
                                Map.of("x", 1),
                                "is_active",
                                false,
                                "data_file",
                                file(source, "context.yaml")))
                .statusCode(201)
                .body("data.ntp[0]", equalTo("10.0.0.9"))
                .body("data.syslog", equalTo("10.0.0.10"));
        // a source without a file, or a file of another source, is refused
        Api.post(
                        "/api/extras/export-templates/",
                        Map.of(
                                "name",
                                "e-" + uniq(),
                                "object_types",
                                List.of("dcim.site"),
                                "template_code",
                                "x",
                                "data_source",
                                source))
                .statusCode(400)
                .body("data_file[0]", equalTo("Must specify a data file when designating a data source."));
        Path otherDir = Files.createTempDirectory("synced-other");
        Files.writeString(otherDir.resolve("other.j2"), "other");
        int other = source(otherDir);
        Api.post(
                        "/api/extras/export-templates/",
                        Map.of(
                                "name",
                                "e-" + uniq(),
                                "object_types",
                                List.of("dcim.site"),
                                "template_code",
                                "x",
                                "data_source",
                                source,
                                "data_file",
                                file(other, "other.j2")))
                .statusCode(400)
                .body("data_file[0]", equalTo("The data file must belong to the selected data source."));

        // the files change: a source sync copies them into auto-synced objects only
        Files.writeString(dir.resolve("hello.j2"), "Bye {{ name }}.");
        Files.writeString(dir.resolve("context.json"), "{\"ntp\": [\"10.0.0.2\"]}");
        sync(source);
        Api.auth()
                .get("/api/extras/config-templates/" + template + "/")
                .then()
                .body("template_code", equalTo("Bye {{ name }}."));
        Api.auth().get("/api/extras/config-contexts/" + ctx + "/").then().body("data.ntp[0]", equalTo("10.0.0.1"));
        // the object's sync action copies it, with a change record
        Api.auth()
                .post("/api/extras/config-contexts/" + ctx + "/sync/")
                .then()
                .statusCode(200)
                .body("data.ntp[0]", equalTo("10.0.0.2"));
        Api.auth()
                .get("/api/core/object-changes/?changed_object_type=extras.configcontext&changed_object_id=" + ctx
                        + "&action=update")
                .then()
                .body("count", equalTo(1));

        // a source in use cannot be deleted
        Api.auth().delete("/api/core/data-sources/" + source + "/").then().statusCode(409);

        // a file that vanishes leaves its objects unbound, their content as last copied
        Files.delete(dir.resolve("hello.j2"));
        sync(source);
        Api.auth()
                .get("/api/extras/config-templates/" + template + "/")
                .then()
                .body("data_file", nullValue())
                .body("template_code", equalTo("Bye {{ name }}."));
        // unbinding both lets the object keep its own code again
        Map<String, Object> unbind = new java.util.HashMap<>();
        unbind.put("data_source", null);
        unbind.put("data_file", null);
        unbind.put("template_code", "own");
        Api.auth()
                .body(unbind)
                .patch("/api/extras/config-templates/" + template + "/")
                .then()
                .statusCode(200)
                .body("template_code", equalTo("own"))
                .body("data_source", nullValue())
                .body("data_path", equalTo(""));
    }
}
