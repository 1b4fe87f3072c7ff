package org.sourceoftruth.dispatcher.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/** The NetBox-specific pieces of a webhook request, without the application around them. */
class WebhookRequestBuilderTest {

    private static ChangeEvent event(String data) throws Exception {
        return new ChangeEvent(
                UUID.fromString("00000000-0000-0000-0000-000000000001"),
                5,
                "created",
                "ipam.prefix",
                12,
                OffsetDateTime.of(2026, 8, 20, 12, 0, 0, 123456000, ZoneOffset.ofHours(2)),
                "alice",
                "req-1",
                Json.MAPPER.readTree(data),
                new ChangeEvent.Snapshots(null, Json.MAPPER.readTree("{\"prefix\": \"10.0.0.0/8\"}")));
    }

    @Test
    void timestampsAreUtcWithMicroseconds() {
        assertEquals(
                "2026-08-20 10:00:00.123456+00:00",
                WebhookRequestBuilder.formatTimestamp(
                        OffsetDateTime.of(2026, 8, 20, 12, 0, 0, 123456000, ZoneOffset.ofHours(2))));
        assertEquals(
                "2026-08-20 10:00:00.000000+00:00",
                WebhookRequestBuilder.formatTimestamp(OffsetDateTime.of(2026, 8, 20, 10, 0, 0, 0, ZoneOffset.UTC)));
    }

    @Test
    void defaultBodyHasNetBoxKeysInOrder() throws Exception {
        assertEquals(
                "{\"event\": \"created\", \"timestamp\": \"2026-08-20 10:00:00.123456+00:00\", \"object_type\": \"ipam.prefix\", \"model\": \"prefix\", "
                        + "\"username\": \"alice\", \"request_id\": \"req-1\", \"data\": {\"id\": 12, \"prefix\": \"10.0.0.0/8\"}, "
                        + "\"snapshots\": {\"prechange\": null, \"postchange\": {\"prefix\": \"10.0.0.0/8\"}}}",
                WebhookRequestBuilder.defaultBody(event("{\"id\": 12, \"prefix\": \"10.0.0.0/8\"}")));
    }

    @Test
    void defaultBodyCarriesTheRequestOfTheChangeBetweenDataAndSnapshots() throws Exception {
        ChangeEvent base = event("{\"id\": 12, \"url\": \"/api/ipam/prefixes/12/\"}");
        ChangeEvent event = new ChangeEvent(
                base.changeId(),
                base.sequence(),
                base.event(),
                base.model(),
                base.objectId(),
                base.timestamp(),
                base.username(),
                base.requestId(),
                base.data(),
                base.snapshots(),
                new ChangeEvent.Request("req-1", "PATCH", "/api/ipam/prefixes/12/", "alice"));
        assertEquals(
                "{\"event\": \"created\", \"timestamp\": \"2026-08-20 10:00:00.123456+00:00\", \"object_type\": \"ipam.prefix\", \"model\": \"prefix\", "
                        + "\"username\": \"alice\", \"request_id\": \"req-1\", \"data\": {\"id\": 12, \"url\": \"/api/ipam/prefixes/12/\"}, "
                        + "\"request\": {\"id\": \"req-1\", \"method\": \"PATCH\", \"path\": \"/api/ipam/prefixes/12/\", \"user\": \"alice\"}, "
                        + "\"snapshots\": {\"prechange\": null, \"postchange\": {\"prefix\": \"10.0.0.0/8\"}}}",
                WebhookRequestBuilder.defaultBody(event));
        Map<String, Object> context = WebhookRequestBuilder.context(event, null);
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
                List.copyOf(context.keySet()));
        assertEquals(
                Map.of("id", "req-1", "method", "PATCH", "path", "/api/ipam/prefixes/12/", "user", "alice"),
                context.get("request"));
    }

    @Test
    void contextMergesActionDataUnderTheEventData() throws Exception {
        Map<String, Object> context = WebhookRequestBuilder.context(
                event("{\"id\": 12, \"team\": \"a\"}"), Json.MAPPER.readTree("{\"team\": \"b\", \"extra\": 1}"));
        assertEquals(
                List.of("event", "timestamp", "object_type", "model", "username", "request_id", "data", "snapshots"),
                List.copyOf(context.keySet()));
        assertEquals(Map.of("id", 12L, "team", "a", "extra", 1L), context.get("data"));
        assertEquals("ipam.prefix", context.get("object_type"));
        assertEquals("prefix", context.get("model"));
    }

    @Test
    void additionalHeadersAreNameValueLines() {
        List<RenderedRequest.Header> headers = WebhookRequestBuilder.parseHeaders(
                "X-One: 1\nno colon here\r\nX-Two:  two: with colon  \n: empty name\nHost: evil\nBad Name: x\n\nX-Empty:");
        assertEquals(
                List.of(
                        new RenderedRequest.Header("X-One", "1"),
                        new RenderedRequest.Header("X-Two", "two: with colon"),
                        new RenderedRequest.Header("X-Empty", "")),
                headers);
    }

    /** Headers the HTTP client controls are never sent, whatever a stored webhook (or a templated name) says. */
    @Test
    void headersTheClientControlsAreDropped() {
        List<RenderedRequest.Header> headers = WebhookRequestBuilder.parseHeaders("Transfer-Encoding: chunked\n"
                + "X-Keep: 1\nContent-Length: 3\nHOST: evil\nConnection: close\nTE: trailers\nTrailer: X-T\n"
                + "Keep-Alive: 5\nUpgrade: h2c\nProxy-Authorization: Basic eA==\nExpect: 100-continue");
        assertEquals(List.of(new RenderedRequest.Header("X-Keep", "1")), headers);
    }

    @Test
    void signatureIsHexHmacSha512OfTheBody() {
        // RFC 4231 test case 2
        assertEquals(
                "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
                WebhookRequestBuilder.sign("Jefe", "what do ya want for nothing?"));
    }

    @Test
    void targetHostIncludesTheDefaultPort() {
        assertEquals(
                "example.org:443",
                new RenderedRequest("POST", java.net.URI.create("https://Example.org/x"), List.of(), "").targetHost());
        assertEquals(
                "127.0.0.1:8080",
                new RenderedRequest("POST", java.net.URI.create("http://127.0.0.1:8080/"), List.of(), "").targetHost());
    }
}
