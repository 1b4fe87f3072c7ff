package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * The outbox relay of the packaged records-api (a child process, as in production) against a
 * Kafka broker of the test's own ({@link ScratchKafkaBroker}), with changes written through the
 * REST API. Two faults, in order, on one database and topic:
 * <ol>
 * <li>The broker is SIGKILLed while changes are being written, 200 more are written while it is
 * away (each write must stay fast), and it comes back on its storage.</li>
 * <li>records-api is SIGKILLed while its relay drains a backlog of 2,000 changes, and started
 * again.</li>
 * </ol>
 * After each, every change committed in core_objectchange must be on the topic, and per object the
 * first copies in commit order (change-log id order). Repeats are allowed after a fault: each
 * carries its change id. Runs in failsafe (verify), after records-api has been packaged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RelayFaultIT {

    private static final int SITES = 50;
    private static final String TOKEN =
            "5e1a7f0a17" + UUID.randomUUID().toString().replace("-", "").substring(0, 30);
    private static final Duration DRAIN = Duration.ofSeconds(120);
    /** Held, so the level sticks: the test's own admin clients log every reconnect at INFO. */
    private static final java.util.logging.Logger KAFKA_LOG = java.util.logging.Logger.getLogger("org.apache.kafka");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String topic =
            "sot-it.relay-fault." + UUID.randomUUID().toString().substring(0, 8);
    private String jdbcUrl;
    private ScratchKafkaBroker broker;
    private RecordsApiProcess.Launcher launcher;
    private RecordsApiProcess api;
    private long[] siteIds;
    private int[] versions;

    @BeforeAll
    void start() throws Exception {
        KAFKA_LOG.setLevel(java.util.logging.Level.WARNING);
        Path libs = ScratchKafkaBroker.libs();
        assumeTrue(
                Files.isDirectory(libs),
                "No Kafka jars at " + libs + " (set KAFKA_LIBS, or let deploy/local/stack"
                        + " fetch them into .local/kafka/libs): skipping the relay fault test");
        String database = env("TEST_DB_NAME", "sot_test");
        jdbcUrl = "jdbc:postgresql://" + env("DB_HOST", "127.0.0.1") + ":" + env("DB_PORT", "5432") + "/" + database;
        resetDatabase();

        broker = ScratchKafkaBroker.start(libs, ScratchKafkaBroker.freePortPair());
        TopicReader.createTopic(broker.address(), topic, 3);
        launcher = RecordsApiProcess.launcher()
                .name("relay-fault-it")
                .database(database)
                .kafka(broker.address(), topic)
                .superuser("relay-it-admin", "Relay-it-Password-1", TOKEN)
                .env("PASSWORD_HASH_ITERATIONS", "1000")
                // Notice a dead broker within seconds and retry often, to keep the test short.
                .property("kafka.request.timeout.ms", "1500")
                .property("kafka.max.block.ms", "2000")
                .property("kafka.reconnect.backoff.max.ms", "500")
                // The readiness Kafka check's admin client gives up after this (default 60 s), so
                // readiness (where the relay's state shows) answers during the outage.
                .property("kafka.default.api.timeout.ms", "3000")
                .property("sot.outbox.max-backoff", "1s")
                .property("sot.outbox.standby-retry", "500ms")
                // Small batches: draining a backlog takes many rounds, so the kill lands inside one.
                .property("sot.outbox.batch-size", "25");
        api = launcher.start();
        awaitLeader();
        createSites();
    }

    @AfterAll
    void stop() {
        try {
            if (api != null) {
                api.kill();
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    @Test
    @Order(1)
    @Timeout(180)
    void everyChangeArrivesAfterTheBrokerIsKilledMidRunAndRestarted() throws Exception {
        while (committedChanges() < 1_000) { // 1,000 changes of 50 sites with the broker up
            patchRandomSites(5);
        }
        awaitBacklog(0, DRAIN);
        Deliveries healthy = assertEverythingOnTheTopic();
        assertEquals(1_000, healthy.distinctChanges());
        assertEquals(healthy.distinctChanges(), healthy.copies(), "no repeats while the broker is healthy");

        for (int i = 0; i < 20; i++) { // 100 more, and the broker dies halfway through them
            patchRandomSites(5);
            if (i == 10) {
                broker.kill();
            }
        }
        List<Long> outageWrites = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // 200 while it is away
            outageWrites.add(patchRandomSites(5));
        }
        assertEquals(1_300, committedChanges());
        Collections.sort(outageWrites);
        long medianMillis = outageWrites.get(outageWrites.size() / 2) / 1_000_000;
        long slowestMillis = outageWrites.get(outageWrites.size() - 1) / 1_000_000;
        // A write that waited for Kafka would take max.block.ms (2 s) or more, every time.
        assertTrue(
                medianMillis < 1_000 && slowestMillis < 5_000,
                "writes do not wait for Kafka: median " + medianMillis + " ms, slowest " + slowestMillis + " ms");
        long backlogDuringOutage = backlog();
        assertTrue(backlogDuringOutage >= 200, "the changes written during the outage wait: " + backlogDuringOutage);
        JsonNode relay = awaitRelay(
                Duration.ofSeconds(60),
                "the relay to report the outage",
                data -> data.hasNonNull("waiting_for_kafka_since")
                        || data.path("last_error").asText().startsWith("kafka"));

        broker.restart();
        long restarted = System.nanoTime();
        awaitBacklog(0, DRAIN);
        long drainMillis = (System.nanoTime() - restarted) / 1_000_000;
        Deliveries deliveries = assertEverythingOnTheTopic();
        System.out.printf(
                "RelayFaultIT broker kill: %d changes, %d copies read (%d repeats); %d waited during the"
                        + " outage (relay: %s); writes during the outage median %d ms, slowest %d ms; backlog drained"
                        + " %d ms after the broker was back%n",
                deliveries.distinctChanges(),
                deliveries.copies(),
                deliveries.copies() - deliveries.distinctChanges(),
                backlogDuringOutage,
                relay,
                medianMillis,
                slowestMillis,
                drainMillis);
    }

    @Test
    @Order(2)
    @Timeout(240)
    void noChangeIsLostWhenRecordsApiIsKilledWhileDraining() throws Exception {
        awaitBacklog(0, DRAIN);
        broker.kill(); // build a backlog: 2,000 changes, 50 per request, while nothing can be published
        for (int i = 0; i < 40; i++) {
            patchSites(IntStream.range(0, SITES).toArray());
        }
        long backlog = backlog();
        assertTrue(backlog >= 2_000, "backlog before the broker comes back: " + backlog);

        CompletableFuture<Void> brokerBack = CompletableFuture.runAsync(() -> {
            try {
                broker.restart();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long leftAtKill = awaitDrainStartedThenKill(backlog);
        brokerBack.get();
        assertTrue(
                leftAtKill > 0 && leftAtKill < backlog,
                "killed while draining: " + leftAtKill + " of " + backlog + " left");

        long restart = System.nanoTime();
        api = launcher.start();
        awaitLeader();
        long startMillis = (System.nanoTime() - restart) / 1_000_000;
        patchSites(IntStream.range(0, SITES).toArray()); // and it goes on with new changes
        awaitBacklog(0, DRAIN);
        long drainMillis = (System.nanoTime() - restart) / 1_000_000;
        Deliveries deliveries = assertEverythingOnTheTopic();
        System.out.printf(
                "RelayFaultIT records-api kill: %d changes, %d copies read (%d repeats); killed with %d of"
                        + " %d left to publish; restarted (ready, leader) in %d ms, backlog drained %d ms after the"
                        + " restart began%n",
                deliveries.distinctChanges(),
                deliveries.copies(),
                deliveries.copies() - deliveries.distinctChanges(),
                leftAtKill,
                backlog,
                startMillis,
                drainMillis);
    }

    /** Once the relay has published at least a few batches of the backlog, SIGKILL records-api. */
    private long awaitDrainStartedThenKill(long backlog) throws Exception {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            while (System.nanoTime() < deadline) {
                long left = count(statement, "select count(*) from core_objectchange_pending");
                if (left <= backlog - 100) {
                    api.kill();
                    api = null;
                    return count(statement, "select count(*) from core_objectchange_pending");
                }
                Thread.sleep(5);
            }
        }
        return fail("the relay did not start draining within " + DRAIN);
    }

    /**
     * Every committed change is on the topic, and per object the first copies come in commit order;
     * nothing is on the topic that was not committed.
     */
    private Deliveries assertEverythingOnTheTopic() throws SQLException {
        Map<String, List<UUID>> committed = new LinkedHashMap<>();
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select changed_object_type, changed_object_id, change_id"
                        + " from core_objectchange order by id")) {
            while (rows.next()) {
                committed
                        .computeIfAbsent(rows.getString(1) + ":" + rows.getLong(2), key -> new ArrayList<>())
                        .add(rows.getObject(3, UUID.class));
            }
        }
        Deliveries deliveries;
        try (TopicReader reader = new TopicReader(broker.address(), topic)) {
            deliveries = new Deliveries(reader.readToEnd(Duration.ofSeconds(60)), key -> true);
        }
        Map<String, List<UUID>> arrived = deliveries.firstCopyIdsByKey();
        Set<UUID> committedIds = new HashSet<>();
        committed.values().forEach(committedIds::addAll);
        Set<UUID> missing = new HashSet<>(committedIds);
        missing.removeAll(deliveries.changeIds());
        Set<UUID> unexpected = new HashSet<>(deliveries.changeIds());
        unexpected.removeAll(committedIds);
        assertTrue(
                missing.isEmpty(),
                missing.size() + " of " + committedIds.size() + " committed changes never" + " arrived, e.g. "
                        + missing.stream().limit(5).toList());
        assertTrue(unexpected.isEmpty(), unexpected.size() + " changes arrived that were never committed");
        List<String> outOfOrder = committed.keySet().stream()
                .filter(key -> !committed.get(key).equals(arrived.get(key)))
                .toList();
        assertTrue(
                outOfOrder.isEmpty(),
                "first copies out of commit order for " + outOfOrder.size() + " objects,"
                        + " e.g. "
                        + outOfOrder.stream()
                                .limit(3)
                                .map(key -> key + ": committed " + committed.get(key) + ", arrived " + arrived.get(key))
                                .toList());
        return deliveries;
    }

    // ---- writes through the API

    private void createSites() throws Exception {
        ArrayNode sites = Json.MAPPER.createArrayNode();
        for (int i = 0; i < SITES; i++) {
            sites.addObject().put("name", "relay-it-" + i).put("slug", "relay-it-" + i);
        }
        JsonNode created = send("POST", sites, 201);
        siteIds = new long[SITES];
        versions = new int[SITES];
        for (int i = 0; i < SITES; i++) {
            siteIds[i] = created.get(i).get("id").asLong();
        }
    }

    /** Changes {@code count} distinct sites picked at random in one request; returns its duration. */
    private long patchRandomSites(int count) throws Exception {
        return patchSites(ThreadLocalRandom.current()
                .ints(0, SITES)
                .distinct()
                .limit(count)
                .toArray());
    }

    /** One bulk PATCH (one transaction) changing the given sites; returns how long it took. */
    private long patchSites(int[] sites) throws Exception {
        ArrayNode changes = Json.MAPPER.createArrayNode();
        for (int site : sites) {
            changes.addObject().put("id", siteIds[site]).put("description", "v" + (++versions[site]));
        }
        long start = System.nanoTime();
        send("PATCH", changes, 200);
        return System.nanoTime() - start;
    }

    private JsonNode send(String method, JsonNode body, int expectedStatus) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(api.url() + "/api/dcim/sites/"))
                        .header("Authorization", "Token " + TOKEN)
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json")
                        .timeout(Duration.ofSeconds(30))
                        .method(method, HttpRequest.BodyPublishers.ofString(Json.MAPPER.writeValueAsString(body)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(expectedStatus, response.statusCode(), method + " /api/dcim/sites/: " + response.body());
        return Json.MAPPER.readTree(response.body());
    }

    // ---- the relay, seen through readiness and the database

    private void awaitLeader() throws Exception {
        awaitRelay(
                Duration.ofSeconds(60),
                "this records-api's relay to lead (another relay on " + jdbcUrl + "? sessions: " + relaySessions()
                        + ")",
                data -> "leader".equals(data.path("role").asText()));
    }

    /** The relay's readiness data once {@code condition} holds; fails after {@code timeout}. */
    private JsonNode awaitRelay(Duration timeout, String what, java.util.function.Predicate<JsonNode> condition)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode data = null;
        while (System.nanoTime() < deadline) {
            data = relayHealth();
            if (data != null && condition.test(data)) {
                return data;
            }
            Thread.sleep(200);
        }
        return fail("timed out after " + timeout + " waiting for " + what + "; relay: " + data + "\n" + api.tail());
    }

    /**
     * The relay's data in readiness. While the broker is away readiness is DOWN and slow (the Kafka
     * connection check waits for its own timeout), hence the long timeout here.
     */
    private JsonNode relayHealth() throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(api.managementUrl() + "/q/health/ready"))
                            .timeout(Duration.ofSeconds(45))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            for (JsonNode check : Json.MAPPER.readTree(response.body()).path("checks")) {
                if (OutboxRelayHealthCheck.NAME.equals(check.path("name").asText())) {
                    return check.path("data");
                }
            }
        } catch (IOException e) {
            // not answering right now
        }
        return null;
    }

    private void awaitBacklog(long expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long left = backlog();
        while (left != expected) {
            if (System.nanoTime() > deadline) {
                fail("backlog still " + left + " after " + timeout + "; relay: " + relayHealth() + "\n" + api.tail());
            }
            Thread.sleep(100);
            left = backlog();
        }
    }

    private long backlog() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            return count(statement, "select count(*) from core_objectchange_pending");
        }
    }

    private long committedChanges() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            return count(statement, "select count(*) from core_objectchange where changed_object_type = 'dcim.site'");
        }
    }

    private String relaySessions() throws SQLException {
        List<String> sessions = new ArrayList<>();
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select pid, client_addr, client_port, backend_start"
                        + " from pg_stat_activity where datname = current_database() and application_name = '"
                        + OutboxStore.APPLICATION_NAME + "'")) {
            while (rows.next()) {
                sessions.add("pid " + rows.getInt(1) + " from " + rows.getString(2) + ":" + rows.getInt(3) + " since "
                        + rows.getObject(4));
            }
        }
        return sessions.toString();
    }

    /**
     * An empty public schema (records-api migrates it at start). Refuses to go on if a relay of
     * some other records-api is connected: it would hold the lease and publish elsewhere.
     */
    private void resetDatabase() throws SQLException {
        String others = relaySessions();
        if (!others.equals("[]")) {
            fail("another records-api relay is connected to " + jdbcUrl + ": " + others
                    + "; use a test database of your own (TEST_DB_NAME)");
        }
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists public cascade");
            statement.execute("create schema public");
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, env("DB_USER", "sot"), env("DB_PASSWORD", "sot"));
    }

    private static long count(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
