package org.sourceoftruth.records.changelog;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.testsupport.Management;

/**
 * No error ends the outbox relay: an error thrown in a round (an out-of-memory error from the
 * Kafka producer's send), and the relay's thread killed from outside, each leave a relay that
 * logs it, gives up its lease, stands again and publishes the changes written since; and liveness
 * fails while the relay cannot run. Real PostgreSQL and Kafka.
 */
@QuarkusTest
@TestProfile(RelayErrorTest.Profile.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RelayErrorTest {

    public static class Profile extends UniqueTopicProfile {
        @Override
        protected Map<String, String> extraConfig() {
            return Map.of("sot.outbox.max-backoff", "1s");
        }
    }

    private static final Duration DELIVERY = Duration.ofSeconds(60);
    private static final Path LOG = Path.of("target/test-log.json");

    @Inject
    ChangeLogWriter recorder;

    @Inject
    RelayLifecycle lifecycle;

    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "sot.changes-topic")
    String topic;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private ChangeLogTable table;

    @BeforeAll
    void createTopic() {
        TopicReader.createTopic(bootstrapServers, topic, 3);
        table = new ChangeLogTable(dataSource);
    }

    @AfterAll
    void deleteTopic() {
        TopicReader.deleteTopic(bootstrapServers, topic);
    }

    @Test
    @Timeout(180)
    void anErrorInARoundIsLoggedTheLeaseGivenUpAndPublishingResumes() throws Exception {
        OutboxRelay main = lifecycle.relay();
        main.stop(Duration.ofSeconds(10));
        Map<String, Object> producer = new HashMap<>(lifecycle.settings().producerConfig());
        producer.put("interceptor.classes", ErrorOnSendInterceptor.class.getName());
        OutboxSettings s = lifecycle.settings();
        OutboxRelay relay = new OutboxRelay(new OutboxSettings(
                s.jdbcUrl(),
                s.dbUser(),
                s.dbPassword(),
                producer,
                s.topic(),
                s.batchSize(),
                s.batchBytes(),
                s.maxEventBytes(),
                s.pollInterval(),
                s.fullReadInterval(),
                s.standbyRetry(),
                s.maxBackoff(),
                s.cloudEventsSource()));
        long logBefore = logSize();
        relay.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> relay.role() == OutboxRelay.Role.LEADER);
            int leaseHolder = leaseHolderPid();
            int thrownBefore = ErrorOnSendInterceptor.thrown();
            ErrorOnSendInterceptor.arm(1);
            SiteWriter writer = new SiteWriter(recorder, dataSource, 2);
            writer.write(0);

            await().atMost(Duration.ofSeconds(30)).until(() -> ErrorOnSendInterceptor.thrown() > thrownBefore);
            // the change is published after all, by the same relay, on a session of its own again
            assertEquals(1, readAll(writer, 1).size(), "the change of the failed round is published");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> relay.role() == OutboxRelay.Role.LEADER && leaseHolderPid() != 0);
            assertNotEquals(leaseHolder, leaseHolderPid(), "the failed round's session (and lease) was given up");
            writer.write(1);
            assertEquals(2, readAll(writer, 2).size(), "later changes are published");
            String logged = logSince(logBefore);
            assertTrue(
                    logged.contains("Outbox relay failed with an error")
                            && logged.contains("thrown by ErrorOnSendInterceptor"),
                    "the error is logged with its cause");
        } finally {
            ErrorOnSendInterceptor.arm(0);
            relay.stop(Duration.ofSeconds(10));
            main.start();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> main.role() == OutboxRelay.Role.LEADER);
    }

    /**
     * A heap budget that refuses the first {@code refusals} reservations asked for without waiting,
     * as when large reads and writes hold it, and counts what is reserved and given back.
     */
    private static final class TakenBudget implements OutboxRelay.HeapReservations {
        final AtomicInteger refusals;
        final AtomicInteger waits = new AtomicInteger();
        final AtomicInteger outstanding = new AtomicInteger();

        TakenBudget(int refusals) {
            this.refusals = new AtomicInteger(refusals);
        }

        @Override
        public Runnable reserve(long bytes) {
            waits.incrementAndGet();
            return granted();
        }

        @Override
        public Runnable tryReserve(long bytes) {
            return refusals.getAndDecrement() > 0 ? null : granted();
        }

        private Runnable granted() {
            outstanding.incrementAndGet();
            AtomicBoolean open = new AtomicBoolean(true);
            return () -> {
                if (open.compareAndSet(true, false)) {
                    outstanding.decrementAndGet();
                }
            };
        }
    }

    @Test
    @Timeout(180)
    void aRelayThatFindsTheBudgetTakenWaitsForItThenPublishesAndGivesItBack() throws Exception {
        OutboxRelay main = lifecycle.relay();
        main.stop(Duration.ofSeconds(10));
        TakenBudget heap = new TakenBudget(2);
        OutboxRelay relay = new OutboxRelay(lifecycle.settings(), heap);
        relay.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> relay.role() == OutboxRelay.Role.LEADER);
            SiteWriter writer = new SiteWriter(recorder, dataSource, 3);
            writer.write(0);
            writer.write(1);
            writer.write(2);

            assertEquals(3, readAll(writer, 3).size(), "every change is published once the budget is had");
            assertTrue(heap.waits.get() >= 1, "a refused reservation was waited for");
            await().atMost(Duration.ofSeconds(20)).until(() -> heap.outstanding.get() == 0);
        } finally {
            relay.stop(Duration.ofSeconds(10));
            main.start();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> main.role() == OutboxRelay.Role.LEADER);
    }

    @Test
    @Timeout(180)
    @SuppressWarnings("removal") // Thread.stop: the test kills the relay's thread with an error (ThreadDeath)
    void aRelayThreadKilledWithAnErrorIsReplacedAndPublishingResumes() throws Exception {
        OutboxRelay main = lifecycle.relay();
        await().atMost(Duration.ofSeconds(20)).until(() -> main.role() == OutboxRelay.Role.LEADER);
        long logBefore = logSize();
        relayThread().stop();

        await().atMost(Duration.ofSeconds(30)).until(() -> logSince(logBefore).contains("ThreadDeath"));
        await().atMost(Duration.ofSeconds(30)).until(() -> main.role() == OutboxRelay.Role.LEADER);
        SiteWriter writer = new SiteWriter(recorder, dataSource, 1);
        writer.write(0);
        assertEquals(1, readAll(writer, 1).size(), "a change written after the kill is published");
        assertEquals(200, liveness().statusCode(), "alive again: " + liveness().body());
        String logged = logSince(logBefore);
        assertTrue(
                logged.contains("Outbox relay failed with an error") || logged.contains("Outbox relay worker died"),
                "the kill is logged");
    }

    @Test
    @Timeout(120)
    void livenessFailsWhileTheRelayCannotRun() throws Exception {
        OutboxRelay main = lifecycle.relay();
        await().atMost(Duration.ofSeconds(20)).until(() -> main.role() == OutboxRelay.Role.LEADER);
        assertEquals(200, liveness().statusCode());
        main.stop(Duration.ofSeconds(10));
        try {
            Health down = liveness();
            assertEquals(503, down.statusCode(), "liveness without a relay that should run: " + down.body());
            JsonNode check = relayCheck(down.body());
            assertEquals("DOWN", check.path("status").asText(), down.body().toString());
            assertEquals("stopped", check.path("data").path("role").asText());
        } finally {
            main.start();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> main.role() == OutboxRelay.Role.LEADER);
        assertEquals(200, liveness().statusCode());
    }

    private record Health(int statusCode, JsonNode body) {}

    private static Health liveness() throws IOException {
        var response = Management.given().when().get("/q/health/live");
        return new Health(response.statusCode(), Json.MAPPER.readTree(response.asString()));
    }

    private static JsonNode relayCheck(JsonNode health) {
        for (JsonNode check : health.path("checks")) {
            if (check.path("name").asText().equals(OutboxRelayHealthCheck.NAME)) {
                return check;
            }
        }
        throw new AssertionError("no " + OutboxRelayHealthCheck.NAME + " check in " + health);
    }

    /** The one live thread of the application's relay. */
    private static Thread relayThread() {
        List<Thread> relays = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("outbox-relay") && t.isAlive())
                .toList();
        assertEquals(1, relays.size(), "one relay thread runs: " + relays);
        return relays.get(0);
    }

    /** The backend pid of the session holding the relay's lease in this database, 0 when none. */
    private int leaseHolderPid() {
        Object pid = table.single("select coalesce(max(pid), 0) from pg_locks where locktype = 'advisory'"
                + " and granted and database = (select oid from pg_database where datname = current_database())"
                + " and objsubid = 1");
        return ((Number) pid).intValue();
    }

    private static long logSize() throws IOException {
        return Files.exists(LOG) ? Files.size(LOG) : 0;
    }

    /** The test log written since {@code offset} (the file may have rolled over meanwhile: then all of it). */
    private static String logSince(long offset) throws IOException {
        String all = Files.readString(LOG);
        return offset <= all.length() ? all.substring((int) offset) : all;
    }

    private List<TopicReader.Received> readAll(SiteWriter writer, int expected) {
        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            List<TopicReader.Received> read = reader.readUntil(
                    all -> all.stream()
                                    .filter(one -> writer.owns(one.key()))
                                    .map(one -> one.event().changeId())
                                    .collect(Collectors.toCollection(HashSet::new))
                                    .size()
                            >= expected,
                    DELIVERY);
            Set<UUID> distinct = read.stream()
                    .filter(one -> writer.owns(one.key()))
                    .map(one -> one.event().changeId())
                    .collect(Collectors.toSet());
            assertTrue(distinct.size() >= expected, "expected " + expected + " changes, read " + distinct.size());
            return read.stream()
                    .filter(one -> writer.owns(one.key()))
                    .collect(Collectors.toMap(one -> one.event().changeId(), one -> one, (a, b) -> a))
                    .values()
                    .stream()
                    .toList();
        }
    }
}
