package org.sourceoftruth.dispatcher;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * The whole chain, nothing stubbed: the packaged records-api runs as a child process against
 * the real PostgreSQL and Kafka; a site is created, updated and deleted through its REST API;
 * the change log relay publishes the events; this dispatcher consumes them, matches the event
 * rule created through the API and delivers signed webhooks to a real HTTP receiver.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class RecordsApiEndToEndTest {
    private static final String TOKEN = "fedcba9876543210fedcba9876543210fedcba98";
    private static final String SECRET = "end-to-end-secret";
    private static RecordsApiProcess recordsApi;
    private static String api;
    private static Receiver receiver;

    @Inject
    RuleCache rules;

    @BeforeAll
    static void startRecordsApi() throws Exception {
        recordsApi = TestInfrastructure.recordsApi()
                .superuser("e2e-admin", "e2e-password", TOKEN)
                .start();
        api = recordsApi.url();
        receiver = Receiver.start();
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

    private static RequestSpecification records() {
        return given().baseUri(api).header("Authorization", "Token " + TOKEN).contentType("application/json");
    }

    @Test
    void siteChangesThroughTheApiArriveAsSignedWebhooks() throws Exception {
        int webhook = records()
                .body(Map.of("name", "e2e-hook", "payload_url", receiver.url("/hook"), "secret", SECRET))
                .post("/api/extras/webhooks/")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        records()
                .body(Map.of(
                        "name",
                        "e2e-rule",
                        "object_types",
                        List.of("dcim.site"),
                        "event_types",
                        List.of("object_created", "object_updated", "object_deleted"),
                        "action_object_type",
                        "extras.webhook",
                        "action_object_id",
                        webhook))
                .post("/api/extras/event-rules/")
                .then()
                .statusCode(201);
        // the rule reaches the dispatcher's cache through its own change event
        await().atMost(Duration.ofSeconds(60))
                .until(() -> !rules.rulesFor("dcim.site", "object_created").isEmpty());

        ExtractableResponse<Response> created = records()
                .body(Map.of("name", "e2e-site", "slug", "e2e-site"))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(201)
                .extract();
        int site = created.path("id");
        ExtractableResponse<Response> updated = records()
                .body(Map.of("description", "changed"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .extract();
        ExtractableResponse<Response> deleted = records()
                .delete("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(204)
                .extract();

        await().atMost(Duration.ofSeconds(60)).until(() -> receiver.received().size() >= 3);
        List<Receiver.Received> got = receiver.received();
        assertEquals(3, got.size(), "exactly one webhook per change");
        List<String> requestIds =
                List.of(created.header("X-Request-ID"), updated.header("X-Request-ID"), deleted.header("X-Request-ID"));
        List<String> events = List.of("created", "updated", "deleted");
        List<String> methods = List.of("POST", "PATCH", "DELETE");
        List<String> paths =
                List.of("/api/dcim/sites/", "/api/dcim/sites/" + site + "/", "/api/dcim/sites/" + site + "/");
        for (int i = 0; i < 3; i++) {
            Receiver.Received r = got.get(i);
            JsonNode body = Json.MAPPER.readTree(r.body());
            assertEquals(events.get(i), body.get("event").asText());
            assertEquals("dcim.site", body.get("object_type").asText());
            assertEquals("site", body.get("model").asText());
            assertEquals("e2e-admin", body.get("username").asText());
            assertEquals(requestIds.get(i), body.get("request_id").asText());
            assertEquals("e2e-site", body.get("data").get("name").asText());
            assertEquals(
                    "/api/dcim/sites/" + site + "/", body.get("data").get("url").asText());
            assertEquals(
                    "/dcim/sites/" + site + "/",
                    body.get("data").get("display_url").asText());
            // NetBox 4.6's request object: the request behind the change
            JsonNode request = body.get("request");
            assertEquals(requestIds.get(i), request.get("id").asText(), body.toString());
            assertEquals(methods.get(i), request.get("method").asText());
            assertEquals(paths.get(i), request.get("path").asText());
            assertEquals("e2e-admin", request.get("user").asText());
            assertEquals(
                    List.of(
                            "event",
                            "timestamp",
                            "object_type",
                            "model",
                            "username",
                            "request_id",
                            "data",
                            "request",
                            "snapshots"),
                    iterableToList(body.fieldNames()));
            assertTrue(
                    body.get("timestamp")
                            .asText()
                            .matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6}\\+00:00"),
                    body.get("timestamp").asText());
            assertEquals("application/json", r.header("Content-Type"));
            assertEquals(hmacSha512(SECRET, r.body()), r.header("X-Hook-Signature"));
        }
        JsonNode update = Json.MAPPER.readTree(got.get(1).body());
        assertEquals(
                "", update.get("snapshots").get("prechange").get("description").asText());
        assertEquals(
                "changed",
                update.get("snapshots").get("postchange").get("description").asText());
        assertTrue(Json.MAPPER
                .readTree(got.get(0).body())
                .get("snapshots")
                .get("prechange")
                .isNull());
        assertTrue(Json.MAPPER
                .readTree(got.get(2).body())
                .get("snapshots")
                .get("postchange")
                .isNull());
    }

    /**
     * A rule on webhooks delivers their changes to another receiver: no webhook's secret is in
     * the bodies or in the requests the dispatcher stores, and the dispatcher still signs with a
     * changed secret (it reads the webhook from records-api, as the event leaves the secret out).
     */
    @Test
    void webhookSecretsStayOutOfDeliveries() throws Exception {
        try (Receiver watcher = Receiver.start()) {
            int watching = records()
                    .body(Map.of(
                            "name", "secrets-watcher", "payload_url", watcher.url("/w"), "secret", "signing-one-1"))
                    .post("/api/extras/webhooks/")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            records()
                    .body(Map.of(
                            "name",
                            "webhook-changes",
                            "object_types",
                            List.of("extras.webhook"),
                            "event_types",
                            List.of("object_created", "object_updated", "object_deleted"),
                            "action_object_type",
                            "extras.webhook",
                            "action_object_id",
                            watching))
                    .post("/api/extras/event-rules/")
                    .then()
                    .statusCode(201);
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            !rules.rulesFor("extras.webhook", "object_created").isEmpty());

            int other = records()
                    .body(Map.of(
                            "name", "secrets-other", "payload_url", "http://127.0.0.1:9/x", "secret", "leaked-abc"))
                    .post("/api/extras/webhooks/")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            records()
                    .body(Map.of("secret", "leaked-def"))
                    .patch("/api/extras/webhooks/" + other + "/")
                    .then()
                    .statusCode(200);
            records().delete("/api/extras/webhooks/" + other + "/").then().statusCode(204);
            records()
                    .body(Map.of("secret", "signing-two-2"))
                    .patch("/api/extras/webhooks/" + watching + "/")
                    .then()
                    .statusCode(200);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> watcher.received().size() >= 4);
            records()
                    .body(Map.of("name", "secrets-third", "payload_url", "http://127.0.0.1:9/y"))
                    .post("/api/extras/webhooks/")
                    .then()
                    .statusCode(201);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> watcher.received().size() >= 5);

            List<Receiver.Received> got = watcher.received();
            assertEquals(5, got.size(), "one delivery per webhook change");
            for (Receiver.Received r : got) {
                JsonNode body = Json.MAPPER.readTree(r.body());
                assertEquals("extras.webhook", body.get("object_type").asText());
                for (String secret : List.of("leaked-abc", "leaked-def", "signing-one-1", "signing-two-2")) {
                    assertTrue(!r.bodyText().contains(secret), "a delivery carries " + secret + ": " + r.bodyText());
                }
                assertTrue(body.get("data").has("name") && !body.get("data").has("secret"), r.bodyText());
            }
            Receiver.Received last = got.stream()
                    .filter(r -> r.bodyText().contains("\"secrets-third\""))
                    .findFirst()
                    .orElseThrow();
            assertEquals(hmacSha512("signing-two-2", last.body()), last.header("X-Hook-Signature"));
            List<Map<String, Object>> stored =
                    Fixtures.rows("select r.headers::text || r.body as request from dispatch.rendered_request r"
                            + " where r.body like '%secrets-%'");
            assertTrue(stored.size() >= 5, "the dispatcher stored the requests it sent: " + stored.size());
            for (Map<String, Object> row : stored) {
                String request = String.valueOf(row.get("request"));
                assertTrue(
                        !request.contains("leaked-") && !request.contains("signing-"),
                        "a stored request carries a secret: " + request);
            }
        }
    }

    private static String hmacSha512(String secret, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA512");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
        return HexFormat.of().formatHex(mac.doFinal(body));
    }

    private static List<String> iterableToList(java.util.Iterator<String> names) {
        List<String> out = new java.util.ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }
}
