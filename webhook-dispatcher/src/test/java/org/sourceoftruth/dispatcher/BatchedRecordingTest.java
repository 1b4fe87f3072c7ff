package org.sourceoftruth.dispatcher;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.dispatcher.support.Fixtures.ALL_EVENTS;
import static org.sourceoftruth.dispatcher.support.Fixtures.json;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.delivery.AttemptOutcome;
import org.sourceoftruth.dispatcher.delivery.AttemptRecorder;
import org.sourceoftruth.dispatcher.delivery.AttemptRecorder.FinishedAttempt;
import org.sourceoftruth.dispatcher.delivery.ClaimedDelivery;
import org.sourceoftruth.dispatcher.delivery.DeliveryRecorder;
import org.sourceoftruth.dispatcher.delivery.DeliveryRecorder.PreparedChange;
import org.sourceoftruth.dispatcher.delivery.DeliveryState;
import org.sourceoftruth.dispatcher.delivery.NewDelivery;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.rules.WebhookDefinition;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.model.ChangeEvent;

/**
 * The dispatcher records a whole Kafka poll in one transaction and writes delivery outcomes in
 * batches. These tests check that neither loses nor duplicates a delivery: through the real
 * broker, database and HTTP, and at the store for the cases a broker cannot produce on demand.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class BatchedRecordingTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static Fixtures fixtures;

    @Inject
    RuleCache ruleCache;

    @Inject
    DeliveryRecorder recorder;

    @Inject
    AttemptRecorder attemptRecorder;

    @BeforeAll
    static void setUp() {
        fixtures = Fixtures.forTests();
    }

    @AfterAll
    static void tearDown() {
        fixtures.close();
    }

    @Test
    void aBacklogWithRepeatedEventsGivesOneDeliveryPerChangeAndRuleAndOneAttemptEach() throws Exception {
        try (Receiver first = Receiver.start();
                Receiver second = Receiver.start()) {
            long hookA = Fixtures.webhook("batch hook a", first.url("/a"), null, null, null);
            long hookB = Fixtures.webhook("batch hook b", second.url("/b"), null, null, null);
            long ruleA = Fixtures.eventRule("batch rule a", List.of("dcim.rearport"), ALL_EVENTS, null, hookA);
            long ruleB = Fixtures.eventRule("batch rule b", List.of("dcim.rearport"), ALL_EVENTS, null, hookB);
            ruleCache.refresh();

            // 400 distinct changes over many keys (all partitions), every tenth sent twice in a
            // row (the same poll) and every fiftieth once more at the end (a later poll)
            int changes = 400;
            List<ChangeEvent> distinct = new ArrayList<>();
            List<ChangeEvent> published = new ArrayList<>();
            for (int i = 0; i < changes; i++) {
                ChangeEvent event = Fixtures.event(
                        "updated",
                        "dcim.rearport",
                        i % 37,
                        json("{\"id\": " + (i % 37) + ", \"description\": \"batch-" + i + "\"}"),
                        null,
                        null);
                distinct.add(event);
                published.add(event);
                if (i % 10 == 0) {
                    published.add(event);
                }
            }
            for (int i = 0; i < changes; i += 50) {
                published.add(distinct.get(i));
            }
            fixtures.publishAll(published);

            await().atMost(WAIT)
                    .until(() -> first.received().size() >= changes
                            && second.received().size() >= changes
                            && Fixtures.rows(
                                                    "select 1 from dispatch.delivery where event_rule_id in (?, ?) and state = 'succeeded'",
                                                    ruleA,
                                                    ruleB)
                                            .size()
                                    == 2 * changes);
            Thread.sleep(500); // anything duplicated would arrive now
            assertEquals(changes, first.received().size());
            assertEquals(changes, second.received().size());
            for (long rule : List.of(ruleA, ruleB)) {
                List<Map<String, Object>> deliveries = Fixtures.deliveriesOfRule(rule);
                assertEquals(changes, deliveries.size(), "one delivery per change for rule " + rule);
                assertEquals(
                        changes,
                        deliveries.stream()
                                .map(d -> d.get("change_id"))
                                .distinct()
                                .count());
                for (Map<String, Object> delivery : deliveries) {
                    assertEquals("succeeded", delivery.get("state"));
                    assertEquals(1, delivery.get("attempts"));
                    assertEquals(200, delivery.get("last_status"));
                    assertTrue(delivery.get("lease_owner") == null && delivery.get("completed_at") != null);
                }
            }
            // exactly one attempt row per delivery
            assertEquals(2 * changes, Fixtures.rows("""
                    select 1 from dispatch.delivery_attempt a join dispatch.delivery d on d.id = a.delivery_id
                    where d.event_rule_id in (?, ?)""", ruleA, ruleB).size());
            for (ChangeEvent event : distinct) {
                assertTrue(Fixtures.processed(event.changeId()));
            }
            // every change reached each receiver once
            Map<String, Integer> seen = new HashMap<>();
            first.received()
                    .forEach(
                            r -> seen.merge(json(r.bodyText()).get("request_id").asText(), 1, Integer::sum));
            assertEquals(changes, seen.size());
            assertTrue(seen.values().stream().allMatch(n -> n == 1), "a change was delivered twice");
        }
    }

    private static ActiveRule rule(long id, String name) {
        WebhookDefinition webhook = WebhookDefinition.compile(
                900 + id,
                "store hook " + id,
                "http://127.0.0.1:9/x",
                "POST",
                "application/json",
                "",
                "",
                "",
                true,
                null);
        return new ActiveRule(id, name, Set.of("dcim.powerport"), Set.copyOf(ALL_EVENTS), null, null, null, webhook);
    }

    private static NewDelivery delivery(ChangeEvent event, ActiveRule rule) {
        return new NewDelivery(
                event,
                rule,
                new RenderedRequest(
                        "POST", URI.create("http://127.0.0.1:9/x"), List.of(), "{\"n\": " + event.objectId() + "}"),
                null);
    }

    private static ChangeEvent powerPort(long id) {
        return Fixtures.event("created", "dcim.powerport", id, json("{\"id\": " + id + "}"), null, null);
    }

    @Test
    void recordingAPollSkipsChangesAlreadyRecordedAndRepeatsWithinThePoll() throws Exception {
        ActiveRule rule = rule(7001, "store rule");
        ChangeEvent old = powerPort(1);
        assertEquals(
                Set.of(old.changeId()),
                recorder.recordChanges(List.of(new PreparedChange(old, List.of(delivery(old, rule))))));

        ChangeEvent fresh = powerPort(2);
        ChangeEvent noRule = powerPort(3);
        Set<UUID> recorded = recorder.recordChanges(List.of(
                new PreparedChange(old, List.of(delivery(old, rule))), // re-delivered from an earlier poll
                new PreparedChange(fresh, List.of(delivery(fresh, rule))),
                new PreparedChange(fresh, List.of(delivery(fresh, rule))), // twice in this poll
                new PreparedChange(noRule, List.of())));
        assertEquals(Set.of(fresh.changeId(), noRule.changeId()), recorded);
        assertEquals(1, Fixtures.deliveriesOf(old.changeId()).size());
        assertEquals(1, Fixtures.deliveriesOf(fresh.changeId()).size());
        assertEquals(0, Fixtures.deliveriesOf(noRule.changeId()).size());
        assertTrue(Fixtures.processed(noRule.changeId()), "a change without deliveries is still recorded as processed");
    }

    @Test
    void aPollThatCannotBeStoredRecordsNothingOfIt() throws Exception {
        ActiveRule rule = rule(7002, "store rule 2");
        ActiveRule tooLong = rule(7003, "x".repeat(200)); // event_rule_name is varchar(150)
        ChangeEvent good = powerPort(10);
        ChangeEvent bad = powerPort(11);
        assertThrows(
                SQLException.class,
                () -> recorder.recordChanges(List.of(
                        new PreparedChange(good, List.of(delivery(good, rule))),
                        new PreparedChange(bad, List.of(delivery(bad, tooLong))))));
        // all or nothing: the poll stays unacknowledged and is stored whole on the retry
        assertTrue(!Fixtures.processed(good.changeId()) && !Fixtures.processed(bad.changeId()));
        assertEquals(0, Fixtures.deliveriesOf(good.changeId()).size());

        assertEquals(
                Set.of(good.changeId(), bad.changeId()),
                recorder.recordChanges(List.of(
                        new PreparedChange(good, List.of(delivery(good, rule))),
                        new PreparedChange(bad, List.of(delivery(bad, rule))))));
    }

    @Test
    void batchedOutcomesAreWrittenOnlyForLeasesStillHeld() throws Exception {
        // three deliveries leased by this "process", as a claim leaves them (inserted leased, so
        // that the running worker leaves them alone); the third's lease then moves to another
        String mine = "test-owner-" + UUID.randomUUID();
        List<ClaimedDelivery> claimed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ChangeEvent event = powerPort(20 + i);
            long id = (Long) Fixtures.rows("""
                    insert into dispatch.delivery(state, change_id, event, model, object_id, event_rule_id,
                        event_rule_name, webhook_id, webhook_name, request_method, request_url, target_host,
                        lease_owner, lease_expires_at)
                    values ('queued', ?, 'created', 'dcim.powerport', ?, 7004, 'store rule 4', 907004, 'hook',
                        'POST', 'http://127.0.0.1:9/x', '127.0.0.1:9', ?, now() + interval '5 minutes')
                    returning id""", event.changeId(), event.objectId(), mine)
                    .get(0)
                    .get("id");
            claimed.add(new ClaimedDelivery(
                    id,
                    1,
                    0,
                    new RenderedRequest("POST", URI.create("http://127.0.0.1:9/x"), List.of(), "{}"),
                    "127.0.0.1:9",
                    true,
                    null));
        }
        ClaimedDelivery lost = claimed.get(2);
        Fixtures.rows("update dispatch.delivery set lease_owner = 'someone else' where id = ? returning id", lost.id());

        Instant now = Instant.now();
        List<FinishedAttempt> attempts = List.of(
                new FinishedAttempt(
                        claimed.get(0), new AttemptOutcome(now, 5, 200, null, "ok"), DeliveryState.SUCCEEDED, null),
                new FinishedAttempt(
                        claimed.get(1),
                        new AttemptOutcome(now, 7, 503, "receiver answered HTTP 503", "busy"),
                        DeliveryState.QUEUED,
                        now.plusSeconds(60)),
                new FinishedAttempt(lost, new AttemptOutcome(now, 9, 200, null, "ok"), DeliveryState.SUCCEEDED, null));
        assertEquals(
                Set.of(claimed.get(0).id(), claimed.get(1).id()),
                attemptRecorder.finishAttempts(attempts, mine).ids());

        Map<String, Object> done = Fixtures.rows(
                        "select * from dispatch.delivery where id = ?",
                        claimed.get(0).id())
                .get(0);
        assertEquals("succeeded", done.get("state"));
        assertEquals(1, done.get("attempts"));
        assertEquals(200, done.get("last_status"));
        assertTrue(done.get("completed_at") != null && done.get("lease_owner") == null);
        Map<String, Object> retry = Fixtures.rows(
                        "select * from dispatch.delivery where id = ?",
                        claimed.get(1).id())
                .get(0);
        assertEquals("queued", retry.get("state"));
        assertEquals(503, retry.get("last_status"));
        assertEquals("receiver answered HTTP 503", retry.get("last_error"));
        assertEquals(1, retry.get("attempts"));
        assertTrue(retry.get("completed_at") == null && retry.get("lease_owner") == null);
        Map<String, Object> other = Fixtures.rows("select * from dispatch.delivery where id = ?", lost.id())
                .get(0);
        assertEquals("queued", other.get("state"));
        assertEquals(0, other.get("attempts"));
        assertEquals("someone else", other.get("lease_owner"));
        assertEquals(1, Fixtures.attemptsOf(claimed.get(0).id()).size());
        assertEquals(1, Fixtures.attemptsOf(claimed.get(1).id()).size());
        assertEquals(0, Fixtures.attemptsOf(lost.id()).size());
    }
}
