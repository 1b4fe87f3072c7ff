package org.sourceoftruth.records.changelog;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.testsupport.Management;

@QuarkusTest
@TestProfile(OutboxRelayTest.Profile.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutboxRelayTest {

    /**
     * The relay reads the whole table far less often than the tests wait: a change below its
     * read bound that is published within them came through its notification.
     */
    public static class Profile extends UniqueTopicProfile {
        @Override
        protected Map<String, String> extraConfig() {
            return Map.of("sot.outbox.full-read-interval", "10m");
        }
    }

    private static final Duration DELIVERY = Duration.ofSeconds(60);

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
        TopicReader.createTopic(bootstrapServers, topic, 6);
        table = new ChangeLogTable(dataSource);
    }

    @AfterAll
    void deleteTopic() {
        TopicReader.deleteTopic(bootstrapServers, topic);
    }

    @Test
    void publishesTheRowAsAChangeEvent() {
        SiteWriter writer = new SiteWriter(recorder, dataSource, 1);
        writer.write(0);
        ChangeLogTable.Row row = table.ofSites(writer.firstSiteId(), 1).get(0);

        ChangeEvent event = readAll(writer, 1).get(0).event();

        assertEquals(row.changeId(), event.changeId());
        assertEquals(row.id(), event.sequence());
        assertEquals(ChangeEvent.CREATED, event.event());
        assertEquals("dcim.site", event.model());
        assertEquals(writer.firstSiteId(), event.objectId());
        assertEquals(row.time().toInstant(), event.timestamp().toInstant());
        assertEquals("tester", event.username());
        assertEquals(row.requestId().toString(), event.requestId());
        Deliveries.assertSameJson(SampleChanges.representation(writer.firstSiteId(), 1), event.data());
        assertTrue(
                event.snapshots().prechange() == null
                        || event.snapshots().prechange().isNull(),
                "no prechange for a create");
        Deliveries.assertSameJson(
                SampleChanges.snapshot(writer.firstSiteId(), 1),
                event.snapshots().postchange());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> table.ofSites(writer.firstSiteId(), 1).get(0).published());
    }

    @Test
    @Timeout(180)
    void deliversAThousandChangesOfFiftyObjectsInCommitOrderPerObject() throws Exception {
        SiteWriter writer = new SiteWriter(recorder, dataSource, 50);
        int writers = 4;
        int transactionsPerWriter = 50;
        int changesPerTransaction = 5;
        Callable<Void> writeTransactions = () -> {
            for (int i = 0; i < transactionsPerWriter; i++) {
                writer.writeRandom(changesPerTransaction);
            }
            return null;
        };
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (Future<Void> done : pool.invokeAll(Collections.nCopies(writers, writeTransactions))) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1_000, writer.totalChanges());

        Deliveries deliveries = new Deliveries(readAll(writer, 1_000), writer);

        assertEquals(1_000, deliveries.distinctChanges());
        assertEquals(1_000, deliveries.copies(), "no duplicates while the broker is healthy");
        Set<UUID> committed = table.ofSites(writer.firstSiteId(), writer.sites()).stream()
                .map(ChangeLogTable.Row::changeId)
                .collect(Collectors.toSet());
        assertEquals(committed, deliveries.changeIds());
        deliveries.assertCommitOrderPerSite(writer);
    }

    @Test
    void oneRelayHoldsTheLeaseAndAStandbyTakesOverWhenItStops() {
        OutboxRelay main = lifecycle.relay();
        await().atMost(Duration.ofSeconds(10)).until(() -> main.role() == OutboxRelay.Role.LEADER);
        OutboxRelay second = new OutboxRelay(lifecycle.settings());
        second.start();
        try {
            // STANDBY is also a new relay's role before its session is open: wait for the session.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> second.role() == OutboxRelay.Role.STANDBY && relaySessions() == 2L);
            assertEquals(OutboxRelay.Role.LEADER, main.role());
            assertEquals(2L, relaySessions(), "both relays are connected");
            assertEquals(
                    1L,
                    table.single("select count(*) from pg_locks where locktype = 'advisory'"
                            + " and granted and database = (select oid from pg_database where datname = current_database())"
                            + " and objsubid = 1"),
                    "one lease holder");

            main.stop(Duration.ofSeconds(10));
            await().atMost(Duration.ofSeconds(10)).until(() -> second.role() == OutboxRelay.Role.LEADER);
            SiteWriter writer = new SiteWriter(recorder, dataSource, 1);
            writer.write(0);
            assertEquals(1, readAll(writer, 1).size(), "the new leader publishes");
        } finally {
            second.stop(Duration.ofSeconds(10));
            main.start();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> main.role() == OutboxRelay.Role.LEADER);
    }

    @Test
    void readinessReportsTheRelay() throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> lifecycle.relay().role() == OutboxRelay.Role.LEADER);
        JsonNode health = Json.MAPPER.readTree(Management.given()
                .when()
                .get("/q/health/ready")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        JsonNode relay = null;
        for (JsonNode check : health.get("checks")) {
            if (check.get("name").asText().equals(OutboxRelayHealthCheck.NAME)) {
                relay = check;
            }
        }
        assertNotNull(relay, "readiness lists the relay: " + health);
        assertEquals("UP", relay.get("status").asText());
        assertEquals("leader", relay.get("data").get("role").asText());
        assertEquals(topic, relay.get("data").get("topic").asText());
        assertTrue(relay.get("data").get("backlog").canConvertToLong(), "backlog is a count: " + relay);
    }

    @Test
    void aRolledBackWriteIsNeverPublished() {
        SiteWriter writer = new SiteWriter(recorder, dataSource, 2);
        UUID requestId = UUID.randomUUID();
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                recorder.record(SampleChanges.change(requestId, ChangeAction.CREATE, writer.firstSiteId(), 1));
                throw new IllegalStateException("rolled back");
            });
        } catch (IllegalStateException expected) {
            // the write failed, and with it its change
        }
        writer.write(1);
        await().atMost(DELIVERY).until(() -> table.backlog() == 0);

        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            Set<String> keys = reader.readToEnd(DELIVERY).stream()
                    .map(TopicReader.Received::key)
                    .filter(writer::owns)
                    .collect(Collectors.toSet());
            assertEquals(Set.of(SampleChanges.SITE + ":" + (writer.firstSiteId() + 1)), keys);
        }
    }

    /**
     * The relay reads from above the rows it published (OutboxStore's bound). A transaction that
     * took its id before another one committed, and commits after the relay published that one,
     * writes below the bound: the relay must find it there, and its change go out.
     */
    @Test
    @Timeout(120)
    void aChangeCommittedAfterAHigherIdWasPublishedIsPublished() throws Exception {
        SiteWriter writer = new SiteWriter(recorder, dataSource, 2);
        CountDownLatch recorded = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        ExecutorService slowWriter = Executors.newSingleThreadExecutor();
        try {
            Future<?> slow =
                    slowWriter.submit(() -> QuarkusTransaction.requiringNew().run(() -> {
                        recorder.record(
                                SampleChanges.change(UUID.randomUUID(), ChangeAction.CREATE, writer.firstSiteId(), 1));
                        recorded.countDown();
                        try {
                            assertTrue(commit.await(60, TimeUnit.SECONDS), "the test lets the slow transaction commit");
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }));
            assertTrue(recorded.await(30, TimeUnit.SECONDS), "the slow transaction took its id");
            writer.write(1);
            await().atMost(Duration.ofSeconds(20))
                    .until(() ->
                            table.ofSites(writer.firstSiteId() + 1, 1).get(0).published());
            commit.countDown();
            slow.get(30, TimeUnit.SECONDS);
        } finally {
            slowWriter.shutdownNow();
        }
        List<ChangeLogTable.Row> rows = table.ofSites(writer.firstSiteId(), 2);
        assertTrue(
                rows.get(0).objectId() == writer.firstSiteId()
                        && rows.get(0).id() < rows.get(1).id(),
                "the slow transaction's row has the lower id: " + rows);

        await().atMost(Duration.ofSeconds(20))
                .until(() -> table.ofSites(writer.firstSiteId(), 1).get(0).published());
        Set<String> keys =
                readAll(writer, 2).stream().map(TopicReader.Received::key).collect(Collectors.toSet());
        assertEquals(
                Set.of(
                        SampleChanges.SITE + ":" + writer.firstSiteId(),
                        SampleChanges.SITE + ":" + (writer.firstSiteId() + 1)),
                keys);
    }

    /**
     * The same below the relay's bound, read by the relay's own store without any notification
     * (it never listens here): a notification can reach the relay after its read already sees the
     * commit and the object's next change. The row committed late must come before that change,
     * in batches of one so that the bound moves by cut batches too.
     */
    @Test
    @Timeout(120)
    void aChangeCommittedBelowTheBoundIsReadBeforeTheObjectsNextChangeWithoutItsNotification() throws Exception {
        OutboxRelay relay = lifecycle.relay();
        relay.stop(Duration.ofSeconds(10));
        long site = ThreadLocalRandom.current().nextLong(1, 1_000_000) * 1_000;
        CountDownLatch recorded = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        ExecutorService slowWriter = Executors.newSingleThreadExecutor();
        try (OutboxStore store = OutboxStore.open(lifecycle.settings())) {
            Future<Long> slow =
                    slowWriter.submit(() -> QuarkusTransaction.requiringNew().call(() -> {
                        long id =
                                recorder.record(SampleChanges.change(UUID.randomUUID(), ChangeAction.CREATE, site, 1));
                        recorded.countDown();
                        assertTrue(commit.await(60, TimeUnit.SECONDS), "the test lets the slow transaction commit");
                        return id;
                    }));
            assertTrue(recorded.await(30, TimeUnit.SECONDS), "the slow transaction took its id");
            long other = recordCommitted(site + 1, 1);
            List<Long> first = drain(store);
            assertTrue(first.contains(other), "the other object's change is read: " + first);

            commit.countDown();
            long late = slow.get(30, TimeUnit.SECONDS);
            long next = recordCommitted(site, 2);
            assertTrue(late < other && other < next, "ids " + late + " < " + other + " < " + next);
            List<Long> second = drain(store);
            assertTrue(
                    second.contains(late) && second.contains(next) && second.indexOf(late) < second.indexOf(next),
                    "the late row first, then the object's next: " + second);
        } finally {
            commit.countDown();
            slowWriter.shutdownNow();
            relay.start();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.role() == OutboxRelay.Role.LEADER);
    }

    private long recordCommitted(long site, int version) {
        return QuarkusTransaction.requiringNew()
                .call(() -> recorder.record(SampleChanges.change(
                        UUID.randomUUID(), version == 1 ? ChangeAction.CREATE : ChangeAction.UPDATE, site, version)));
    }

    /** Reads and marks published, one row at a time, until the store reads nothing; the ids read. */
    private static List<Long> drain(OutboxStore store) throws SQLException {
        List<Long> read = new ArrayList<>();
        for (int round = 0; round < 10_000; round++) {
            OutboxStore.Batch batch = store.fetchUnpublished(1, 1 << 24);
            if (batch.changes().isEmpty()) {
                return read;
            }
            batch.changes().forEach(change -> read.add(change.id()));
            store.markPublished(batch, batch.changes().size());
        }
        throw new AssertionError("the pending list never emptied: " + read.size() + " rows read");
    }

    private long relaySessions() {
        return (Long) table.single(
                "select count(*) from pg_stat_activity"
                        + " where application_name = ? and datname = current_database()",
                OutboxStore.APPLICATION_NAME);
    }

    /** The writer's events on the topic, once at least {@code expected} distinct ones are there. */
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
            List<TopicReader.Received> mine =
                    read.stream().filter(one -> writer.owns(one.key())).toList();
            assertTrue(mine.size() >= expected, "expected " + expected + " events, read " + mine.size());
            return mine;
        }
    }
}
