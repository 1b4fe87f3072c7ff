package org.sourceoftruth.records.changelog;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/**
 * The topic as a contract: what the relay writes is what the AsyncAPI document at
 * /api/schema/asyncapi/ says (key, CloudEvents headers, payload), every change carries the rules
 * version it was recorded at, /api/core/change-events/ serves the same events, and a new relay
 * leader does not publish again what its predecessor published but did not mark.
 */
@QuarkusTest
@TestProfile(ChangeStreamContractTest.Profile.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChangeStreamContractTest {

    /** CloudEvents headers on, so that the document's header schema is checked too. */
    public static class Profile extends UniqueTopicProfile {
        @Override
        protected Map<String, String> extraConfig() {
            return Map.of("sot.outbox.cloud-events", "true", "sot.outbox.cloud-events-source", "urn:test:records-api");
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    RelayLifecycle lifecycle;

    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "sot.changes-topic")
    String topic;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();

    @BeforeAll
    void createTopic() {
        TopicReader.createTopic(bootstrapServers, topic, 3);
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false));
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    @AfterAll
    void close() {
        consumer.close(Duration.ofSeconds(5));
    }

    /** Reads the topic until every one of these change ids has been seen. */
    private synchronized List<ConsumerRecord<String, byte[]>> awaitOnTopic(Set<String> changeIds) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Set<String> seen = new java.util.HashSet<>();
            records.forEach(r -> seen.add(changeId(r)));
            if (seen.containsAll(changeIds)) {
                return records.stream()
                        .filter(r -> changeIds.contains(changeId(r)))
                        .toList();
            }
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        throw new AssertionError("not on the topic within " + WAIT + ": " + changeIds);
    }

    private static String changeId(ConsumerRecord<String, byte[]> record) {
        return Json.fromBytes(record.value(), JsonNode.class).get("change_id").asText();
    }

    /** The change ids of the change log's rows for an object, oldest first. */
    private List<String> changesOf(String type, long id) throws Exception {
        List<String> ids = new ArrayList<>();
        try (var connection = dataSource.getConnection();
                var select = connection.prepareStatement("select change_id from core_objectchange"
                        + " where changed_object_type = ? and changed_object_id = ? order by id")) {
            select.setString(1, type);
            select.setLong(2, id);
            try (var rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }

    private static JsonNode document() {
        return Json.fromBytes(
                Api.auth()
                        .get("/api/schema/asyncapi/")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asByteArray(),
                JsonNode.class);
    }

    private static Schema schema(JsonNode document, String name) {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                .getSchema(document.get("components").get("schemas").get(name));
    }

    @Test
    void whatTheRelayWritesIsWhatTheAsyncApiDocumentSays() throws Exception {
        JsonNode document = document();
        assertEquals("3.0.0", document.get("asyncapi").asText());
        assertEquals(
                "records.object-changes",
                document.get("channels").get("objectChanges").get("address").asText());
        Schema key = schema(document, "key");
        Schema headers = schema(document, "cloudEventHeaders");
        Schema payload = schema(document, "changeEvent");

        // changes of every kind: a site created, updated, deleted; a webhook and a rule created, the rule changed
        int site = Api.site("contract");
        Api.auth()
                .body(Map.of("description", "x".repeat(50)))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
        Api.auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        int webhook = Api.create(
                "/api/extras/webhooks/",
                Map.of("name", "contract-" + Api.uniq(), "payload_url", "http://127.0.0.1:9/x"));
        int rule = Api.create(
                "/api/extras/event-rules/",
                Map.of(
                        "name",
                        "contract-" + Api.uniq(),
                        "object_types",
                        List.of("dcim.site"),
                        "event_types",
                        List.of("object_created"),
                        "action_object_type",
                        "extras.webhook",
                        "action_object_id",
                        webhook));
        Api.auth()
                .body(Map.of("enabled", false))
                .patch("/api/extras/event-rules/" + rule + "/")
                .then()
                .statusCode(200);
        int later = Api.site("contract-later");

        Set<String> changes = new java.util.LinkedHashSet<>();
        changes.addAll(changesOf("dcim.site", site));
        changes.addAll(changesOf("extras.webhook", webhook));
        changes.addAll(changesOf("extras.eventrule", rule));
        changes.addAll(changesOf("dcim.site", later));
        assertEquals(7, changes.size());
        Map<String, ConsumerRecord<String, byte[]>> byChange = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : awaitOnTopic(changes)) {
            byChange.put(changeId(record), record);
        }
        for (ConsumerRecord<String, byte[]> record : byChange.values()) {
            JsonNode value = Json.fromBytes(record.value(), JsonNode.class);
            assertEquals(List.of(), key.validate(Json.MAPPER.getNodeFactory().textNode(record.key())), record.key());
            assertEquals(List.of(), payload.validate(value), "payload: " + value);
            Map<String, String> named = new HashMap<>();
            for (Header header : record.headers()) {
                named.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
            assertEquals(List.of(), headers.validate(Json.MAPPER.valueToTree(named)), "headers: " + named);
            ChangeEvent event = Json.fromBytes(record.value(), ChangeEvent.class);
            assertEquals(event.changeId().toString(), named.get("ce_id"));
            assertEquals(record.key(), named.get("ce_subject"));
            assertEquals("org.sourceoftruth.object." + event.event(), named.get("ce_type"));
            assertEquals(Long.toString(event.sequence()), named.get("ce_sequence"));
            assertEquals("urn:test:records-api", named.get("ce_source"));
            assertEquals(ChangeEvent.SCHEMA_VERSION, event.schemaVersion());
            assertNotNull(event.rulesVersion(), "every change carries its rules version");
        }

        // the rules version: each change of a webhook or rule moves it on by one, and is stamped
        // with the version it made; other changes carry the version in force
        List<Long> versions = new ArrayList<>();
        for (String change : changes) {
            versions.add(Json.fromBytes(byChange.get(change).value(), ChangeEvent.class)
                    .rulesVersion());
        }
        long before = versions.get(0);
        assertEquals(List.of(before, before, before, before + 1, before + 2, before + 3, before + 3), versions);
    }

    @Test
    void changeEventsAreServedAsOnTheTopicWithFiltersAndCursorPaging() throws Exception {
        int site = Api.site("served");
        Api.auth()
                .body(Map.of("description", "served"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
        List<String> changes = changesOf("dcim.site", site);
        assertEquals(2, changes.size());
        Map<String, JsonNode> onTopic = new HashMap<>();
        awaitOnTopic(Set.copyOf(changes))
                .forEach(r -> onTopic.put(changeId(r), Json.fromBytes(r.value(), JsonNode.class)));

        // by change id: the same event as on the topic
        for (String change : changes) {
            JsonNode page = get("/api/core/change-events/?change_id=" + change);
            assertEquals(1, page.get("results").size());
            assertEquals(onTopic.get(change), page.get("results").get(0));
            assertTrue(page.get("next").isNull());
        }
        // by model, one a page, following next: every site change in sequence order, the two among them
        long first = Json.MAPPER
                .treeToValue(onTopic.get(changes.get(0)), ChangeEvent.class)
                .sequence();
        List<String> paged = new ArrayList<>();
        List<Long> sequences = new ArrayList<>();
        String next = "/api/core/change-events/?model=dcim.site&limit=1&sequence__gt=" + (first - 1);
        while (next != null) {
            JsonNode page = get(next);
            assertTrue(page.get("results").size() <= 1);
            page.get("results").forEach(e -> {
                paged.add(e.get("change_id").asText());
                sequences.add(e.get("sequence").asLong());
            });
            next = page.get("next").isNull() ? null : page.get("next").asText().replaceFirst("^https?://[^/]+", "");
        }
        assertTrue(paged.containsAll(changes), paged + " holds " + changes);
        assertEquals(sequences.stream().sorted().toList(), sequences, "in sequence order");
        // rules: only those after a version
        JsonNode rules = get("/api/core/change-events/?model=extras.eventrule,extras.webhook&rules_version__gt=0");
        rules.get("results")
                .forEach(e -> assertTrue(
                        ChangeEvent.RULE_MODELS.contains(e.get("model").asText())));
        // a time window that holds nothing
        assertEquals(
                0,
                get("/api/core/change-events/?time__lt=2000-01-01T00:00:00Z")
                        .get("results")
                        .size());
    }

    private static JsonNode get(String path) {
        return Json.fromBytes(
                Api.auth().get(path).then().statusCode(200).extract().asByteArray(), JsonNode.class);
    }

    @Test
    void badQueriesAreRefusedNamingTheParameterAndOnlySuperusersMayRead() {
        Map<String, String> bad = Map.of(
                "sequence__gt=abc", "sequence__gt",
                "sequence__lte=-1", "sequence__lte",
                "time__gte=yesterday", "time__gte",
                "model=dcim.nothing", "model",
                "change_id=not-a-uuid", "change_id",
                "limit=0", "limit",
                "limit=100000", "limit",
                "rules_version__gt=x", "rules_version__gt",
                "no_such_filter=1", "no_such_filter");
        bad.forEach((query, field) -> {
            Response response = Api.auth().get("/api/core/change-events/?" + query);
            assertEquals(400, response.statusCode(), query + ": " + response.asString());
            assertTrue(response.contentType().startsWith("application/json"), query);
            assertTrue(
                    response.jsonPath().getList(field) != null, query + " names " + field + ": " + response.asString());
            assertFalse(
                    response.asString().contains("Exception")
                            || response.asString().contains("SQL"),
                    query);
        });
        given().get("/api/core/change-events/").then().statusCode(403);
        Accounts.Account user = Accounts.account("events");
        given().header("Authorization", "Token " + user.token())
                .get("/api/core/change-events/")
                .then()
                .statusCode(403);
    }

    @Test
    void aNewLeaderDoesNotPublishAgainWhatThePreviousOnePublishedButDidNotMark() throws Exception {
        OutboxRelay relay = lifecycle.relay();
        relay.stop(Duration.ofSeconds(10));
        int site = Api.site("handover");
        String change = changesOf("dcim.site", site).get(0);
        // the dead leader's last act: its batch reached the broker, the mark did not reach the database
        ChangeEvent event;
        try (var connection = dataSource.getConnection();
                var select = connection.prepareStatement("""
                        select id, change_id, time, user_name, request_id, action, changed_object_type,
                               changed_object_id, event_data::text, prechange_data::text, postchange_data::text,
                               rules_version, request_method, request_path
                          from core_objectchange where change_id = ?::uuid""")) {
            select.setString(1, change);
            try (var row = select.executeQuery()) {
                row.next();
                event = new PendingChange(
                                row.getLong(1),
                                row.getObject(2, UUID.class),
                                row.getObject(3, java.time.OffsetDateTime.class),
                                row.getString(4),
                                row.getObject(5, UUID.class),
                                row.getString(6),
                                row.getString(7),
                                row.getLong(8),
                                row.getString(9),
                                row.getString(10),
                                row.getString(11),
                                row.getString(13),
                                row.getString(14),
                                (Long) row.getObject(12))
                        .toEvent();
            }
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            producer.send(new ProducerRecord<>(topic, event.kafkaKey(), Json.toBytes(event)))
                    .get();
        }
        assertEquals(1L, pending(change), "published, not marked");

        relay.start(); // the new leader
        await().atMost(WAIT).until(() -> pending(change) == 0);
        int after = Api.site("handover-after"); // and it goes on publishing
        String next = changesOf("dcim.site", after).get(0);
        awaitOnTopic(Set.of(change, next));
        synchronized (this) {
            long copies =
                    records.stream().filter(r -> changeId(r).equals(change)).count();
            assertEquals(1, copies, "the change is on the topic once");
        }
    }

    private long pending(String change) throws Exception {
        try (var connection = dataSource.getConnection();
                var select = connection.prepareStatement("""
                        select count(*) from core_objectchange_pending p join core_objectchange c on c.id = p.id
                         where c.change_id = ?::uuid""")) {
            select.setString(1, change);
            try (var row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
