package org.sourceoftruth.records.changelog;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Kafka dies (SIGKILL) while changes are being written and published, stays away while 200 more
 * are written, and comes back on the same storage: every change must arrive, each object's first
 * copies in commit order. Runs against a broker of its own, which it kills whatever happens.
 */
@QuarkusTest
@TestProfile(RelayBrokerOutageTest.Profile.class)
class RelayBrokerOutageTest {

    /** The relay publishes to the scratch broker and retries it every half second at most. */
    public static class Profile extends UniqueTopicProfile {
        @Override
        protected Map<String, String> extraConfig() {
            return Map.of(
                    "kafka.bootstrap.servers", ScratchKafkaBroker.bootstrapServers(),
                    "kafka.request.timeout.ms", "1500",
                    "kafka.max.block.ms", "2000",
                    "kafka.reconnect.backoff.max.ms", "500",
                    "sot.outbox.max-backoff", "1s");
        }
    }

    private static final int SITES = 40;
    private static final int CHANGES_PER_TRANSACTION = 5;
    private static final Duration RECOVERY = Duration.ofSeconds(120);

    private static ScratchKafkaBroker broker;

    @Inject
    ChangeLogWriter recorder;

    @Inject
    RelayLifecycle lifecycle;

    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "sot.changes-topic")
    String topic;

    @BeforeAll
    static void startBroker() throws Exception {
        Path libs = ScratchKafkaBroker.libs();
        assumeTrue(
                Files.isDirectory(libs),
                "No Kafka jars at " + libs + " (set KAFKA_LIBS, or let deploy/local/stack"
                        + " fetch them into .local/kafka/libs): skipping the broker outage test");
        broker = ScratchKafkaBroker.start(libs);
    }

    @AfterAll
    static void killBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    @Timeout(300)
    void everyChangeArrivesInOrderAfterTheBrokerIsKilledAndRestarted() throws Exception {
        TopicReader.createTopic(ScratchKafkaBroker.bootstrapServers(), topic, 3);
        ChangeLogTable table = new ChangeLogTable(dataSource);
        SiteWriter writer = new SiteWriter(recorder, dataSource, SITES);

        // This application's relay must be the one publishing (not a relay left over from another
        // application or process on the same test database).
        awaitState(
                Duration.ofSeconds(30),
                "this application's relay to lead",
                () -> lifecycle.relay().role() == OutboxRelay.Role.LEADER,
                table);
        writeTransactions(writer, 20); // 100 changes with the broker up
        await().atMost(Duration.ofSeconds(60)).until(() -> table.backlog() == 0);

        for (int i = 0; i < 20; i++) { // 100 more, and the broker dies halfway through them
            writer.writeRandom(CHANGES_PER_TRANSACTION);
            if (i == 10) {
                broker.kill();
            }
        }
        long slowestWriteNanos = 0;
        for (int i = 0; i < 200 / CHANGES_PER_TRANSACTION; i++) { // 200 while it is away
            long start = System.nanoTime();
            writer.writeRandom(CHANGES_PER_TRANSACTION);
            slowestWriteNanos = Math.max(slowestWriteNanos, System.nanoTime() - start);
        }
        assertEquals(400, writer.totalChanges());
        assertTrue(
                slowestWriteNanos < Duration.ofSeconds(2).toNanos(),
                "writes do not wait for Kafka; slowest took " + slowestWriteNanos / 1_000_000 + " ms");
        // The relay waits for the producer, which keeps trying to deliver what it has.
        // Generous bounds: on a busy 2-core machine a relay restart alone can take tens of seconds.
        // The relay notices the outage: depending on when the broker died, the producer either holds
        // the batch (the relay waits) or fails it at once (the relay records the error and backs off).
        awaitState(Duration.ofSeconds(120), "the relay to notice the outage", this::noticedTheOutage, table);
        // A relay that starts during the outage (another replica taking over, or a restart) gets
        // no metadata for the topic: it backs off and retries.
        lifecycle.relay().stop(Duration.ofSeconds(10));
        lifecycle.relay().start();
        awaitState(Duration.ofSeconds(120), "the restarted relay to notice the outage", this::noticedTheOutage, table);
        long backlogDuringOutage = table.backlog();
        assertTrue(backlogDuringOutage >= 200, "the changes written during the outage wait: " + backlogDuringOutage);

        broker.restart();
        await().atMost(RECOVERY).until(() -> table.backlog() == 0);

        Set<UUID> committed = table.ofSites(writer.firstSiteId(), SITES).stream()
                .map(ChangeLogTable.Row::changeId)
                .collect(Collectors.toSet());
        assertEquals(400, committed.size());
        Deliveries deliveries;
        try (TopicReader reader = new TopicReader(ScratchKafkaBroker.bootstrapServers(), topic)) {
            deliveries = new Deliveries(reader.readToEnd(Duration.ofSeconds(60)), writer);
        }
        assertEquals(committed, deliveries.changeIds(), "every committed change arrived");
        deliveries.assertCommitOrderPerSite(writer);
        System.out.printf(
                "Broker outage: %d changes, %d copies read (%d repeats), %d waited during the outage,"
                        + " slowest write %d ms%n",
                committed.size(),
                deliveries.copies(),
                deliveries.copies() - committed.size(),
                backlogDuringOutage,
                slowestWriteNanos / 1_000_000);
    }

    /** Waits for {@code condition}; on timeout fails with the relay's state and who holds the lease. */
    private void awaitState(
            Duration timeout, String what, java.util.concurrent.Callable<Boolean> condition, ChangeLogTable table) {
        try {
            await().atMost(timeout).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            OutboxRelay relay = lifecycle.relay();
            throw new AssertionError(
                    "timed out after " + timeout + " waiting for " + what + ": role " + relay.role()
                            + ", last error " + relay.lastError() + ", waiting for Kafka since "
                            + relay.waitingForKafkaSince()
                            + ", published " + relay.publishedCount() + ", backlog " + table.backlog()
                            + ", relay sessions (pid, lease holder, started) "
                            + table.single(
                                    "select string_agg(a.pid || ' ' || coalesce(l.granted, false) || ' ' || a.backend_start, '; ')"
                                            + " from pg_stat_activity a left join pg_locks l on l.pid = a.pid and l.locktype = 'advisory'"
                                            + " and l.objsubid = 1 where a.datname = current_database() and a.application_name = ?",
                                    OutboxStore.APPLICATION_NAME),
                    e);
        }
    }

    private boolean noticedTheOutage() {
        return waitingForKafkaLongerThan(Duration.ofSeconds(3))
                || String.valueOf(lifecycle.relay().lastError()).startsWith("kafka");
    }

    private boolean waitingForKafkaLongerThan(Duration duration) {
        Instant since = lifecycle.relay().waitingForKafkaSince();
        return since != null && since.plus(duration).isBefore(Instant.now());
    }

    private static void writeTransactions(SiteWriter writer, int transactions) {
        for (int i = 0; i < transactions; i++) {
            writer.writeRandom(CHANGES_PER_TRANSACTION);
        }
    }
}
