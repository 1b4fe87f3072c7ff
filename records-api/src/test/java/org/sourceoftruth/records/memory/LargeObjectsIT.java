package org.sourceoftruth.records.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * The packaged records-api with the heap the stack gives it (-Xmx160m, serial collector, exit on
 * OutOfMemoryError), holding three sites with 1, 5 and 9.5 MB of comments: 64 parallel reads of
 * their list page, and parallel reads of the largest one, bulk PATCHes of the three and exports
 * of them through an export template, are all answered 2xx and whole, and the process is still
 * running at the end without an OutOfMemoryError in its log. (16 parallel reads of the page had
 * answered 10 times 500 with OutOfMemoryError; with the exit option the process ended.) Real
 * PostgreSQL and Kafka; runs in failsafe, after records-api is packaged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LargeObjectsIT {

    private static final String TOKEN =
            "1a2b3c4d5e" + UUID.randomUUID().toString().replace("-", "").substring(0, 30);
    private static final int[] SIZES = {1_000_000, 5_000_000, 9_500_000};
    private static final Duration ANSWER = Duration.ofMinutes(5);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private RecordsApiProcess api;
    private final List<Long> ids = new ArrayList<>();
    private String page;

    @BeforeAll
    void start() throws Exception {
        String database = env("TEST_DB_NAME", "sot_test");
        String jdbcUrl =
                "jdbc:postgresql://" + env("DB_HOST", "127.0.0.1") + ":" + env("DB_PORT", "5432") + "/" + database;
        try (Connection connection =
                        DriverManager.getConnection(jdbcUrl, env("DB_USER", "sot"), env("DB_PASSWORD", "sot"));
                Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists public cascade");
            statement.execute("create schema public");
        }
        api = RecordsApiProcess.launcher()
                .name("large-objects-it")
                .database(database)
                .kafka(
                        env("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092"),
                        "sot-it.large-objects." + UUID.randomUUID().toString().substring(0, 8))
                .superuser("large-it-admin", "Large-it-Password-1", TOKEN)
                .env("PASSWORD_HASH_ITERATIONS", "1000")
                .env("ACCESS_LOG_LEVEL", "WARN")
                .jvm("-Xmx160m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError")
                .start();
        long tenant = send("POST", "/api/tenancy/tenants/", Map.of("name", "large", "slug", "large"))
                .get("id")
                .asLong();
        for (int size : SIZES) {
            ids.add(send(
                            "POST",
                            "/api/dcim/sites/",
                            Map.of(
                                    "name",
                                    "large-" + size,
                                    "slug",
                                    "large-" + size,
                                    "tenant",
                                    tenant,
                                    "comments",
                                    "c".repeat(size)))
                    .get("id")
                    .asLong());
        }
        send(
                "POST",
                "/api/extras/export-templates/",
                Map.of(
                        "name",
                        "sizes",
                        "object_types",
                        List.of("dcim.site"),
                        "template_code",
                        "{% for s in queryset %}{{ s.name }} {{ s.comments|length }}\n{% endfor %}"));
        page = "/api/dcim/sites/?tenant=large";
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    @Timeout(900)
    void parallelReadsWritesAndExportsOfLargeObjectsAreAllAnsweredAndTheProcessLives() throws Exception {
        JsonNode whole = send("GET", page, null);
        assertEquals(3, whole.get("count").asInt());
        for (int i = 0; i < SIZES.length; i++) {
            JsonNode site = whole.get("results").get(i);
            assertEquals(ids.get(i), site.get("id").asLong());
            assertEquals(SIZES[i], site.get("comments").asText().length(), "the page carries the comments whole");
        }
        long pageBytes = Json.MAPPER.writeValueAsBytes(whole).length;

        Outcomes list = parallel(64, "GET", page, null);
        assertEquals(Map.of(200, 64), list.statuses, "64 parallel reads of the page");
        assertEquals(1, list.sizes.size(), "every page is the same size: " + list.sizes);
        assertTrue(
                Math.abs(list.sizes.keySet().iterator().next() - pageBytes) < 1024,
                "the page as read alone: " + list.sizes + " vs " + pageBytes);

        Outcomes detail = parallel(16, "GET", "/api/dcim/sites/" + ids.get(2) + "/", null);
        assertEquals(Map.of(200, 16), detail.statuses, "16 parallel reads of the 9.5 MB site");
        assertTrue(detail.sizes.keySet().iterator().next() > SIZES[2], "whole: " + detail.sizes);

        List<Map<String, Object>> bulk = new ArrayList<>();
        ids.forEach(id -> bulk.add(Map.of("id", id, "description", "patched")));
        Outcomes patches = parallel(16, "PATCH", "/api/dcim/sites/", bulk);
        assertEquals(Map.of(200, 16), patches.statuses, "16 parallel bulk PATCHes of the three");
        assertTrue(patches.sizes.keySet().iterator().next() > SIZES[2] + SIZES[1], "whole: " + patches.sizes);

        Outcomes exports = parallel(8, "GET", page + "&export=sizes", null);
        assertEquals(Map.of(200, 8), exports.statuses, "8 parallel exports");
        String exported = body("GET", page + "&export=sizes", null);
        for (int size : SIZES) {
            assertTrue(exported.contains("large-" + size + " " + size), "the export shows every site: " + exported);
        }

        assertTrue(api.isAlive(), "records-api still runs");
        String log = Files.readString(api.log());
        assertFalse(log.contains("OutOfMemoryError"), "no OutOfMemoryError: " + api.tail());
        HttpResponse<String> live = http.send(
                HttpRequest.newBuilder(URI.create(api.managementUrl() + "/q/health/live"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, live.statusCode(), live.body());
    }

    /** Statuses and body sizes (bytes) of {@code clients} identical requests sent at once. */
    private record Outcomes(Map<Integer, Integer> statuses, Map<Long, Integer> sizes) {}

    private Outcomes parallel(int clients, String method, String path, Object body) throws Exception {
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        Map<Long, Integer> sizes = new ConcurrentHashMap<>();
        AtomicInteger failures = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                done.add(pool.submit(() -> {
                    try {
                        HttpResponse<InputStream> response =
                                http.send(request(method, path, body), HttpResponse.BodyHandlers.ofInputStream());
                        long bytes = 0;
                        try (InputStream in = response.body()) {
                            byte[] buffer = new byte[1 << 16];
                            for (int n; (n = in.read(buffer)) >= 0; ) {
                                bytes += n;
                            }
                        }
                        statuses.merge(response.statusCode(), 1, Integer::sum);
                        if (response.statusCode() < 300) {
                            sizes.merge(bytes, 1, Integer::sum);
                        }
                    } catch (IOException | InterruptedException e) {
                        failures.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> one : done) {
                one.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, failures.get(), "requests without an answer (connection lost): " + api.tail());
        return new Outcomes(new TreeMap<>(statuses), new TreeMap<>(sizes));
    }

    private JsonNode send(String method, String path, Object body) throws Exception {
        return Json.MAPPER.readTree(body(method, path, body));
    }

    private String body(String method, String path, Object body) throws Exception {
        HttpResponse<String> response = http.send(request(method, path, body), HttpResponse.BodyHandlers.ofString());
        assertTrue(
                response.statusCode() < 300,
                method + " " + path + " -> " + response.statusCode() + ": "
                        + response.body()
                                .substring(0, Math.min(500, response.body().length())));
        return response.body();
    }

    private HttpRequest request(String method, String path, Object body) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api.url() + path))
                .timeout(ANSWER)
                .header("Authorization", "Token " + TOKEN)
                .header("Accept", "application/json");
        if (body == null) {
            return request.method(method, HttpRequest.BodyPublishers.noBody()).build();
        }
        return request.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(body)))
                .build();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
