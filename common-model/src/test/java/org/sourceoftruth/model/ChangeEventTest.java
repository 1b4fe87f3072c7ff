package org.sourceoftruth.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ChangeEventTest {

    @Test
    void roundTripsThroughJsonWithSnakeCaseNames() throws Exception {
        JsonNode data = Json.MAPPER.readTree("{\"id\":7,\"name\":\"dc1\"}");
        ChangeEvent event = new ChangeEvent(
                UUID.randomUUID(),
                42,
                ChangeEvent.CREATED,
                "dcim.site",
                7,
                OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 123456000, ZoneOffset.UTC),
                "admin",
                UUID.randomUUID().toString(),
                data,
                new ChangeEvent.Snapshots(null, data));

        byte[] bytes = Json.toBytes(event);
        JsonNode tree = Json.MAPPER.readTree(bytes);
        assertTrue(tree.has("change_id") && tree.has("request_id") && tree.has("object_id"));
        assertTrue(tree.get("snapshots").get("prechange").isNull());
        assertEquals("2026-01-02T03:04:05.123456Z", tree.get("timestamp").asText());

        ChangeEvent back = Json.fromBytes(bytes, ChangeEvent.class);
        assertEquals(event, back);
        assertEquals("dcim.site:7", back.kafkaKey());
    }

    @Test
    void aTruncatedEventSaysSoAndACompleteOneLeavesTheFlagOut() throws Exception {
        JsonNode data = Json.MAPPER.readTree("{\"id\":7,\"name\":\"dc1\"}");
        ChangeEvent complete = new ChangeEvent(
                UUID.randomUUID(),
                42,
                ChangeEvent.UPDATED,
                "dcim.site",
                7,
                OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC),
                "admin",
                UUID.randomUUID().toString(),
                data,
                new ChangeEvent.Snapshots(data, data));
        ChangeEvent truncated = complete.truncatedTo(data, new ChangeEvent.Snapshots(null, null));

        assertFalse(Json.MAPPER.readTree(Json.toBytes(complete)).has("truncated"));
        assertTrue(
                Json.MAPPER.readTree(Json.toBytes(truncated)).get("truncated").asBoolean());
        assertEquals(truncated, Json.fromBytes(Json.toBytes(truncated), ChangeEvent.class));
        assertFalse(Json.fromBytes(Json.toBytes(complete), ChangeEvent.class).truncated());
    }

    @Test
    void carriesItsSchemaAndRulesVersionsAndReadsEventsThatHaveNeither() throws Exception {
        JsonNode data = Json.MAPPER.readTree("{\"id\":7}");
        ChangeEvent stamped = new ChangeEvent(
                UUID.randomUUID(),
                43,
                ChangeEvent.UPDATED,
                "dcim.site",
                7,
                OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC),
                "admin",
                UUID.randomUUID().toString(),
                data,
                new ChangeEvent.Snapshots(data, data),
                12L);
        JsonNode tree = Json.MAPPER.readTree(Json.toBytes(stamped));
        assertEquals(12, tree.get("rules_version").asLong());
        assertEquals(ChangeEvent.SCHEMA_VERSION, tree.get("schema_version").asInt());
        assertEquals(stamped, Json.fromBytes(Json.toBytes(stamped), ChangeEvent.class));
        assertEquals(12L, stamped.truncatedTo(data, null).rulesVersion());

        JsonNode unstamped = Json.MAPPER.readTree(Json.toBytes(stamped.withRulesVersion(null)));
        assertFalse(unstamped.has("rules_version"), "no version, no field");
        assertEquals(ChangeEvent.SCHEMA_VERSION, unstamped.get("schema_version").asInt());

        // as records-api published events before either field existed
        ChangeEvent older = Json.MAPPER.readValue("""
                {"change_id": "%s", "sequence": 5, "event": "created", "model": "dcim.site", "object_id": 7,
                 "timestamp": "2026-01-02T03:04:05Z", "username": "admin", "request_id": "r", "data": {"id": 7},
                 "snapshots": {"prechange": null, "postchange": null}}""".formatted(UUID.randomUUID()), ChangeEvent.class);
        assertEquals(0, older.schemaVersion());
        assertEquals(null, older.rulesVersion());
    }
}
