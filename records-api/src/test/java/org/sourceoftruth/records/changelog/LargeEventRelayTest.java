package org.sourceoftruth.records.changelog;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.Management;

/**
 * Large objects and rows that can never be published must not stop the events behind them.
 * The event ceiling is 2 MiB here (8 MiB by default) so that the tests stay small;
 * the producer keeps its defaults, and the topic allows the ceiling, as deploy/local/stack creates it.
 */
@QuarkusTest
@TestProfile(LargeEventRelayTest.Profile.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LargeEventRelayTest {

    static final int CEILING = 2 * 1024 * 1024;

    public static class Profile extends UniqueTopicProfile {
        @Override
        protected Map<String, String> extraConfig() {
            return Map.of("sot.outbox.max-event-bytes", String.valueOf(CEILING));
        }
    }

    private static final Duration DELIVERY = Duration.ofSeconds(60);

    @Inject
    DataSource dataSource;

    @Inject
    ChangeLogRetention retention;

    @ConfigProperty(name = "sot.changes-topic")
    String topic;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private ChangeLogTable table;

    @BeforeAll
    void createTopic() {
        TopicReader.createTopic(
                bootstrapServers,
                topic,
                3,
                Map.of("max.message.bytes", String.valueOf(CEILING + ChangePublisher.RECORD_OVERHEAD_BYTES)));
        table = new ChangeLogTable(dataSource);
    }

    @AfterAll
    void deleteTopic() {
        TopicReader.deleteTopic(bootstrapServers, topic);
    }

    @Test
    void aSiteWithA600000CharacterCommentIsPublishedWholeAndTheNextChangeToo() {
        String comment = randomText(600_000);
        int large = createSite(comment);
        int next = Api.site("after-large");

        ChangeEvent event = eventOf(large);
        assertFalse(event.truncated(), "under the ceiling, the event is complete");
        assertEquals(comment, event.data().get("comments").asText());
        assertEquals(comment, event.snapshots().postchange().get("comments").asText());
        assertEquals(next, eventOf(next).objectId(), "the change after the large one is published");
    }

    @Test
    void anObjectAboveTheCeilingArrivesReducedAndFlaggedAndTheLogKeepsItWhole() throws Exception {
        String comment = randomText(1_500_000); // data + postchange: about 3 MB, over the 2 MiB ceiling
        int large = createSite(comment);
        int next = Api.site("after-reduced");

        ChangeEvent event = eventOf(large);
        assertTrue(event.truncated(), "flagged truncated");
        assertEquals(ChangeEvent.CREATED, event.event());
        assertEquals("dcim.site", event.model());
        assertEquals(large, event.data().get("id").asLong());
        assertEquals(
                comment.substring(0, EventEncoder.KEPT_CHARS),
                event.data().get("comments").asText());
        assertEquals(
                comment.substring(0, EventEncoder.KEPT_CHARS),
                event.snapshots().postchange().get("comments").asText());
        ChangeLogTable.Row row =
                table.ofRequest(UUID.fromString(event.requestId())).get(0);
        assertEquals(row.changeId(), event.changeId());
        assertEquals(row.id(), event.sequence());
        Api.auth()
                .get("/api/core/object-changes/" + event.sequence() + "/")
                .then()
                .statusCode(200)
                .body("postchange_data.comments", equalTo(comment));
        assertEquals(next, eventOf(next).objectId(), "the change after the reduced one is published");
        assertTrue(relayCheck().get("data").get("truncated").asLong() >= 1, "readiness counts truncated events");
    }

    @Test
    void aRowThatCanNeverBePublishedIsParkedShownAndKeptWhileLaterRowsArePublished() throws Exception {
        // A row no event can be made of (an action no version of the API writes), then a normal change.
        int siteId = ThreadLocalRandom.current().nextInt(1_000_000_000, 2_000_000_000);
        long poisoned = (Long) table.single("""
                insert into core_objectchange (change_id, request_id, action, changed_object_type, changed_object_id,
                                               object_repr, postchange_data, event_data)
                values (gen_random_uuid(), gen_random_uuid(), 'bogus', 'dcim.site', ?, 'poisoned', '{}', '{}')
                returning id""", siteId);
        int next = Api.site("after-parked");

        assertEquals(next, eventOf(next).objectId(), "the change after the parked row is published");
        await().atMost(DELIVERY).until(() -> parkReason(poisoned) != null);
        assertTrue(parkReason(poisoned).contains("unknown action bogus"), parkReason(poisoned));

        JsonNode relay = relayCheck();
        assertEquals("UP", relay.get("status").asText(), "parked rows do not take the replica out of service");
        assertTrue(relay.get("data").get("parked").asLong() >= 1, "readiness counts parked rows: " + relay);
        assertTrue(
                Management.given()
                        .get("/q/metrics")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString()
                        .contains("sot_outbox_parked_rows"),
                "metrics show parked rows");

        Api.auth()
                .get("/api/core/outbox/parked/")
                .then()
                .statusCode(200)
                .body("results.find { it.id == " + poisoned + " }.park_reason", equalTo(parkReason(poisoned)))
                .body("results.find { it.id == " + poisoned + " }.changed_object_id", equalTo(siteId));
        given().get("/api/core/outbox/parked/").then().statusCode(403);

        // Retention never deletes it, however old.
        table.update("update core_objectchange set time = now() - interval '400 days' where id = ?", poisoned);
        retention.purge(90);
        assertEquals(1L, table.single("select count(*) from core_objectchange where id = ?", poisoned));

        // A retry hands it back to the relay, which parks it again: it still cannot be an event.
        Api.auth()
                .post("/api/core/outbox/parked/" + poisoned + "/retry/")
                .then()
                .statusCode(200)
                .body("park_reason", nullValue());
        await().atMost(DELIVERY).until(() -> parkReason(poisoned) != null);
        long published = table.ofSites(next, 1).get(0).id();
        Api.auth()
                .post("/api/core/outbox/parked/" + published + "/retry/")
                .then()
                .statusCode(404);

        table.update("delete from core_objectchange where id = ?", poisoned);
    }

    private String parkReason(long id) {
        return (String) table.single("select park_reason from core_objectchange where id = ?", id);
    }

    private static int createSite(String comment) {
        String name = "large-" + Api.uniq();
        return Api.create("/api/dcim/sites/", Map.of("name", name, "slug", name, "comments", comment));
    }

    /** Letters and digits at random: compresses about as badly as real prose does not. */
    static String randomText(int length) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
        StringBuilder text = new StringBuilder(length);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    /** The (first) event of the site's creation on the topic. */
    private ChangeEvent eventOf(long siteId) {
        String key = "dcim.site:" + siteId;
        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            List<TopicReader.Received> read = reader.readUntil(
                    all -> all.stream().anyMatch(one -> one.key().equals(key)), DELIVERY);
            return read.stream()
                    .filter(one -> one.key().equals(key))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no event of " + key + " on " + topic))
                    .event();
        }
    }

    private static JsonNode relayCheck() throws Exception {
        JsonNode health = Json.MAPPER.readTree(
                Management.given().get("/q/health/ready").then().extract().asString());
        for (JsonNode check : health.get("checks")) {
            if (check.get("name").asText().equals(OutboxRelayHealthCheck.NAME)) {
                return check;
            }
        }
        throw new AssertionError("readiness lists no relay: " + health);
    }
}
