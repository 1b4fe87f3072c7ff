package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/** The reduced forms of an event over the ceiling (no broker needed: pure serialization). */
class EventEncoderTest {

    private static final int CEILING = 64 * 1024;

    @Test
    void anEventUnderTheCeilingIsPublishedAsItIs() throws Exception {
        ChangeEvent event = event(site("x".repeat(10_000)));
        EventEncoder.Encoded encoded = new EventEncoder(CEILING).encode(event);
        assertFalse(encoded.truncated());
        assertEquals(event, Json.fromBytes(encoded.bytes(), ChangeEvent.class));
    }

    @Test
    void longStringsAreCutFirst() throws Exception {
        ChangeEvent event = event(site("x".repeat(100_000)));
        EventEncoder.Encoded encoded = new EventEncoder(CEILING).encode(event);
        ChangeEvent reduced = Json.fromBytes(encoded.bytes(), ChangeEvent.class);
        assertTrue(encoded.truncated() && reduced.truncated());
        assertEquals(
                "x".repeat(EventEncoder.KEPT_CHARS),
                reduced.data().get("comments").asText());
        assertEquals(
                "x".repeat(EventEncoder.KEPT_CHARS),
                reduced.snapshots().postchange().get("comments").asText());
        assertEquals("dc1", reduced.data().get("name").asText(), "short values stay");
        assertEquals(event.changeId(), reduced.changeId());
    }

    @Test
    void manySmallValuesLeaveOnlyTheIdentity() throws Exception {
        ObjectNode data = site("short");
        ArrayNode many = data.putArray("many");
        for (int i = 0; i < 20_000; i++) {
            many.add("value " + i);
        }
        ChangeEvent reduced =
                Json.fromBytes(new EventEncoder(CEILING).encode(event(data)).bytes(), ChangeEvent.class);
        assertTrue(reduced.truncated());
        assertEquals(
                Json.MAPPER.readTree("{\"id\":7,\"url\":\"/api/dcim/sites/7/\",\"display\":\"dc1\"}"), reduced.data());
        assertNull(reduced.snapshots());
    }

    @Test
    void aRowsRawJsonIsPublishedVerbatimAndCutLikeATree() throws Exception {
        // the relay passes a change-log row's JSON columns through as the text PostgreSQL sent
        String data = Json.MAPPER.writeValueAsString(site("x".repeat(100_000)));
        PendingChange row = new PendingChange(
                3,
                UUID.randomUUID(),
                OffsetDateTime.parse("2026-11-23T10:00:00Z"),
                "admin",
                UUID.randomUUID(),
                "update",
                "dcim.site",
                7,
                data,
                null,
                data,
                "PATCH",
                "/api/dcim/sites/7/",
                4L);
        EventEncoder.Encoded full = new EventEncoder(1024 * 1024).encode(row.toEvent());
        assertFalse(full.truncated());
        ChangeEvent read = Json.fromBytes(full.bytes(), ChangeEvent.class);
        assertEquals(
                new ChangeEvent.Request(row.requestId().toString(), "PATCH", "/api/dcim/sites/7/", "admin"),
                read.request());
        assertEquals(Json.MAPPER.readTree(data), read.data());
        assertNull(read.snapshots().prechange());
        assertEquals(Json.MAPPER.readTree(data), read.snapshots().postchange());

        ChangeEvent reduced =
                Json.fromBytes(new EventEncoder(CEILING).encode(row.toEvent()).bytes(), ChangeEvent.class);
        assertTrue(reduced.truncated());
        assertEquals(
                "x".repeat(EventEncoder.KEPT_CHARS),
                reduced.data().get("comments").asText());
        assertEquals(
                "x".repeat(EventEncoder.KEPT_CHARS),
                reduced.snapshots().postchange().get("comments").asText());
        assertEquals("dc1", reduced.data().get("name").asText());
        assertEquals("PATCH", reduced.request().method(), "a reduced event keeps its request");
    }

    @Test
    void anEventThatFitsInNoFormIsRefused() {
        assertThrows(EventEncoder.TooLargeException.class, () -> new EventEncoder(100).encode(event(site("a"))));
    }

    private static ObjectNode site(String comments) {
        ObjectNode site = Json.MAPPER
                .createObjectNode()
                .put("id", 7)
                .put("url", "/api/dcim/sites/7/")
                .put("display", "dc1")
                .put("name", "dc1");
        site.put("comments", comments);
        return site;
    }

    private static ChangeEvent event(JsonNode data) {
        return new ChangeEvent(
                UUID.randomUUID(),
                1,
                ChangeEvent.CREATED,
                "dcim.site",
                7,
                OffsetDateTime.parse("2026-11-23T10:00:00.123456Z"),
                "admin",
                UUID.randomUUID().toString(),
                data,
                new ChangeEvent.Snapshots(null, data));
    }
}
