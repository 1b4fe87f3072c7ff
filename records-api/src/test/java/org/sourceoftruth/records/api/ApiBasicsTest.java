package org.sourceoftruth.records.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.Management;

/** The API's envelope: root documents, headers, redirects, authentication and JSON errors. */
@QuarkusTest
class ApiBasicsTest {
    private static final String UUID_RE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @Test
    void rootListsApplicationsWithHeaders() {
        Api.auth()
                .get("/api/")
                .then()
                .statusCode(200)
                .header("API-Version", "4.6")
                .header("X-Request-ID", matchesPattern(UUID_RE))
                .contentType(containsString("application/json"))
                .body("dcim", endsWith("/api/dcim/"))
                .body("$", hasKey("circuits"))
                .body("$", hasKey("ipam"))
                .body("$", hasKey("users"))
                .body("$", hasKey("virtualization"))
                .body("$", hasKey("plugins"))
                .body("$", hasKey("core"));
    }

    @Test
    void appRootListsModelPathsSorted() {
        String body = Api.auth()
                .get("/api/dcim/")
                .then()
                .statusCode(200)
                .body("sites", endsWith("/api/dcim/sites/"))
                .extract()
                .asString();
        org.junit.jupiter.api.Assertions.assertTrue(body.indexOf("\"device-roles\"") < body.indexOf("\"sites\""));
    }

    @Test
    void statusHasNetBoxShape() {
        Api.auth()
                .get("/api/status/")
                .then()
                .statusCode(200)
                .body("netbox-version", startsWith("4.6"))
                .body("$", hasKey("django-version"))
                .body("$", hasKey("installed_apps"))
                .body("$", hasKey("plugins"))
                .body("$", hasKey("python-version"))
                .body("$", hasKey("rq-workers-running"));
    }

    /**
     * A JSON body goes out whole with its length (web.JsonResponseBody): a stray flush while it is
     * written would send it chunked, which some HTTP clients read less efficiently.
     */
    @Test
    void jsonBodiesCarryTheirLength() {
        var r = Api.auth().get("/api/dcim/").then().statusCode(200).extract();
        org.junit.jupiter.api.Assertions.assertNull(r.header("Transfer-Encoding"));
        org.junit.jupiter.api.Assertions.assertEquals(
                r.asByteArray().length, Integer.parseInt(r.header("Content-Length")));
        var indented = Api.auth()
                .accept("application/json; indent=4")
                .get("/api/dcim/")
                .then()
                .statusCode(200)
                .extract();
        org.junit.jupiter.api.Assertions.assertTrue(indented.asString().contains("\n    \""), indented.asString());
        org.junit.jupiter.api.Assertions.assertEquals(
                indented.asByteArray().length, Integer.parseInt(indented.header("Content-Length")));
    }

    @Test
    void missingTrailingSlashRedirectsKeepingQuery() {
        given().redirects()
                .follow(false)
                .get("/api/dcim/sites?limit=5")
                .then()
                .statusCode(302)
                .header("Location", "/api/dcim/sites/?limit=5")
                .header("X-Request-ID", matchesPattern(UUID_RE));
    }

    @Test
    void writeWithoutTokenIs403WithNetBoxBody() {
        given().contentType("application/json")
                .body(Map.of("name", "x", "slug", "x"))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Authentication credentials were not provided."));
    }

    @Test
    void readWithoutTokenIs403AndBadTokenIs403() {
        given().get("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Authentication credentials were not provided."));
        given().header("Authorization", "Token 0000000000000000000000000000000000000000")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Invalid v1 token"));
    }

    @Test
    void errorsAreJson() {
        Api.auth().get("/api/dcim/nothing-here/").then().statusCode(404).body("detail", equalTo("Not found."));
        Api.auth()
                .get("/api/dcim/sites/999999999/")
                .then()
                .statusCode(404)
                .body("detail", equalTo("No Site matches the given query."));
        Api.auth().get("/api/dcim/sites/abc/").then().statusCode(404).body("detail", notNullValue());
        Api.auth()
                .body("{not json")
                .post("/api/dcim/sites/")
                .then()
                .statusCode(400)
                .body("detail", startsWith("JSON parse error"));
        Api.auth()
                .contentType("text/plain")
                .body("name=x")
                .post("/api/dcim/sites/")
                .then()
                .statusCode(415)
                .body("detail", containsString("Unsupported media type"));
        Api.auth().post("/api/status/").then().statusCode(405).body("detail", containsString("not allowed"));
        Api.auth().body("{}").post("/api/nothing/here/").then().statusCode(404).body("detail", notNullValue());
    }

    @Test
    void indentPrettyPrints() {
        String body = Api.auth()
                .accept("application/json; indent=4")
                .get("/api/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        org.junit.jupiter.api.Assertions.assertTrue(body.contains("\n    \""), body);
    }

    @Test
    void openApiAndHealthAreServed() {
        Management.given().get("/q/health/live").then().statusCode(200);
        Management.given().get("/q/health/ready").then().statusCode(200);
        given().get("/api/schema/?format=json").then().statusCode(200).body("openapi", startsWith("3"));
        given().get("/api/schema/swagger-ui/").then().statusCode(200);
    }
}
