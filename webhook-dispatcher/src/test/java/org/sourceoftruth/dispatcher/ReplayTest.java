package org.sourceoftruth.dispatcher;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.dispatcher.support.Fixtures.json;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.delivery.DeliveryIdentity;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;

/**
 * Replays: past changes, made through records-api's API before the webhook existed, are fed to
 * it on request, in order per object, marked as a replay, paced, with their progress; a replay
 * can be cancelled; bad requests are refused naming the field.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class ReplayTest {

    private static final String REPLAYS = "/api/core/webhook-replays/";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static String adminToken;

    @Inject
    DispatcherConfig config;

    @Inject
    RuleCache ruleCache;

    @BeforeAll
    static void setUp() throws Exception {
        adminToken = Fixtures.token(Fixtures.user("replay-admin", true, true), true, null);
    }

    private static RequestSpecification admin() {
        return given().header("Authorization", "Token " + adminToken).contentType("application/json");
    }

    private RequestSpecification recordsApi() {
        return given().baseUri(config.recordsApi().url())
                .header("Authorization", "Token " + TestInfrastructure.SERVICE_TOKEN)
                .contentType("application/json");
    }

    private int createInRecordsApi(String path, Map<String, Object> body) {
        return recordsApi()
                .body(body)
                .post(path)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** A webhook to the receiver with a rule for sites whose description starts with the prefix. */
    private int webhookFor(Receiver receiver, String path, String prefix) {
        int webhook = createInRecordsApi(
                "/api/extras/webhooks/", Map.of("name", "replay hook " + path, "payload_url", receiver.url(path)));
        createInRecordsApi(
                "/api/extras/event-rules/",
                Map.of(
                        "name",
                        "replay rule " + path,
                        "object_types",
                        List.of("dcim.site"),
                        "event_types",
                        List.of("object_created", "object_updated"),
                        "conditions",
                        Map.of("and", List.of(Map.of("attr", "description", "op", "contains", "value", prefix))),
                        "action_object_type",
                        "extras.webhook",
                        "action_object_id",
                        webhook));
        await().atMost(WAIT).until(() -> {
            ruleCache.refresh();
            return !ruleCache.rulesOfWebhook(webhook).isEmpty();
        });
        return webhook;
    }

    /** Sites made and changed through records-api: their descriptions in order, per site id. */
    private Map<Long, List<String>> changeSites(String prefix, int sites, int updates) {
        Map<Long, List<String>> made = new LinkedHashMap<>();
        for (int s = 0; s < sites; s++) {
            String name = prefix + "-" + s;
            long id = createInRecordsApi(
                    "/api/dcim/sites/", Map.of("name", name, "slug", name, "description", prefix + " new"));
            List<String> descriptions = new ArrayList<>(List.of(prefix + " new"));
            for (int u = 0; u < updates; u++) {
                String description = prefix + " " + u;
                recordsApi()
                        .body(Map.of("description", description))
                        .patch("/api/dcim/sites/" + id + "/")
                        .then()
                        .statusCode(200);
                descriptions.add(description);
            }
            made.put(id, descriptions);
        }
        return made;
    }

    private static JsonNode replay(int id) {
        return json(
                admin().get(REPLAYS + id + "/").then().statusCode(200).extract().asString());
    }

    @Test
    void pastChangesAreReplayedToAWebhookAddedSinceInOrderAndMarked() throws Exception {
        Instant before = Instant.now().minusSeconds(1);
        Map<Long, List<String>> made = changeSites("replayed", 2, 3);
        try (Receiver receiver = Receiver.start()) {
            // the webhook comes after the changes: the change stream does not send them to it
            int webhook = webhookFor(receiver, "/replayed", "replayed");
            Thread.sleep(2000);
            assertEquals(0, receiver.received().size(), "changes made before the rule are not its to send");

            JsonNode created = json(admin().body(Map.of(
                            "webhook",
                            webhook,
                            "since",
                            before.toString(),
                            "object_types",
                            List.of("dcim.site"),
                            "rate",
                            50))
                    .post(REPLAYS)
                    .then()
                    .statusCode(201)
                    .extract()
                    .asString());
            int id = created.get("id").asInt();
            assertEquals("running", created.get("state").asText());
            await().atMost(WAIT).until(() -> replay(id).get("state").asText().equals("finished"));
            await().atMost(WAIT).until(() -> receiver.received().size() >= 8);

            JsonNode done = replay(id);
            assertEquals(8, done.get("deliveries").asInt(), done.toString());
            assertTrue(done.get("changes_read").asInt() >= 8, done.toString());
            await().atMost(WAIT)
                    .until(() -> replay(id)
                                    .get("deliveries_by_state")
                                    .get("succeeded")
                                    .asInt()
                            == 8);

            List<Receiver.Received> arrivals = new ArrayList<>(receiver.received());
            arrivals.sort(Comparator.comparing(Receiver.Received::at));
            Map<Long, List<String>> arrived = new HashMap<>();
            Map<Long, List<String>> numbers = new HashMap<>();
            for (Receiver.Received r : arrivals) {
                JsonNode data = json(r.bodyText()).get("data");
                arrived.computeIfAbsent(data.get("id").asLong(), k -> new ArrayList<>())
                        .add(data.get("description").asText());
                numbers.computeIfAbsent(data.get("id").asLong(), k -> new ArrayList<>())
                        .add(r.header(DeliveryIdentity.SEQUENCE_HEADER));
                assertEquals(String.valueOf(id), r.header(DeliveryIdentity.REPLAY_HEADER));
                assertTrue(r.header(DeliveryIdentity.DELIVERY_HEADER) != null);
            }
            assertEquals(made, arrived, "each site's changes, in order");
            numbers.values().forEach(n -> assertEquals(List.of("1", "2", "3", "4"), n));

            // on the page too
            String page = given().header("Authorization", "Token " + adminToken)
                    .get("/admin/webhook-replays/")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString();
            assertTrue(page.contains("id=\"replay-" + id + "\""), page);
        }
    }

    @Test
    void aCancelledReplayStopsAndItsUnsentDeliveriesFail() throws Exception {
        Instant before = Instant.now().minusSeconds(1);
        changeSites("cancelled", 1, 5);
        try (Receiver receiver = Receiver.start()) {
            receiver.delaying(2000); // slow: most of the replay's deliveries are still unsent
            int webhook = webhookFor(receiver, "/cancelled", "cancelled");
            int id = admin().body(Map.of("webhook", webhook, "since", before.toString(), "rate", 1))
                    .post(REPLAYS)
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            await().atMost(WAIT).until(() -> replay(id).get("deliveries").asInt() >= 2);
            JsonNode cancelled = json(admin().post(REPLAYS + id + "/cancel/")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString());
            assertEquals("cancelled", cancelled.get("state").asText());
            admin().post(REPLAYS + id + "/cancel/").then().statusCode(409);
            await().atMost(WAIT)
                    .until(() ->
                            replay(id).get("deliveries_by_state").get("queued").asInt() == 0);
            JsonNode after = replay(id);
            assertTrue(after.get("deliveries_by_state").get("failed").asInt() >= 1, after.toString());
        }
        admin().post(REPLAYS + "999999/cancel/").then().statusCode(404);
        admin().get(REPLAYS + "999999/").then().statusCode(404);
        admin().get(REPLAYS + "abc/").then().statusCode(404);
    }

    @Test
    void badReplaysAreRefusedNamingTheFieldAndStartNothing() throws Exception {
        int webhook;
        try (Receiver receiver = Receiver.start()) {
            webhook = webhookFor(receiver, "/refused", "refused-never");
        }
        int before = json(admin().get(REPLAYS).then().statusCode(200).extract().asString())
                .get("count")
                .asInt();
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("{}", "webhook");
        bad.put("{\"webhook\": \"x\", \"since\": \"2026-01-01T00:00:00Z\"}", "webhook");
        bad.put("{\"webhook\": 99999999, \"since\": \"2026-01-01T00:00:00Z\"}", "webhook");
        bad.put("{\"webhook\": " + webhook + "}", "since");
        bad.put("{\"webhook\": " + webhook + ", \"since\": \"yesterday\"}", "since");
        bad.put(
                "{\"webhook\": " + webhook
                        + ", \"since\": \"2026-01-02T00:00:00Z\", \"until\": \"2026-01-01T00:00:00Z\"}",
                "until");
        bad.put("{\"webhook\": " + webhook + ", \"change_id\": \"nope\"}", "change_id");
        bad.put(
                "{\"webhook\": " + webhook + ", \"change_id\": \"" + java.util.UUID.randomUUID()
                        + "\", \"since\": \"2026-01-01T00:00:00Z\"}",
                "change_id");
        bad.put("{\"webhook\": " + webhook + ", \"since\": \"2026-01-01T00:00:00Z\", \"rate\": 0}", "rate");
        bad.put("{\"webhook\": " + webhook + ", \"since\": \"2026-01-01T00:00:00Z\", \"rate\": \"fast\"}", "rate");
        bad.put(
                "{\"webhook\": " + webhook + ", \"since\": \"2026-01-01T00:00:00Z\", \"object_types\": \"dcim.site\"}",
                "object_types");
        bad.put(
                "{\"webhook\": " + webhook + ", \"since\": \"2026-01-01T00:00:00Z\", \"object_types\": [\"no type\"]}",
                "object_types");
        bad.put("{\"webhook\": " + webhook + ", \"since\": \"2026-01-01T00:00:00Z\", \"speed\": 3}", "speed");
        bad.put("{\"webhook\": {\"id\": " + webhook + "}, \"since\": \"2026-01-01T00:00:00Z\"}", "webhook");
        for (Map.Entry<String, String> body : bad.entrySet()) {
            Response response = admin().body(body.getKey()).post(REPLAYS);
            assertEquals(400, response.statusCode(), body.getKey() + ": " + response.asString());
            assertTrue(
                    json(response.asString()).has(body.getValue()),
                    body.getKey() + " names " + body.getValue() + ": " + response.asString());
        }
        for (String body : List.of("{not json", "[1, 2]", "null", "", "\"text\"")) {
            Response response = admin().body(body).post(REPLAYS);
            assertEquals(400, response.statusCode(), body + ": " + response.asString());
            assertFalse(response.asString().contains("Exception"), response.asString());
        }
        given().body("{}").post(REPLAYS).then().statusCode(403);
        assertEquals(
                before,
                json(admin().get(REPLAYS).then().statusCode(200).extract().asString())
                        .get("count")
                        .asInt(),
                "nothing was started");
    }
}
