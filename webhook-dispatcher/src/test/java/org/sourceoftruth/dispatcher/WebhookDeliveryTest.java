package org.sourceoftruth.dispatcher;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.dispatcher.support.Fixtures.ALL_EVENTS;
import static org.sourceoftruth.dispatcher.support.Fixtures.json;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.SelfSignedCertificate;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.ChangeEvent;

/**
 * End to end through the real broker, database and HTTP: change events on the topic, rules and
 * webhooks in records-api's tables, requests at real receivers on 127.0.0.1.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class WebhookDeliveryTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Fixtures fixtures;
    private static String adminToken;

    @Inject
    RuleCache ruleCache;

    @BeforeAll
    static void setUp() throws Exception {
        fixtures = Fixtures.forTests();
        adminToken = Fixtures.token(Fixtures.user("delivery-admin", true, true), true, null);
    }

    @AfterAll
    static void tearDown() {
        fixtures.close();
    }

    private static JsonNode site(String status) {
        return json("""
                {"id": 7, "url": "/api/dcim/sites/7/", "display_url": "/dcim/sites/7/", "display": "dc-01",
                 "name": "dc-01", "slug": "dc-01", "status": {"value": "%s", "label": "X"},
                 "tags": [{"id": 1, "name": "Core", "slug": "core"}, {"id": 2, "name": "Edge", "slug": "edge"}],
                 "description": "Zürich"}""".formatted(status));
    }

    private static String hmacSha512(String secret, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA512");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
        return HexFormat.of().formatHex(mac.doFinal(body));
    }

    @Test
    void largeAndTruncatedEventsAreDeliveredAndTheNextEventToo() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            long webhook = Fixtures.webhook("large hook", receiver.url("/hooks/large"), null, null, null);
            Fixtures.eventRule("large site changes", List.of("dcim.site"), ALL_EVENTS, null, webhook);
            ruleCache.refresh();

            // 3 MB of description that compresses badly: one record batch larger than the consumer's
            // max.partition.fetch.bytes (1 MiB), which Kafka returns whole anyway.
            StringBuilder description = new StringBuilder();
            java.util.Random random = new java.util.Random(15);
            while (description.length() < 3_000_000) {
                description.append(Long.toString(random.nextLong(), 36));
            }
            JsonNode large = json("{\"id\": 815, \"url\": \"/api/dcim/sites/815/\", \"display\": \"big\"}");
            ((com.fasterxml.jackson.databind.node.ObjectNode) large).put("description", description.toString());
            ChangeEvent whole = Fixtures.event("created", "dcim.site", 815, large, null, null);
            ChangeEvent truncated = Fixtures.event("updated", "dcim.site", 815, large, null, null)
                    .truncatedTo(json("{\"id\": 815, \"url\": \"/api/dcim/sites/815/\", \"display\": \"big\"}"), null);
            ChangeEvent next = Fixtures.event("deleted", "dcim.site", 815, site("active"), null, null);
            fixtures.publishAll(List.of(whole, truncated, next));

            await().atMost(WAIT)
                    .until(() -> receiver.received().stream()
                                    .filter(r -> r.path().equals("/hooks/large"))
                                    .count()
                            >= 3);
            Map<String, JsonNode> bodies = new java.util.HashMap<>();
            receiver.received().stream()
                    .filter(r -> r.path().equals("/hooks/large"))
                    .forEach(
                            r -> bodies.put(json(r.bodyText()).get("request_id").asText(), json(r.bodyText())));
            assertEquals(
                    description.toString(),
                    bodies.get(whole.requestId()).get("data").get("description").asText());
            assertEquals(
                    json("{\"id\": 815, \"url\": \"/api/dcim/sites/815/\", \"display\": \"big\"}"),
                    bodies.get(truncated.requestId()).get("data"));
            assertEquals("deleted", bodies.get(next.requestId()).get("event").asText());
        }
    }

    @Test
    void createUpdateAndDeleteOfASiteAreDeliveredSignedWithTheDefaultBody() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            long webhook = Fixtures.webhook(
                    "site hook",
                    receiver.url("/hooks/site"),
                    "X-Team: infra\nthis line has no colon\nContent-Type: application/json; charset=utf-8",
                    null,
                    "s3cret");
            long rule = Fixtures.eventRule("site changes", List.of("dcim.site"), ALL_EVENTS, null, webhook);
            ruleCache.refresh();

            JsonNode planned = site("planned");
            JsonNode active = site("active");
            JsonNode snapshotBefore = json("{\"name\": \"dc-01\", \"status\": \"planned\", \"tags\": [\"core\"]}");
            JsonNode snapshotAfter = json("{\"name\": \"dc-01\", \"status\": \"active\", \"tags\": [\"core\"]}");
            List<ChangeEvent> events = List.of(
                    Fixtures.event("created", "dcim.site", 7, planned, null, snapshotBefore),
                    Fixtures.event("updated", "dcim.site", 7, active, snapshotBefore, snapshotAfter),
                    Fixtures.event("deleted", "dcim.site", 7, active, snapshotAfter, null));
            events.forEach(fixtures::publish);

            await().atMost(WAIT).until(() -> receiver.received().size() >= 3);
            assertEquals(3, receiver.received().size());
            for (ChangeEvent event : events) {
                Receiver.Received request = receiver.received().stream()
                        .filter(r ->
                                json(r.bodyText()).get("request_id").asText().equals(event.requestId()))
                        .findFirst()
                        .orElseThrow();
                assertEquals("POST", request.method());
                assertEquals("/hooks/site", request.path());
                // additional headers come after Content-Type and replace it; lines without ':' are skipped
                assertEquals("application/json; charset=utf-8", request.header("Content-Type"));
                assertEquals("infra", request.header("X-Team"));
                assertEquals(hmacSha512("s3cret", request.body()), request.header("X-Hook-Signature"));

                JsonNode body = json(request.bodyText());
                List<String> keys = new ArrayList<>();
                body.fieldNames().forEachRemaining(keys::add);
                assertEquals(
                        List.of(
                                "event",
                                "timestamp",
                                "object_type",
                                "model",
                                "username",
                                "request_id",
                                "data",
                                "snapshots"),
                        keys);
                assertEquals(event.event(), body.get("event").asText());
                assertEquals(
                        "2026-08-20 10:00:00.123456+00:00",
                        body.get("timestamp").asText());
                assertEquals("dcim.site", body.get("object_type").asText());
                assertEquals("site", body.get("model").asText());
                assertEquals("alice", body.get("username").asText());
                assertEquals(event.data(), body.get("data"));
                assertEquals(
                        event.snapshots().prechange() == null,
                        body.get("snapshots").get("prechange").isNull());
                assertEquals(
                        event.snapshots().postchange() == null,
                        body.get("snapshots").get("postchange").isNull());
                // Python's json.dumps: ", " and ": " separators, non-ASCII escaped
                assertTrue(request.bodyText().startsWith("{\"event\": \"" + event.event() + "\", \"timestamp\": "));
                assertTrue(request.bodyText().contains("\"Z\\u00fcrich\""), request.bodyText());
            }

            await().atMost(WAIT).untilAsserted(() -> {
                List<Map<String, Object>> deliveries = Fixtures.deliveriesOfRule(rule);
                assertEquals(3, deliveries.size());
                for (Map<String, Object> delivery : deliveries) {
                    assertEquals("succeeded", delivery.get("state"));
                    assertEquals(1, delivery.get("attempts"));
                    assertEquals(200, delivery.get("last_status"));
                    assertEquals("answer 200", delivery.get("response_excerpt"));
                    assertEquals(webhook, delivery.get("webhook_id"));
                    assertEquals(7L, delivery.get("object_id"));
                    assertTrue(delivery.get("completed_at") != null && delivery.get("first_attempt_at") != null);
                }
            });
        }
    }

    @Test
    void conditionsDecideWhetherTheRuleFires() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            long webhook = Fixtures.webhook("rack hook", receiver.url("/racks"), null, null, null);
            long rule = Fixtures.eventRule(
                    "active racks",
                    List.of("dcim.rack"),
                    List.of("object_updated"),
                    "{\"and\": [{\"attr\": \"status.value\", \"value\": \"active\"},"
                            + " {\"attr\": \"tags.slug\", \"value\": \"core\", \"op\": \"contains\"}]}",
                    webhook);
            ruleCache.refresh();

            ChangeEvent planned = Fixtures.event("updated", "dcim.rack", 3, site("planned"), null, null);
            ChangeEvent missingKey =
                    Fixtures.event("updated", "dcim.rack", 3, json("{\"id\": 3, \"tags\": []}"), null, null);
            ChangeEvent wrongEventType = Fixtures.event("created", "dcim.rack", 3, site("active"), null, null);
            ChangeEvent matching = Fixtures.event("updated", "dcim.rack", 3, site("active"), null, null);
            List.of(planned, missingKey, wrongEventType, matching).forEach(fixtures::publish);

            // same object, same partition: once the last event is delivered the others were processed
            await().atMost(WAIT).until(() -> receiver.received().size() == 1);
            assertEquals(
                    matching.requestId(),
                    json(receiver.received().get(0).bodyText())
                            .get("request_id")
                            .asText());
            for (ChangeEvent skipped : List.of(planned, missingKey, wrongEventType)) {
                assertTrue(Fixtures.processed(skipped.changeId()));
                assertTrue(Fixtures.deliveriesOf(skipped.changeId()).isEmpty());
            }
            assertEquals(1, Fixtures.deliveriesOfRule(rule).size());
        }
    }

    @Test
    void netBoxStyleTemplatesRenderUrlHeadersAndBody() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            String body = """
                    {"name": "{{ data['name'] }}", "event": "{{ event }}",
                     "live": {% if data.status.value == 'active' %}true{% else %}false{% endif %},
                     "tags": [{% for t in data.tags %}"{{ t.slug }}"{% if not loop.last %}, {% endif %}{% endfor %}],
                     "was": "{{ snapshots['prechange']['status'] }}", "extra": "{{ data.team }}",
                     "status": {{ data.status|tojson }}}""";
            long webhook = Fixtures.webhook(
                    "device hook",
                    receiver.url("/devices/{{ data.id }}?e={{ event }}"),
                    "X-Device: {{ data['name'] }}",
                    body,
                    null);
            long rule = Fixtures.eventRule("device updates", List.of("dcim.device"), ALL_EVENTS, null, webhook);
            try (var connection = org.sourceoftruth.dispatcher.support.TestDatabase.connect();
                    var update = connection.prepareStatement(
                            "update extras_eventrule set action_data = '{\"team\": \"netops\", \"name\": \"hidden\"}' where id = ?")) {
                update.setLong(1, rule);
                update.executeUpdate();
            }
            ruleCache.refresh();

            ChangeEvent event = Fixtures.event(
                    "updated",
                    "dcim.device",
                    42,
                    site("active"),
                    json("{\"status\": \"planned\"}"),
                    json("{\"status\": \"active\"}"));
            fixtures.publish(event);

            await().atMost(WAIT).until(() -> receiver.received().size() == 1);
            Receiver.Received request = receiver.received().get(0);
            assertEquals("/devices/7?e=updated", request.path()); // data.id of the site-shaped payload
            assertEquals("dc-01", request.header("X-Device"));
            JsonNode rendered = json(request.bodyText());
            assertEquals("dc-01", rendered.get("name").asText()); // event data wins over action_data
            assertEquals("updated", rendered.get("event").asText());
            assertTrue(rendered.get("live").asBoolean());
            assertEquals(json("[\"core\", \"edge\"]"), rendered.get("tags"));
            assertEquals("planned", rendered.get("was").asText());
            assertEquals("netops", rendered.get("extra").asText()); // action_data is merged under data
            assertEquals(json("{\"label\": \"X\", \"value\": \"active\"}"), rendered.get("status"));
            assertNull(request.header("X-Hook-Signature")); // no secret, no signature
        }
    }

    @Test
    void aTemplateErrorFailsTheDeliveryWithoutBlockingOthers() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            long broken = Fixtures.webhook("broken hook", receiver.url("/broken"), null, "{{ data.name > 3 }}", null);
            long fine = Fixtures.webhook("fine hook", receiver.url("/fine"), null, null, null);
            long brokenRule = Fixtures.eventRule("broken rule", List.of("dcim.region"), ALL_EVENTS, null, broken);
            Fixtures.eventRule("fine rule", List.of("dcim.region"), ALL_EVENTS, null, fine);
            ruleCache.refresh();

            ChangeEvent event = Fixtures.event("created", "dcim.region", 5, site("active"), null, null);
            fixtures.publish(event);

            await().atMost(WAIT).until(() -> receiver.received().size() == 1);
            assertEquals("/fine", receiver.received().get(0).path());
            // templates are rendered off the consumer, so the broken one may still be on its way
            await().atMost(WAIT)
                    .until(() -> "failed"
                            .equals(Fixtures.deliveriesOfRule(brokenRule).get(0).get("state")));
            Map<String, Object> failed = Fixtures.deliveriesOfRule(brokenRule).get(0);
            assertEquals("failed", failed.get("state"));
            assertEquals(0, failed.get("attempts"));
            assertTrue(
                    ((String) failed.get("last_error"))
                            .contains("'>' not supported between instances of 'str' and 'int'"),
                    (String) failed.get("last_error"));

            given().header("Authorization", "Token " + adminToken)
                    .post("/api/core/background-tasks/" + failed.get("id") + "/requeue/")
                    .then()
                    .statusCode(409);
        }
    }

    /**
     * Templates that loop without end, build huge values or run slowly fail
     * their own deliveries with the reason, each stopped by its budget, while a normal delivery
     * of the same event arrives before the slowest of them is even given up.
     */
    @Test
    void runawayTemplatesFailOnlyTheirOwnDeliveries() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            // rendered first, on a rendering thread of its own: under the old design it waited in
            // the consumer for every template of the event before anything was recorded
            long normal = Fixtures.webhook(
                    "runaway normal hook",
                    receiver.url("/normal"),
                    "X-Name: {{ data.name }}",
                    "{\"name\": \"{{ data.name }}\"}",
                    null);
            long normalRule =
                    Fixtures.eventRule("runaway normal rule", List.of("dcim.platform"), ALL_EVENTS, null, normal);
            long loops = Fixtures.webhook(
                    "runaway loop hook",
                    receiver.url("/loops"),
                    null,
                    "{% set l = ('x' * 1000)|list %}{% for a in l %}{% for b in l %}{% for c in l %}."
                            + "{% endfor %}{% endfor %}{% endfor %}",
                    null);
            long huge = Fixtures.webhook(
                    "runaway huge hook",
                    receiver.url("/huge"),
                    null,
                    "{% set s = 'x' * 1000000 %}{% for c in ('y' * 100000)|list %}{{ s ~ s }}{% endfor %}",
                    null);
            // within the step and memory budgets, but each step scans 300,000 elements: the time limit ends it
            long slow = Fixtures.webhook(
                    "runaway slow hook",
                    receiver.url("/slow"),
                    null,
                    "{% set l = ('x' * 300000)|list %}{% for i in l %}{% if 'y' in l %}{% endif %}{% endfor %}",
                    null);
            long loopRule = Fixtures.eventRule("runaway loop rule", List.of("dcim.platform"), ALL_EVENTS, null, loops);
            long hugeRule = Fixtures.eventRule("runaway huge rule", List.of("dcim.platform"), ALL_EVENTS, null, huge);
            long slowRule = Fixtures.eventRule("runaway slow rule", List.of("dcim.platform"), ALL_EVENTS, null, slow);
            ruleCache.refresh();

            fixtures.publish(Fixtures.event("created", "dcim.platform", 21, site("active"), null, null));

            await().atMost(WAIT).until(() -> receiver.received().size() == 1);
            Receiver.Received request = receiver.received().get(0);
            assertEquals("/normal", request.path());
            assertEquals("{\"name\": \"dc-01\"}", request.bodyText());
            assertEquals("dc-01", request.header("X-Name"));

            await().atMost(WAIT)
                    .until(() -> "failed"
                            .equals(Fixtures.deliveriesOfRule(slowRule).get(0).get("state")));
            Map<String, Object> slowDelivery =
                    Fixtures.deliveriesOfRule(slowRule).get(0);
            Instant slowGivenUp = ((java.sql.Timestamp) slowDelivery.get("completed_at")).toInstant();
            assertTrue(
                    request.at().isBefore(slowGivenUp),
                    "the normal delivery waited for the slow template: arrived " + request.at()
                            + ", slow template given up " + slowGivenUp);
            assertEquals(
                    "body_template: template rendering took longer than its time limit",
                    slowDelivery.get("last_error"));

            await().atMost(WAIT).untilAsserted(() -> {
                Map<String, Object> loopDelivery =
                        Fixtures.deliveriesOfRule(loopRule).get(0);
                assertEquals("failed", loopDelivery.get("state"));
                assertEquals(0, loopDelivery.get("attempts"));
                assertEquals(
                        "body_template: template rendering took more than its limit of 200000 steps",
                        loopDelivery.get("last_error"));
                Map<String, Object> hugeDelivery =
                        Fixtures.deliveriesOfRule(hugeRule).get(0);
                assertEquals("failed", hugeDelivery.get("state"));
                assertEquals(
                        "body_template: template rendering needs more than its memory limit of 33554432 bytes",
                        hugeDelivery.get("last_error"));
            });
            // visible in the admin API, and nothing was sent for them
            given().header("Authorization", "Token " + adminToken)
                    .get("/api/core/background-tasks/?status=failed&event_rule_id=" + hugeRule)
                    .then()
                    .statusCode(200)
                    .body("count", equalTo(1))
                    .body(
                            "results[0].exc_info",
                            equalTo("body_template: template rendering needs more than its memory"
                                    + " limit of 33554432 bytes"));
            assertEquals(1, receiver.received().size());
            assertEquals(
                    "succeeded", Fixtures.deliveriesOfRule(normalRule).get(0).get("state"));
            assertTrue(Fixtures.rows("select 1 from dispatch.render_input").isEmpty(), "render inputs left behind");
        }
    }

    @Test
    void failingReceiverIsRetriedThenFailedAndARequeueDeliversIt() throws Exception {
        try (Receiver receiver = Receiver.start().answering(500)) {
            long webhook = Fixtures.webhook("circuit hook", receiver.url("/circuits"), null, null, null);
            long rule = Fixtures.eventRule("circuit changes", List.of("circuits.circuit"), ALL_EVENTS, null, webhook);
            ruleCache.refresh();
            fixtures.publish(Fixtures.event("created", "circuits.circuit", 9, site("active"), null, null));

            await().atMost(WAIT)
                    .until(() ->
                            Fixtures.deliveriesOfRule(rule).stream().anyMatch(d -> "failed".equals(d.get("state"))));
            Map<String, Object> delivery = Fixtures.deliveriesOfRule(rule).get(0);
            long id = (Long) delivery.get("id");
            assertEquals(TestInfrastructure.RETRY_MAX, delivery.get("attempts"));
            assertEquals(500, delivery.get("last_status"));
            assertEquals("receiver answered HTTP 500", delivery.get("last_error"));
            assertEquals("answer 500", delivery.get("response_excerpt"));
            assertEquals(TestInfrastructure.RETRY_MAX, receiver.received().size());
            List<Map<String, Object>> attempts = Fixtures.attemptsOf(id);
            assertEquals(TestInfrastructure.RETRY_MAX, attempts.size());
            // retries waited (exponential backoff from 0.2 s, with jitter of at most half)
            Instant first = receiver.received().get(0).at();
            Instant last =
                    receiver.received().get(TestInfrastructure.RETRY_MAX - 1).at();
            assertTrue(Duration.between(first, last).toMillis() >= 250, "retries were not spaced out");

            given().header("Authorization", "Token " + adminToken)
                    .get("/api/core/background-tasks/" + id + "/")
                    .then()
                    .statusCode(200)
                    .body("status", equalTo("failed"))
                    .body("exc_info", equalTo("receiver answered HTTP 500"))
                    .body("attempt_log.size()", equalTo(TestInfrastructure.RETRY_MAX))
                    .body("request.method", equalTo("POST"))
                    .body("request.url", equalTo(receiver.url("/circuits")));

            receiver.answering(204);
            given().header("Authorization", "Token " + adminToken)
                    .post("/api/core/background-tasks/" + id + "/requeue/")
                    .then()
                    .statusCode(200)
                    .body("id", equalTo((int) id))
                    .body("round", equalTo(2));

            await().atMost(WAIT)
                    .until(() -> "succeeded"
                            .equals(Fixtures.deliveriesOfRule(rule).get(0).get("state")));
            Map<String, Object> succeeded = Fixtures.deliveriesOfRule(rule).get(0);
            assertEquals(1, succeeded.get("attempts"));
            assertEquals(204, succeeded.get("last_status"));
            assertEquals(
                    TestInfrastructure.RETRY_MAX + 1, Fixtures.attemptsOf(id).size());
            // the requeued request is the stored one: same body bytes
            List<Receiver.Received> received = receiver.received();
            assertEquals(
                    received.get(0).bodyText(),
                    received.get(received.size() - 1).bodyText());

            given().header("Authorization", "Token " + adminToken)
                    .post("/api/core/background-tasks/" + id + "/requeue/")
                    .then()
                    .statusCode(409)
                    .body("detail", equalTo("Only failed tasks can be requeued; task " + id + " is succeeded."));
        }
    }

    @Test
    void tlsIsVerifiedAgainstTheJvmTrustStoreACaFileOrNotAtAll(@TempDir Path directory) throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.create(directory);
        try (Receiver receiver = Receiver.startTls(certificate.serverContext)) {
            long verifying = Fixtures.webhook("tls default", receiver.url("/default"), null, null, null);
            long withCa = Fixtures.webhook("tls ca file", receiver.url("/ca"), null, null, null);
            long unverified = Fixtures.webhook("tls off", receiver.url("/off"), null, null, null);
            Fixtures.webhookTls(withCa, true, certificate.pemFile.toString());
            Fixtures.webhookTls(unverified, false, null);
            long verifyingRule =
                    Fixtures.eventRule("tls default rule", List.of("dcim.location"), ALL_EVENTS, null, verifying);
            Fixtures.eventRule("tls ca rule", List.of("dcim.location"), ALL_EVENTS, null, withCa);
            Fixtures.eventRule("tls off rule", List.of("dcim.location"), ALL_EVENTS, null, unverified);
            ruleCache.refresh();

            fixtures.publish(Fixtures.event("created", "dcim.location", 8, site("active"), null, null));

            await().atMost(WAIT).until(() -> receiver.received().size() == 2);
            assertEquals(
                    List.of("/ca", "/off"),
                    receiver.received().stream()
                            .map(Receiver.Received::path)
                            .sorted()
                            .toList());
            // the self-signed certificate is not in the JVM's trust store
            await().atMost(WAIT)
                    .until(() -> "failed"
                            .equals(Fixtures.deliveriesOfRule(verifyingRule)
                                    .get(0)
                                    .get("state")));
            String error =
                    (String) Fixtures.deliveriesOfRule(verifyingRule).get(0).get("last_error");
            assertTrue(error.startsWith("TLS error"), error);
        }
    }

    @Test
    void theSameChangeConsumedTwiceIsDeliveredOnce() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            long webhook = Fixtures.webhook("tenant hook", receiver.url("/tenants"), null, null, null);
            long rule = Fixtures.eventRule("tenant changes", List.of("tenancy.tenant"), ALL_EVENTS, null, webhook);
            ruleCache.refresh();
            ChangeEvent event = Fixtures.event("created", "tenancy.tenant", 11, site("active"), null, null);
            ChangeEvent marker = Fixtures.event("updated", "tenancy.tenant", 11, site("active"), null, null);
            fixtures.publish(event);
            fixtures.publish(event); // at-least-once: the relay may publish an event again
            fixtures.publish(marker); // same key, same partition: processed after both copies

            await().atMost(WAIT).until(() -> receiver.received().size() == 2 && Fixtures.processed(marker.changeId()));
            assertEquals(1, Fixtures.deliveriesOf(event.changeId()).size());
            assertEquals(2, Fixtures.deliveriesOfRule(rule).size());
            assertEquals(
                    1,
                    receiver.received().stream()
                            .filter(r -> r.bodyText().contains(event.requestId()))
                            .count());
        }
    }

    @Test
    void aSlowReceiverDoesNotDelayDeliveriesToOthers() throws Exception {
        try (Receiver slow = Receiver.start().delaying(3000);
                Receiver fast = Receiver.start()) {
            long slowHook = Fixtures.webhook("slow hook", slow.url("/slow"), null, null, null);
            long fastHook = Fixtures.webhook("fast hook", fast.url("/fast"), null, null, null);
            Fixtures.eventRule("slow rule", List.of("ipam.vlan"), ALL_EVENTS, null, slowHook);
            Fixtures.eventRule("fast rule", List.of("ipam.vlan"), ALL_EVENTS, null, fastHook);
            ruleCache.refresh();

            int events = 6; // more than the slow host's 4 slots
            Instant published = Instant.now();
            for (int i = 0; i < events; i++) {
                fixtures.publish(Fixtures.event("created", "ipam.vlan", 100 + i, site("active"), null, null));
            }
            await().atMost(WAIT).until(() -> fast.received().size() == events);
            // every fast delivery arrived while the slow receiver was still sitting on its first requests
            assertEquals(0, slow.received().size(), "the slow receiver finished before the fast one got everything");
            long fastMillis = Duration.between(
                            published, fast.received().get(events - 1).at())
                    .toMillis();
            assertTrue(fastMillis < 3000, "fast deliveries took " + fastMillis + " ms");
            await().atMost(WAIT).until(() -> slow.received().size() == events);
        }
    }

    @Test
    void ruleChangeEventsRefreshTheCacheAndUnreadableRecordsAreSkipped() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            long webhook = Fixtures.webhook("cluster hook", receiver.url("/clusters"), null, null, null);
            long rule =
                    Fixtures.eventRule("cluster changes", List.of("virtualization.cluster"), ALL_EVENTS, null, webhook);
            // no refresh(): the rule's own change event (as records-api publishes it) invalidates the cache
            ChangeEvent ruleCreated =
                    Fixtures.event("created", "extras.eventrule", rule, json("{\"id\": " + rule + "}"), null, null);
            fixtures.publish(ruleCreated);
            await().atMost(WAIT).until(() -> Fixtures.processed(ruleCreated.changeId()));

            ChangeEvent cluster = Fixtures.event("created", "virtualization.cluster", 1, site("active"), null, null);
            fixtures.publishRaw(cluster.kafkaKey(), "this is not a change event".getBytes(StandardCharsets.UTF_8));
            fixtures.publishRaw(cluster.kafkaKey(), "{\"event\": \"created\"}".getBytes(StandardCharsets.UTF_8));
            fixtures.publish(cluster);

            await().atMost(WAIT).until(() -> receiver.received().size() == 1);
            assertEquals(1, Fixtures.deliveriesOfRule(rule).size());
        }
    }
}
