package org.sourceoftruth.records.core;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/** Object types, dashboards, table configs, and data sources synchronised into data files by jobs. */
@QuarkusTest
class CoreObjectsTest {

    @Test
    void everyDeclaredModelIsAnObjectType() {
        Api.auth()
                .queryParam("app_label", "dcim")
                .queryParam("model", "site")
                .get("/api/core/object-types/")
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results[0].rest_api_endpoint", equalTo("/api/dcim/sites/"))
                .body("results[0].features", hasItem("tags"))
                .body("results[0].public", equalTo(true))
                .body("results[0].display", equalTo("DCIM | site"));
        Api.auth()
                .get("/api/extras/object-types/?features=notifications&limit=0")
                .then()
                .statusCode(200)
                .body("results.model", hasItem("device"));
        Api.auth()
                .body(Map.of("model", "x"))
                .post("/api/core/object-types/")
                .then()
                .statusCode(405);
    }

    @Test
    void eachUserHasTheirOwnDashboard() {
        Accounts.Account a = Accounts.account("dash");
        Accounts.Account b = Accounts.account("dash");
        a.api().get("/api/extras/dashboard/").then().statusCode(200).body("layout.size()", equalTo(0));
        a.api()
                .body(Map.of(
                        "layout",
                        List.of(Map.of("id", "w1", "x", 0, "y", 0, "w", 4, "h", 3)),
                        "config",
                        Map.of("w1", Map.of("class", "extras.NoteWidget", "config", Map.of("content", "hi")))))
                .patch("/api/extras/dashboard/")
                .then()
                .statusCode(200)
                .body("layout[0].id", equalTo("w1"));
        a.api().get("/api/extras/dashboard/").then().body("config.w1.config.content", equalTo("hi"));
        b.api().get("/api/extras/dashboard/").then().body("layout.size()", equalTo(0));
        a.api()
                .body(Map.of("layout", "nope"))
                .patch("/api/extras/dashboard/")
                .then()
                .statusCode(400)
                .body("layout[0]", startsWith("Expected a list"));
        a.api().delete("/api/extras/dashboard/").then().statusCode(204);
        a.api().get("/api/extras/dashboard/").then().body("layout.size()", equalTo(0));
        io.restassured.RestAssured.given().get("/api/extras/dashboard/").then().statusCode(403);
    }

    @Test
    void tableConfigsNameKnownObjectTypes() {
        Api.post(
                        "/api/extras/table-configs/",
                        Map.of(
                                "object_type",
                                "dcim.site",
                                "table",
                                "SiteTable",
                                "name",
                                "t-" + uniq(),
                                "columns",
                                List.of("name", "status")))
                .statusCode(201)
                .body("weight", equalTo(1000));
        Api.post(
                        "/api/extras/table-configs/",
                        Map.of(
                                "object_type",
                                "dcim.nothing",
                                "table",
                                "T",
                                "name",
                                "t-" + uniq(),
                                "columns",
                                List.of("name")))
                .statusCode(400)
                .body("object_type[0]", equalTo("Invalid content type: dcim.nothing"));
    }

    @Test
    void aLocalSourceSyncMakesDataFilesAndAJob() throws Exception {
        Path dir = Files.createTempDirectory("ds");
        Files.writeString(dir.resolve("a.json"), "{\"a\": 1}");
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/b.yaml"), "b: 2");
        Files.writeString(dir.resolve("skip.tmp"), "ignored");
        Files.writeString(dir.resolve(".hidden"), "hidden");
        int source = Api.create(
                "/api/core/data-sources/",
                Map.of(
                        "name",
                        "ds-" + uniq(),
                        "type",
                        "local",
                        "source_url",
                        dir.toUri().toString(),
                        "ignore_rules",
                        "*.tmp"));
        Api.post(
                        "/api/core/data-sources/",
                        Map.of("name", "ds-" + uniq(), "type", "local", "source_url", "http://example.com/x"))
                .statusCode(400)
                .body(
                        "source_url[0]",
                        equalTo("URLs for local sources must start with file:// (or specify no scheme)"));

        Api.auth()
                .post("/api/core/data-sources/" + source + "/sync/")
                .then()
                .statusCode(200)
                .body("status.value", equalTo("completed"))
                .body("file_count", equalTo(2));
        String sha = HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest("{\"a\": 1}".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        Api.auth()
                .queryParam("source_id", source)
                .queryParam("path", "a.json")
                .get("/api/core/data-files/")
                .then()
                .body("count", equalTo(1))
                .body("results[0].hash", equalTo(sha))
                .body("results[0].size", equalTo(8));
        Api.auth()
                .queryParam("source_id", source)
                .get("/api/core/data-files/")
                .then()
                .body("results.path", equalTo(List.of("a.json", "sub/b.yaml")));
        Api.auth()
                .queryParam("object_id", source)
                .get("/api/core/jobs/")
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results[0].status.value", equalTo("completed"))
                .body("results[0].name", equalTo("Synchronization"))
                .body("results[0].object.id", equalTo(source));

        // a file that vanished goes; a changed one gets its new hash
        Files.delete(dir.resolve("sub/b.yaml"));
        Files.writeString(dir.resolve("a.json"), "{\"a\": 2}");
        Api.auth()
                .post("/api/core/data-sources/" + source + "/sync/")
                .then()
                .statusCode(200)
                .body("file_count", equalTo(1));
        Api.auth()
                .queryParam("source_id", source)
                .get("/api/core/data-files/")
                .then()
                .body("results[0].hash", org.hamcrest.Matchers.not(equalTo(sha)));

        // a missing directory fails the job, not the request
        int missing = Api.create(
                "/api/core/data-sources/",
                Map.of(
                        "name",
                        "ds-" + uniq(),
                        "type",
                        "local",
                        "source_url",
                        dir.resolve("nowhere").toUri().toString()));
        Api.auth()
                .post("/api/core/data-sources/" + missing + "/sync/")
                .then()
                .statusCode(200)
                .body("status.value", equalTo("failed"));
        Api.auth()
                .queryParam("object_id", missing)
                .get("/api/core/jobs/")
                .then()
                .body("results[0].status.value", equalTo("errored"))
                .body("results[0].error", startsWith("Source directory not found"));
        // a user without the sync permission may not
        Accounts.Account viewer = Accounts.account("dsv");
        Accounts.permission(List.of("core.datasource"), List.of("view"), null, List.of(viewer.id()));
        viewer.api().post("/api/core/data-sources/" + source + "/sync/").then().statusCode(403);
        Api.auth().get("/api/core/jobs/").then().body("count", greaterThan(2));
    }
}
