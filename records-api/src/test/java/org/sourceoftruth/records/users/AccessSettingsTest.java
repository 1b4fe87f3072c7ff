package org.sourceoftruth.records.users;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.startsWith;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.auth.AuthSettings;

/** LOGIN_REQUIRED, EXEMPT_VIEW_PERMISSIONS and MAINTENANCE_MODE. */
@QuarkusTest
class AccessSettingsTest {
    private static final String NOT_AUTHENTICATED = "Authentication credentials were not provided.";

    @Inject
    AuthSettings settings;

    @AfterEach
    void restoreSettings() {
        settings.reset();
    }

    /**
     * The API root alone answers anonymous clients (application list and API-Version), so that
     * pynetbox before 7.3.4 can read the version at NetBox's default LOGIN_REQUIRED=true.
     */
    @Test
    void apiRootAnswersAnonymousClientsWithTheVersion() {
        given().get("/api/")
                .then()
                .statusCode(200)
                .header("API-Version", org.hamcrest.Matchers.matchesPattern("\\d+\\.\\d+"))
                .header("X-Request-ID", org.hamcrest.Matchers.notNullValue())
                .body("dcim", org.hamcrest.Matchers.endsWith("/api/dcim/"));
        given().get("/api/dcim/").then().statusCode(403).body("detail", equalTo(NOT_AUTHENTICATED));
        given().get("/api/dcim/sites/").then().statusCode(403).body("detail", equalTo(NOT_AUTHENTICATED));
    }

    @Test
    void anonymousReadsNeedAnExemptionAndLoginNotRequired() {
        int site = Api.site("anon");
        settings.exemptViews(List.of("dcim.site"));
        // LOGIN_REQUIRED (the default) wins over the exemption, as in NetBox
        given().get("/api/dcim/sites/").then().statusCode(403).body("detail", equalTo(NOT_AUTHENTICATED));
        given().get("/api/status/").then().statusCode(403);
        given().get("/api/dcim/").then().statusCode(403).body("detail", equalTo(NOT_AUTHENTICATED));

        settings.loginRequired(false);
        given().get("/api/dcim/sites/").then().statusCode(200).body("count", greaterThanOrEqualTo(1));
        given().get("/api/dcim/sites/" + site + "/").then().statusCode(200);
        given().get("/api/").then().statusCode(200);
        given().get("/api/status/").then().statusCode(200);
        given().get("/api/dcim/racks/").then().statusCode(403).body("detail", equalTo(NOT_AUTHENTICATED));
        given().contentType("application/json")
                .body(Map.of("name", "a", "slug", "a"))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo(NOT_AUTHENTICATED));
        given().get("/api/users/config/").then().statusCode(403);

        settings.exemptViews(List.of("*"));
        given().get("/api/dcim/racks/").then().statusCode(200);
        // sensitive models are left out of the wildcard, as NetBox's EXEMPT_EXCLUDE_MODELS
        given().get("/api/users/tokens/").then().statusCode(403);
        given().get("/api/users/users/").then().statusCode(403);
    }

    @Test
    void exemptModelsAreVisibleToUsersWithoutPermission() {
        Account nobody = Accounts.account("ex");
        nobody.api().get("/api/dcim/sites/").then().statusCode(403);
        settings.exemptViews(List.of("dcim.site"));
        nobody.api().get("/api/dcim/sites/").then().statusCode(200);
        nobody.api().get("/api/dcim/racks/").then().statusCode(403);
        String n = "ex-" + uniq();
        nobody.api()
                .body(Map.of("name", n, "slug", n))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403);
    }

    @Test
    void maintenanceModeRefusesWritesWith503ButServesReads() {
        int site = Api.site("mm");
        settings.maintenanceMode(true);
        String message =
                "The service is in maintenance mode and cannot perform write operations. Please try again later.";
        auth().get("/api/dcim/sites/" + site + "/").then().statusCode(200);
        auth().get("/api/dcim/sites/").then().statusCode(200);
        String n = "mm-" + uniq();
        Api.post("/api/dcim/sites/", Map.of("name", n, "slug", n))
                .statusCode(503)
                .body("detail", equalTo(message));
        auth().body(Map.of("description", "x"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(503)
                .body("detail", equalTo(message));
        auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(503);
        auth().body(Map.of("theme", "dark")).patch("/api/users/config/").then().statusCode(503);
        // authentication problems still come first
        given().contentType("application/json")
                .body(Map.of("name", n, "slug", n))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403);
        settings.maintenanceMode(false);
        auth().get("/api/dcim/sites/" + site + "/").then().statusCode(200).body("description", equalTo(""));
        auth().body(Map.of("description", "after"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
    }

    @Test
    void userConfigIsPerUserAndMerged() {
        Account a = Accounts.account("cfg");
        a.api().get("/api/users/config/").then().statusCode(200).body("isEmpty()", equalTo(true));
        a.api()
                .body(Map.of(
                        "ui",
                        Map.of("theme", "dark"),
                        "tables",
                        Map.of("SiteTable", Map.of("columns", List.of("name")))))
                .patch("/api/users/config/")
                .then()
                .statusCode(200)
                .body("ui.theme", equalTo("dark"));
        a.api()
                .body(Map.of("ui", Map.of("lang", "en")))
                .patch("/api/users/config/")
                .then()
                .statusCode(200)
                .body("ui.theme", equalTo("dark"))
                .body("ui.lang", equalTo("en"))
                .body("tables.SiteTable.columns[0]", equalTo("name"));
        auth().get("/api/users/config/").then().statusCode(200).body("ui", org.hamcrest.Matchers.nullValue());
        a.api()
                .get("/api/authentication-check/")
                .then()
                .statusCode(200)
                .body("id", equalTo(a.id()))
                .body("username", equalTo(a.username()))
                .body("url", startsWith("http"));
        given().get("/api/authentication-check/").then().statusCode(403).body("detail", equalTo(NOT_AUTHENTICATED));
    }
}
