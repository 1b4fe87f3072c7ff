package org.sourceoftruth.dispatcher.admin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.TestDatabase;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.records.testsupport.Management;

/** The admin API: authentication, NetBox's envelope and pagination, filters, errors as JSON. */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class BackgroundTaskApiTest {

    private static final String TASKS = "/api/core/background-tasks/";
    /** A webhook id no other test uses, so counts below are exact. */
    private static final long WEBHOOK = 900_001;

    private static final List<Long> ids = new ArrayList<>();
    private static String superuserToken;
    private static long superuserTokenUser;

    /** Rows written directly; the queued one is due only tomorrow, so the worker leaves it alone. */
    @BeforeAll
    static void createTasks() throws Exception {
        superuserTokenUser = Fixtures.user("api-admin", true, true);
        superuserToken = Fixtures.token(superuserTokenUser, true, null);
        String[] states = {"succeeded", "failed", "queued", "failed", "succeeded"};
        try (Connection connection = TestDatabase.connect();
                PreparedStatement insert = connection.prepareStatement("""
                     with task as (
                         insert into dispatch.delivery(state, change_id, event, model, object_id, request_id, username,
                             event_rule_id, event_rule_name, webhook_id, webhook_name, request_method, request_url,
                             target_host, attempts, last_status, last_error, completed_at, next_attempt_at)
                         values (?, ?, 'updated', 'dcim.site', ?, ?, 'alice', 77, 'api rule', ?, 'api hook', 'POST',
                                 'http://127.0.0.1:9/x', '127.0.0.1:9', 1, ?, ?, now(), now() + interval '1 day')
                         returning id)
                     insert into dispatch.rendered_request(delivery_id, headers, body)
                     select id, '[["Content-Type", "application/json"]]', '{}' from task
                     returning delivery_id""")) {
            for (int i = 0; i < states.length; i++) {
                insert.setString(1, states[i]);
                insert.setObject(2, UUID.randomUUID());
                insert.setLong(3, i);
                insert.setString(4, "req-" + (i % 2));
                insert.setLong(5, WEBHOOK);
                insert.setObject(6, states[i].equals("failed") ? 503 : 200);
                insert.setString(7, states[i].equals("failed") ? "receiver answered HTTP 503" : null);
                try (var row = insert.executeQuery()) {
                    row.next();
                    ids.add(row.getLong(1));
                }
            }
        }
    }

    private static io.restassured.specification.RequestSpecification asAdmin() {
        return given().header("Authorization", "Token " + superuserToken);
    }

    // ------------------------------------------------------------------ authentication

    @Test
    void withoutCredentialsEverythingIsForbidden() {
        given().get(TASKS)
                .then()
                .statusCode(403)
                .body("detail", equalTo("Authentication credentials were not provided."));
        given().header("Authorization", "Basic YWRtaW46YWRtaW4=")
                .get(TASKS)
                .then()
                .statusCode(403)
                .body("detail", equalTo("Authentication credentials were not provided."));
        given().post(TASKS + ids.get(1) + "/requeue/").then().statusCode(403);
    }

    @Test
    void badTokensAreForbiddenWithNetBoxMessages() throws Exception {
        long staff = Fixtures.user("api-staff", false, true);
        long inactive = Fixtures.user("api-inactive", true, false);
        expectForbidden(
                "Token " + Fixtures.token(staff, true, null), "You do not have permission to perform this action.");
        expectForbidden("Token " + Fixtures.token(superuserTokenUser, false, null), "Token disabled");
        expectForbidden(
                "Token "
                        + Fixtures.token(
                                superuserTokenUser, true, OffsetDateTime.now().minusDays(1)),
                "Token expired");
        expectForbidden("Token " + Fixtures.token(inactive, true, null), "User inactive");
        expectForbidden("Token 0000000000000000000000000000000000000000", "Invalid v1 token");
        expectForbidden(
                "Token a b",
                "Invalid authorization header: Must be in the form \"Bearer <key>.<token>\" or \"Token <token>\"");
        expectForbidden(
                "Token " + Fixtures.token(superuserTokenUser, true, null, "10.0.0.0/8"),
                "Source IP 127.0.0.1 is not permitted to authenticate using this token.");
        given().header(
                        "Authorization",
                        "Token "
                                + Fixtures.token(
                                        superuserTokenUser,
                                        true,
                                        OffsetDateTime.now().plusDays(1),
                                        "127.0.0.0/8",
                                        "::1"))
                .get(TASKS)
                .then()
                .statusCode(200);
        given().header("Authorization", "bearer " + superuserToken)
                .get(TASKS)
                .then()
                .statusCode(200);
    }

    private static void expectForbidden(String authorization, String detail) {
        given().header("Authorization", authorization)
                .get(TASKS)
                .then()
                .statusCode(403)
                .body("detail", equalTo(detail));
    }

    @Test
    void usingATokenRecordsItsLastUse() throws Exception {
        String key = Fixtures.token(superuserTokenUser, true, null);
        given().header("Authorization", "Token " + key).get(TASKS).then().statusCode(200);
        List<Map<String, Object>> row =
                Fixtures.rows("select last_used from users_token where hmac_digest = ?", Fixtures.tokenDigest(key));
        assertNotNull(row.get(0).get("last_used"));
    }

    // ------------------------------------------------------------------ list, filters, pagination

    @Test
    void listsTasksNewestFirstInNetBoxsEnvelope() {
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .get(TASKS)
                .then()
                .statusCode(200)
                .header("API-Version", "4.6")
                .body("count", equalTo(5))
                .body("next", nullValue())
                .body("previous", nullValue())
                .body(
                        "results.id",
                        contains(
                                ids.get(4).intValue(),
                                ids.get(3).intValue(),
                                ids.get(2).intValue(),
                                ids.get(1).intValue(),
                                ids.get(0).intValue()))
                .body("results[0].url", endsWith(TASKS + ids.get(4) + "/"))
                .body("results[0].func_name", equalTo("extras.webhooks.send_webhook"))
                .body("results[0].request.headers.Content-Type", equalTo("application/json"))
                .body("results[0]", hasKey("exc_info"));
    }

    @Test
    void paginatesWithLimitAndOffsetLikeNetBox() {
        Response first = asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("limit", 2)
                .get(TASKS);
        first.then()
                .statusCode(200)
                .body("count", equalTo(5))
                .body("results.size()", equalTo(2))
                .body("previous", nullValue());
        // parameters re-encoded sorted by name, limit and offset replaced
        assertEquals(baseUrl(first) + "?limit=2&offset=2&webhook_id=" + WEBHOOK, first.path("next"));

        Response second = asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("limit", 2)
                .queryParam("offset", 2)
                .get(TASKS);
        second.then()
                .body("results.id", contains(ids.get(2).intValue(), ids.get(1).intValue()));
        assertEquals(baseUrl(first) + "?limit=2&webhook_id=" + WEBHOOK, second.path("previous")); // offset 0 is omitted
        assertEquals(baseUrl(first) + "?limit=2&offset=4&webhook_id=" + WEBHOOK, second.path("next"));

        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("limit", 2)
                .queryParam("offset", 4)
                .get(TASKS)
                .then()
                .body("next", nullValue())
                .body("results.size()", equalTo(1));
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("offset", 50)
                .get(TASKS)
                .then()
                .body("count", equalTo(5))
                .body("results.size()", equalTo(0));
        // invalid limit falls back to the default page size; limit=0 means MAX_PAGE_SIZE
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("limit", "x")
                .get(TASKS)
                .then()
                .body("results.size()", equalTo(5));
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("limit", 0)
                .get(TASKS)
                .then()
                .body("results.size()", equalTo(5));
    }

    private static String baseUrl(Response response) {
        String url = response.path("results[0].url");
        return url.substring(0, url.indexOf(TASKS) + TASKS.length());
    }

    @Test
    void filtersCombineAndRepeatedValuesAreOred() {
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("status", "failed")
                .get(TASKS)
                .then()
                .body("count", equalTo(2))
                .body("results.exc_info", contains("receiver answered HTTP 503", "receiver answered HTTP 503"));
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("status", "failed", "queued")
                .get(TASKS)
                .then()
                .body("count", equalTo(3));
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("request_id", "req-1")
                .queryParam("model", "dcim.site")
                .queryParam("event_rule_id", 77)
                .get(TASKS)
                .then()
                .body("count", equalTo(2));
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("model", "ipam.prefix")
                .get(TASKS)
                .then()
                .body("count", equalTo(0));
        asAdmin()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("unknown_filter", "x")
                .get(TASKS)
                .then()
                .body("count", equalTo(5));
    }

    @Test
    void badFilterValuesAreFieldErrors() {
        asAdmin()
                .queryParam("webhook_id", "abc")
                .get(TASKS)
                .then()
                .statusCode(400)
                .body("webhook_id", contains("Enter a whole number."));
        asAdmin()
                .queryParam("status", "done")
                .get(TASKS)
                .then()
                .statusCode(400)
                .body("status", contains("Select a valid choice. done is not one of the available choices."));
    }

    // ------------------------------------------------------------------ detail, requeue, errors

    @Test
    void detailIncludesTheAttemptLog() {
        asAdmin()
                .get(TASKS + ids.get(1) + "/")
                .then()
                .statusCode(200)
                .body("id", equalTo(ids.get(1).intValue()))
                .body("status", equalTo("failed"))
                .body("last_status", equalTo(503))
                .body("attempt_log.size()", equalTo(0))
                .body("request.url", equalTo("http://127.0.0.1:9/x"));
    }

    @Test
    void requeueOnlyMovesFailedTasks() {
        asAdmin()
                .post(TASKS + ids.get(0) + "/requeue/")
                .then()
                .statusCode(409)
                .body("detail", equalTo("Only failed tasks can be requeued; task " + ids.get(0) + " is succeeded."));
        asAdmin().post(TASKS + "999999999/requeue/").then().statusCode(404).body("detail", equalTo("Not found."));
    }

    @Test
    void errorsAreJson() {
        asAdmin().get(TASKS + "999999999/").then().statusCode(404).body("detail", equalTo("Not found."));
        asAdmin().get(TASKS + "abc/").then().statusCode(404).body("detail", equalTo("Not found."));
        asAdmin().get("/api/core/nothing-here/").then().statusCode(404).body("detail", equalTo("Not found."));
        asAdmin().post(TASKS).then().statusCode(405).body("detail", equalTo("Method \"POST\" not allowed."));
        asAdmin().post("/api/core/background-tasks").then().statusCode(404).body("detail", equalTo("Not found."));
    }

    @Test
    void listWithoutTrailingSlashRedirects() {
        asAdmin()
                .redirects()
                .follow(false)
                .queryParam("status", "failed")
                .get("/api/core/background-tasks")
                .then()
                .statusCode(301)
                .header("Location", endsWith("/api/core/background-tasks/?status=failed"));
    }

    @Test
    void healthChecksCoverDatabaseAndKafka() {
        Management.given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        Management.given()
                .get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body(
                        "checks.name",
                        org.hamcrest.Matchers.hasItems(
                                "Database connections health check", "Kafka connection health check"));
    }
}
