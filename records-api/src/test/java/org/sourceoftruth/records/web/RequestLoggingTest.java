package org.sourceoftruth.records.web;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.observability.RequestLog;
import org.sourceoftruth.records.Api;

/**
 * The JSON log lines of a request carry its X-Request-ID, user and route template, and each
 * request has one access line. Reads the JSON lines the test profile writes to
 * target/test-log.json (application.properties), as a log collector would read LOG_JSON output.
 */
@QuarkusTest
class RequestLoggingTest {
    /** The JSON log and its last rotated part (the handler rotates at 10 MB; a long run may rotate mid-test). */
    private static final List<Path> LOGS = List.of(Path.of("target/test-log.json"), Path.of("target/test-log.json.1"));

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void jsonLinesOfARequestCarryItsRequestIdUserAndRoute() {
        String id =
                Api.auth().get("/api/dcim/sites/2000000001/").then().extract().header("X-Request-ID");
        assertFalse(id == null || id.isBlank(), "the response names its request id");

        List<JsonNode> lines = await().atMost(Duration.ofSeconds(10))
                .until(() -> linesOf(id), found -> found.stream().anyMatch(RequestLoggingTest::isAccessLine));
        JsonNode access = lines.stream()
                .filter(RequestLoggingTest::isAccessLine)
                .findFirst()
                .orElseThrow();
        JsonNode mdc = access.get("mdc");
        assertEquals(id, mdc.path("request_id").asText());
        assertEquals("admin", mdc.path("user").asText());
        assertEquals("/api/{app}/{model}/{id: [0-9]+}", mdc.path("route").asText());
        assertEquals("GET", mdc.path("method").asText());
        assertEquals("404", mdc.path("status").asText());
        assertTrue(mdc.path("duration_ms").asLong(-1) >= 0, "duration: " + mdc);
        assertEquals(
                "GET /api/{app}/{model}/{id: [0-9]+} 404 "
                        + mdc.path("duration_ms").asText() + " ms",
                access.path("message").asText());

        // A line written on the worker thread that ran the resource has the request id that
        // HttpFilters put into the MDC on the event loop, and the user the worker's AuthFilter set.
        JsonNode inResource = lines.stream()
                .filter(l -> l.path("loggerName").asText().endsWith("RequestLogging"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line from the resource's thread: " + lines));
        assertEquals("admin", inResource.get("mdc").path("user").asText());
        assertEquals(
                "/api/{app}/{model}/{id: [0-9]+}",
                inResource.get("mdc").path("route").asText());
        assertTrue(inResource.path("threadName").asText().startsWith("executor-thread"), inResource.toString());
    }

    @Test
    void unmatchedPathsShareOneRouteAndAnonymousRequestsHaveNoUser() {
        String id = given().get("/no/such/" + Api.uniq())
                .then()
                .statusCode(404)
                .extract()
                .header("X-Request-ID");
        List<JsonNode> lines = await().atMost(Duration.ofSeconds(10))
                .until(() -> linesOf(id), found -> found.stream().anyMatch(RequestLoggingTest::isAccessLine));
        JsonNode mdc = lines.stream()
                .filter(RequestLoggingTest::isAccessLine)
                .findFirst()
                .orElseThrow()
                .get("mdc");
        assertEquals(RequestLog.UNMATCHED, mdc.path("route").asText());
        assertFalse(mdc.has("user"), "anonymous: " + mdc);
    }

    private static boolean isAccessLine(JsonNode line) {
        return "sot.access".equals(line.path("loggerName").asText());
    }

    private static List<JsonNode> linesOf(String requestId) throws IOException {
        List<JsonNode> found = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (Path log : LOGS) {
            if (Files.exists(log)) {
                lines.addAll(Files.readAllLines(log));
            }
        }
        for (String line : lines) {
            if (line.contains(requestId)) {
                JsonNode node = JSON.readTree(line);
                if (requestId.equals(node.path("mdc").path("request_id").asText())) {
                    found.add(node);
                }
            }
        }
        return found;
    }
}
