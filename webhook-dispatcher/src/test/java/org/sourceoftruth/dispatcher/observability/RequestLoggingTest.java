package org.sourceoftruth.dispatcher.observability;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;

/**
 * The dispatcher's JSON log lines of a request carry its X-Request-ID, user and route template,
 * and each request has one access line (read from target/test-log.json, written by the test
 * profile's JSON file handler).
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class RequestLoggingTest {
    /** The JSON log and its last rotated part (the handler rotates at 10 MB; a long run may rotate mid-test). */
    private static final List<Path> LOGS = List.of(Path.of("target/test-log.json"), Path.of("target/test-log.json.1"));

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void accessLineOfAnAdminRequestCarriesItsRequestIdUserAndRoute() throws Exception {
        String token = Fixtures.token(Fixtures.user("log-admin", true, true), true, null);
        String id = given().header("Authorization", "Token " + token)
                .get("/api/core/background-queues/default/")
                .then()
                .extract()
                .header("X-Request-ID");
        assertFalse(id == null || id.isBlank(), "the response names its request id");

        JsonNode mdc = await().atMost(Duration.ofSeconds(10))
                .until(() -> accessLine(id), found -> found != null)
                .get("mdc");
        assertEquals(id, mdc.path("request_id").asText());
        assertEquals("log-admin", mdc.path("user").asText());
        assertEquals("/api/core/background-queues/{name}", mdc.path("route").asText());
        assertEquals("GET", mdc.path("method").asText());
    }

    private static JsonNode accessLine(String requestId) throws IOException {
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
                if ("sot.access".equals(node.path("loggerName").asText())
                        && requestId.equals(node.path("mdc").path("request_id").asText())) {
                    found.add(node);
                }
            }
        }
        return found.isEmpty() ? null : found.get(0);
    }
}
