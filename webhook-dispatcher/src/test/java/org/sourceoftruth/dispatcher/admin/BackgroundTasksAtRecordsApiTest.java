package org.sourceoftruth.dispatcher.admin;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.net.URL;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.sourceoftruth.dispatcher.delivery.DeliveryWorker;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestDatabase;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * NetBox's background-task API at records-api's URL (a packaged records-api forwarding to this
 * dispatcher): tasks, queues and workers in NetBox's shapes, the task actions, and the access rule.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BackgroundTasksAtRecordsApiTest {

    private static final String TOKEN = "abcdef0123456789abcdef0123456789abcdef01";
    private static final String TASKS = "/api/core/background-tasks/";
    /** A webhook id no other test uses, so the lists below hold exactly this test's tasks. */
    private static final long WEBHOOK = 900_101;

    private static RecordsApiProcess recordsApi;
    private static Receiver receiver;
    private static long succeeded;
    private static long failed;
    private static long scheduled;
    private static long scheduledToReceiver;
    private static String userToken;

    @Inject
    DeliveryWorker worker;

    @TestHTTPResource("/")
    URL dispatcher;

    /** Once, when this dispatcher's port is known (not yet in a static @BeforeAll). */
    @BeforeEach
    void startRecordsApi() throws Exception {
        if (recordsApi == null) {
            recordsApi = TestInfrastructure.recordsApi()
                    .superuser("bt-admin", "bt-password", TOKEN)
                    .env("DISPATCHER_URL", "http://127.0.0.1:" + dispatcher.getPort())
                    .start();
        }
    }

    @BeforeAll
    static void createTasks() throws Exception {
        receiver = Receiver.start();
        userToken = Fixtures.token(Fixtures.user("bt-user", false, true), true, null);
        succeeded = task("succeeded", "http://127.0.0.1:9/x", "interval '1 day'");
        failed = task("failed", "http://127.0.0.1:9/x", "interval '1 day'");
        scheduled = task("queued", "http://127.0.0.1:9/x", "interval '1 day'");
        scheduledToReceiver = task("queued", receiver.url("/hook"), "interval '1 day'");
    }

    @AfterAll
    static void stop() {
        if (recordsApi != null) {
            recordsApi.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    /** A delivery row as the dispatcher writes it; queued ones wait for tomorrow's retry (RQ: scheduled). */
    private static long task(String state, String url, String nextAttemptIn) throws Exception {
        try (Connection connection = TestDatabase.connect();
                PreparedStatement insert = connection.prepareStatement("""
                     with task as (
                         insert into dispatch.delivery(state, change_id, event, model, object_id, request_id, username,
                             event_rule_id, event_rule_name, webhook_id, webhook_name, request_method, request_url,
                             target_host, attempts, last_status, last_error, created, first_attempt_at, completed_at,
                             next_attempt_at)
                         values (?, ?, 'updated', 'dcim.site', 7, 'req-bt', 'alice', 78, 'bt rule', ?, 'bt hook',
                                 'POST', ?, ?, 1, ?, ?, now(), now(), case when ? = 'queued' then null else now() end,
                                 now() + %s)
                         returning id)
                     insert into dispatch.rendered_request(delivery_id, headers, body)
                     select id, '[["Content-Type", "application/json"]]', '{}' from task
                     returning delivery_id""".formatted(nextAttemptIn))) {
            insert.setString(1, state);
            insert.setObject(2, UUID.randomUUID());
            insert.setLong(3, WEBHOOK);
            insert.setString(4, url);
            insert.setString(5, java.net.URI.create(url).getAuthority());
            insert.setObject(6, state.equals("succeeded") ? 200 : 503);
            insert.setString(7, state.equals("succeeded") ? null : "receiver answered HTTP 503");
            insert.setString(8, state);
            try (var row = insert.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static RequestSpecification atRecordsApi() {
        return given().baseUri(recordsApi.url()).header("Authorization", "Token " + TOKEN);
    }

    @Test
    void deliveriesAreTasksInNetBoxsShapeAtRecordsApisUrl() {
        atRecordsApi()
                .queryParam("webhook_id", WEBHOOK)
                .queryParam("status", "finished", "failed")
                .get(TASKS)
                .then()
                .statusCode(200)
                .contentType("application/json")
                .body("count", equalTo(2))
                .body("previous", nullValue())
                .body("results.id", contains((int) failed, (int) succeeded))
                .body("results.status", contains("failed", "finished"))
                .body("results.is_failed", contains(true, false))
                .body("results.is_finished", contains(false, true))
                .body("results.origin", contains("default", "default"))
                .body("results.func_name", contains("extras.webhooks.send_webhook", "extras.webhooks.send_webhook"))
                .body("results[0].url", equalTo(recordsApi.url() + TASKS + failed + "/"))
                .body("results[0].exc_info", equalTo("receiver answered HTTP 503"))
                .body("results[0].kwargs.event_type", equalTo("updated"))
                .body("results[0].args.size()", equalTo(0))
                .body("results[1].result", equalTo("Status 200 returned, webhook successfully processed."))
                .body("results[1].delivery_state", equalTo("succeeded"))
                .body("results[1].webhook_name", equalTo("bt hook"));
        atRecordsApi()
                .get(TASKS + scheduled + "/")
                .then()
                .statusCode(200)
                .body("status", equalTo("scheduled"))
                .body("is_scheduled", equalTo(true))
                .body("attempt_log.size()", equalTo(0));
        atRecordsApi().get(TASKS + "999999999/").then().statusCode(404).body("detail", equalTo("Not found."));
    }

    @Test
    void theDefaultQueueCountsTheDeliveries() throws Exception {
        // deliveries of earlier tests may still be finishing: the counts are compared once the
        // table and the API agree, read one right after the other
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Map<String, Object> counts = Fixtures.rows("""
                    select count(*) filter (where state = 'succeeded') as finished,
                           count(*) filter (where state = 'failed') as failed from dispatch.delivery""").get(0);
            atRecordsApi()
                    .get("/api/core/background-queues/")
                    .then()
                    .statusCode(200)
                    .body("count", equalTo(3))
                    .body("results.name", contains("high", "default", "low"))
                    .body("results[1].finished_jobs", equalTo(((Number) counts.get("finished")).intValue()))
                    .body("results[1].failed_jobs", equalTo(((Number) counts.get("failed")).intValue()))
                    .body("results[1].index", equalTo(1))
                    .body("results[0].failed_jobs", equalTo(0));
        });
        atRecordsApi()
                .get("/api/core/background-queues/default/")
                .then()
                .statusCode(200)
                .body("url", equalTo(recordsApi.url() + "/api/core/background-queues/default/"))
                .body("workers", equalTo(1));
        atRecordsApi().get("/api/core/background-queues/nothing/").then().statusCode(404);
    }

    @Test
    void theDispatcherIsABackgroundWorker() {
        atRecordsApi()
                .get("/api/core/background-workers/")
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results.name", hasItem(worker.owner()))
                .body("results[0].queue_names", contains("default"))
                .body(
                        "results[0].pid",
                        equalTo(String.valueOf(ProcessHandle.current().pid())));
        atRecordsApi()
                .get("/api/core/background-workers/" + worker.owner() + "/")
                .then()
                .statusCode(200)
                .body("url", equalTo(recordsApi.url() + "/api/core/background-workers/" + worker.owner() + "/"));
    }

    /**
     * Every parameter NetBox 4.6's contract lists for the three background endpoints (brief,
     * fields, omit) is accepted at records-api's URL. records-api's ContractTest has no
     * dispatcher to forward these endpoints to and counts them as checked here.
     */
    @Test
    void theContractsParametersOfTheBackgroundEndpointsAreAccepted() throws Exception {
        JsonNode endpoints = new ObjectMapper()
                .readTree(Path.of("../records-api/src/test/resources/contract/netbox-4.6-contract.json")
                        .toFile())
                .path("endpoints");
        int checked = 0;
        for (String key : List.of("core/background-queues", "core/background-workers", "core/background-tasks")) {
            JsonNode filters = endpoints.path(key).path("filters");
            assertEquals(false, filters.isEmpty(), key + " has parameters in the contract");
            for (java.util.Iterator<String> names = filters.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                String value = name.equals("brief") ? "true" : "name";
                atRecordsApi()
                        .queryParam(name, value)
                        .get("/api/" + key + "/")
                        .then()
                        .statusCode(200)
                        .body("count", org.hamcrest.Matchers.greaterThanOrEqualTo(1));
                checked++;
            }
        }
        assertEquals(9, checked, "brief, fields and omit on each endpoint");
    }

    /** Last: it changes the tasks the other tests look at. */
    @Test
    @Order(Integer.MAX_VALUE)
    void actionsThroughRecordsApi() throws Exception {
        // stop: a queued task fails with the reason; stopping it again stops nothing (NetBox: 204)
        atRecordsApi()
                .post(TASKS + scheduled + "/stop/")
                .then()
                .statusCode(200)
                .body("status", equalTo("failed"))
                .body("exc_info", equalTo("Stopped by bt-admin before it was delivered."));
        atRecordsApi().post(TASKS + scheduled + "/stop/").then().statusCode(204).body(emptyString());

        // enqueue: a scheduled retry is sent now
        atRecordsApi().post(TASKS + scheduledToReceiver + "/enqueue/").then().statusCode(200);
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> atRecordsApi()
                        .get(TASKS + scheduledToReceiver + "/")
                        .then()
                        .body("status", equalTo("finished")));
        assertEquals(1, receiver.received().size());
        atRecordsApi()
                .post(TASKS + succeeded + "/enqueue/")
                .then()
                .statusCode(409)
                .body("detail", startsWith("Only failed tasks can be requeued"));

        // requeue: a failed task gets a new round
        atRecordsApi().post(TASKS + failed + "/requeue/").then().statusCode(200).body("round", equalTo(2));

        // delete: the record is gone
        atRecordsApi().post(TASKS + succeeded + "/delete/").then().statusCode(200);
        atRecordsApi().get(TASKS + succeeded + "/").then().statusCode(404).body("detail", equalTo("Not found."));
        atRecordsApi()
                .post(TASKS + succeeded + "/delete/")
                .then()
                .statusCode(404)
                .body("detail", equalTo("Not found."));
        assertEquals(List.of(), Fixtures.rows("select id from dispatch.delivery where id = ?", succeeded));
    }

    /** records-api's login session works too (its cookies are forwarded); writes need its CSRF token. */
    @Test
    void aLoggedInSuperuserUsesItWithTheSessionAndCsrfToken() throws Exception {
        io.restassured.response.Response login = given().baseUri(recordsApi.url())
                .contentType("application/json")
                .body(Map.of("username", "bt-admin", "password", "bt-password"))
                .post("/login/");
        login.then().statusCode(200);
        String session = login.getCookie("sessionid");
        String csrf = login.path("csrf_token");
        long task = task("failed", "http://127.0.0.1:9/x", "interval '1 day'");

        given().baseUri(recordsApi.url())
                .cookie("sessionid", session)
                .get(TASKS + task + "/")
                .then()
                .statusCode(200)
                .body("status", equalTo("failed"));
        given().baseUri(recordsApi.url())
                .cookie("sessionid", session)
                .cookie("csrftoken", csrf)
                .post(TASKS + task + "/delete/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("CSRF Failed: CSRF token missing or incorrect."));
        given().baseUri(recordsApi.url())
                .cookie("sessionid", session)
                .cookie("csrftoken", csrf)
                .header("X-CSRFToken", csrf)
                .post(TASKS + task + "/delete/")
                .then()
                .statusCode(200);
        assertEquals(List.of(), Fixtures.rows("select id from dispatch.delivery where id = ?", task));
    }

    @Test
    void onlySuperusersMayUseIt() {
        for (String path : List.of(TASKS, "/api/core/background-queues/", "/api/core/background-workers/")) {
            given().baseUri(recordsApi.url())
                    .header("Authorization", "Token " + userToken)
                    .get(path)
                    .then()
                    .statusCode(403)
                    .contentType("application/json")
                    .body("detail", equalTo("You do not have permission to perform this action."));
            given().baseUri(recordsApi.url()).get(path).then().statusCode(403);
        }
        given().baseUri(recordsApi.url())
                .header("Authorization", "Token " + userToken)
                .post(TASKS + failed + "/delete/")
                .then()
                .statusCode(403);
    }
}
