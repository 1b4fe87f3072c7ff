package org.sourceoftruth.records.changelog;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Measures the relay, prints the figures, asserts only that everything arrived. Not part of the
 * default build (surefire runs *Test classes); run it with
 * {@code mvn -pl records-api -am verify -Dtest=RelayLatencyBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 *
 * <ul>
 * <li>Latency: 2,000 changes, one per transaction, written one after another while a consumer
 * reads the topic; commit (the transaction call returned) to consumed, median and p99.</li>
 * <li>Throughput: 20,000 changes written while the relay is stopped, then the time from starting
 * it until a consumer has read all of them.</li>
 * </ul>
 */
@QuarkusTest
@TestProfile(RelayLatencyBenchmark.Profile.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RelayLatencyBenchmark {

    public static class Profile extends UniqueTopicProfile {}

    private static final int LATENCY_CHANGES = 2_000;
    private static final int BACKLOG_CHANGES = 20_000;
    private static final int BACKLOG_TRANSACTION = 100;

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

    @BeforeAll
    void createTopic() {
        TopicReader.createTopic(bootstrapServers, topic, 6);
    }

    @AfterAll
    void deleteTopic() {
        TopicReader.deleteTopic(bootstrapServers, topic);
    }

    @Test
    void commitToConsumerLatency() throws Exception {
        SiteWriter writer = new SiteWriter(recorder, dataSource, 50);
        Map<Long, Long> committedAt = new ConcurrentHashMap<>();
        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            reader.readToEnd(Duration.ofSeconds(30)); // start from the current end
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < LATENCY_CHANGES; i++) {
                    long rowId = writer.write(i % writer.sites())[0];
                    committedAt.put(rowId, System.nanoTime());
                }
            });
            List<TopicReader.Received> read = reader.readUntil(
                    all -> writing.isDone()
                            && all.stream()
                                            .filter(one -> writer.owns(one.key()))
                                            .count()
                                    >= LATENCY_CHANGES,
                    Duration.ofMinutes(5));
            writing.get();
            List<Long> latencies = new ArrayList<>();
            for (TopicReader.Received one : read) {
                Long commit = committedAt.get(one.event().sequence());
                if (writer.owns(one.key()) && commit != null) {
                    latencies.add(one.receivedNanos() - commit);
                }
            }
            assertEquals(LATENCY_CHANGES, latencies.size());
            Collections.sort(latencies);
            System.out.printf(
                    "Relay latency over %d changes (commit -> consumed): median %.1f ms, p99 %.1f ms,"
                            + " max %.1f ms%n",
                    latencies.size(),
                    millis(percentile(latencies, 50)),
                    millis(percentile(latencies, 99)),
                    millis(latencies.get(latencies.size() - 1)));
        }
    }

    @Test
    void backlogThroughput() {
        SiteWriter writer = new SiteWriter(recorder, dataSource, 500);
        ChangeLogTable table = new ChangeLogTable(dataSource);
        lifecycle.relay().stop(Duration.ofSeconds(10));
        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            reader.readToEnd(Duration.ofSeconds(30));
            long writeStart = System.nanoTime();
            for (int i = 0; i < BACKLOG_CHANGES / BACKLOG_TRANSACTION; i++) {
                writer.writeRandom(BACKLOG_TRANSACTION);
            }
            long writeNanos = System.nanoTime() - writeStart;

            long relayStart = System.nanoTime();
            lifecycle.relay().start();
            List<TopicReader.Received> read = reader.readUntil(
                    all -> all.stream().filter(one -> writer.owns(one.key())).count() >= BACKLOG_CHANGES,
                    Duration.ofMinutes(5));
            long relayNanos = System.nanoTime() - relayStart;
            assertEquals(
                    BACKLOG_CHANGES,
                    read.stream().filter(one -> writer.owns(one.key())).count());
            await().atMost(Duration.ofSeconds(30)).until(() -> table.backlog() == 0);
            System.out.printf(
                    "Writes: %d changes in transactions of %d at %.0f changes/s;"
                            + " relay drained them to a consumer at %.0f changes/s (%.1f s)%n",
                    BACKLOG_CHANGES,
                    BACKLOG_TRANSACTION,
                    BACKLOG_CHANGES / seconds(writeNanos),
                    BACKLOG_CHANGES / seconds(relayNanos),
                    seconds(relayNanos));
        } finally {
            lifecycle.relay().start();
        }
    }

    private static long percentile(List<Long> sorted, int percent) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * percent / 100.0) - 1));
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
