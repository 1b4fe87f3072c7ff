package org.sourceoftruth.dispatcher;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.dispatcher.support.Fixtures.ALL_EVENTS;
import static org.sourceoftruth.dispatcher.support.Fixtures.json;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.delivery.DeliveryIdentity;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.ChangeEvent;

/**
 * Per-object order and delivery identity, through the real broker, database and HTTP: the
 * deliveries of one object to one webhook arrive in the order of its changes, each only after the
 * one before it succeeded or finally failed, while other objects and webhooks go on; every request
 * says which delivery it is (the same on each attempt), of which change, and its number in its lane.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class PerObjectOrderTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static Fixtures fixtures;

    @Inject
    RuleCache ruleCache;

    @BeforeAll
    static void setUp() {
        fixtures = Fixtures.forTests();
    }

    @AfterAll
    static void tearDown() {
        fixtures.close();
    }

    private static ChangeEvent siteUpdate(long id, String description) {
        return Fixtures.event(
                "updated",
                "dcim.site",
                id,
                json("{\"id\": " + id + ", \"name\": \"s" + id + "\", \"description\": \"" + description + "\"}"),
                null,
                null);
    }

    private static String description(Receiver.Received request) {
        return json(request.bodyText()).get("data").get("description").asText();
    }

    private static long objectId(Receiver.Received request) {
        return json(request.bodyText()).get("data").get("id").asLong();
    }

    /** Requests of the path in arrival order. */
    private static List<Receiver.Received> arrivals(Receiver receiver, String path) {
        List<Receiver.Received> all = new ArrayList<>(
                receiver.received().stream().filter(r -> r.path().equals(path)).toList());
        all.sort(Comparator.comparing(Receiver.Received::at));
        return all;
    }

    @Test
    void aRetryingDeliveryHoldsBackOnlyTheLaterChangesOfItsObjectAtItsWebhook() throws Exception {
        AtomicInteger refusals = new AtomicInteger();
        try (Receiver receiver = Receiver.start();
                Receiver other = Receiver.start()) {
            // the first change of site 9101 is refused twice, slowly, then taken
            receiver.answering(r -> description(r).equals("9101-a") && refusals.getAndIncrement() < 2 ? 503 : 200);
            receiver.delaying(r -> description(r).equals("9101-a") && refusals.get() < 2 ? 1000 : 0);
            long webhook = Fixtures.webhook("order hook", receiver.url("/order"), null, null, null);
            long otherWebhook = Fixtures.webhook("order other hook", other.url("/order-other"), null, null, null);
            Fixtures.eventRule(
                    "order rule",
                    List.of("dcim.site"),
                    ALL_EVENTS,
                    "{\"and\": [{\"attr\": \"id\", \"op\": \"in\", \"value\": [9101, 9102]}]}",
                    webhook);
            Fixtures.eventRule(
                    "order other rule",
                    List.of("dcim.site"),
                    ALL_EVENTS,
                    "{\"and\": [{\"attr\": \"id\", \"op\": \"in\", \"value\": [9101, 9102]}]}",
                    otherWebhook);
            ruleCache.refresh();

            List<ChangeEvent> first =
                    List.of(siteUpdate(9101, "9101-a"), siteUpdate(9101, "9101-b"), siteUpdate(9101, "9101-c"));
            List<ChangeEvent> second = List.of(siteUpdate(9102, "9102-a"), siteUpdate(9102, "9102-b"));
            List<ChangeEvent> all = new ArrayList<>(first);
            all.addAll(second);
            fixtures.publishAll(all);

            await().atMost(WAIT).until(() -> arrivals(receiver, "/order").size() >= 7);
            List<Receiver.Received> got = arrivals(receiver, "/order");
            List<String> site9101 = got.stream()
                    .filter(r -> objectId(r) == 9101)
                    .map(PerObjectOrderTest::description)
                    .toList();
            // two refused attempts, the third taken, and only then the later changes, in order
            assertEquals(List.of("9101-a", "9101-a", "9101-a", "9101-b", "9101-c"), site9101);
            // the other object was not held up by the retries: both its changes came before the
            // first change of 9101 was taken
            Receiver.Received taken = got.stream()
                    .filter(r -> description(r).equals("9101-a"))
                    .max(Comparator.comparing(Receiver.Received::at))
                    .orElseThrow();
            assertEquals(
                    List.of("9102-a", "9102-b"),
                    got.stream()
                            .filter(r -> objectId(r) == 9102 && r.at().isBefore(taken.at()))
                            .map(PerObjectOrderTest::description)
                            .toList());
            // nor the other webhook, whose receiver took everything at once
            await().atMost(WAIT).until(() -> arrivals(other, "/order-other").size() >= 5);

            // identity: one delivery id per change at this webhook, the same on every attempt;
            // the change id; numbers 1, 2, 3 per object
            Map<String, Set<String>> idsByChange = new HashMap<>();
            for (Receiver.Received r : got) {
                idsByChange
                        .computeIfAbsent(r.header(DeliveryIdentity.CHANGE_HEADER), k -> new HashSet<>())
                        .add(r.header(DeliveryIdentity.DELIVERY_HEADER));
            }
            for (ChangeEvent event : all) {
                Set<String> ids = idsByChange.get(event.changeId().toString());
                assertNotNull(ids, "no request carried change " + event.changeId());
                assertEquals(1, ids.size(), "one delivery id for all attempts of a change: " + ids);
            }
            assertEquals(
                    List.of("1", "1", "1", "2", "3"),
                    got.stream()
                            .filter(r -> objectId(r) == 9101)
                            .map(r -> r.header(DeliveryIdentity.SEQUENCE_HEADER))
                            .toList());
            assertEquals(
                    List.of("1", "2"),
                    got.stream()
                            .filter(r -> objectId(r) == 9102)
                            .map(r -> r.header(DeliveryIdentity.SEQUENCE_HEADER))
                            .toList());
            // the other webhook's lanes are numbered on their own, and its deliveries have other ids
            Set<String> otherIds = new HashSet<>();
            arrivals(other, "/order-other").forEach(r -> otherIds.add(r.header(DeliveryIdentity.DELIVERY_HEADER)));
            assertEquals(5, otherIds.size());
            idsByChange.values().forEach(ids -> assertTrue(ids.stream().noneMatch(otherIds::contains)));
        }
    }

    @Test
    void aFinallyFailedDeliveryLetsTheNextOneGo() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            receiver.answering(r -> description(r).equals("9201-a") ? 500 : 200);
            long webhook = Fixtures.webhook("give-up hook", receiver.url("/give-up"), null, null, null);
            Fixtures.eventRule(
                    "give-up rule",
                    List.of("dcim.site"),
                    ALL_EVENTS,
                    "{\"and\": [{\"attr\": \"id\", \"value\": 9201}]}",
                    webhook);
            ruleCache.refresh();
            fixtures.publishAll(List.of(siteUpdate(9201, "9201-a"), siteUpdate(9201, "9201-b")));

            await().atMost(WAIT).until(() -> arrivals(receiver, "/give-up").size() >= TestInfrastructure.RETRY_MAX + 1);
            List<String> order = arrivals(receiver, "/give-up").stream()
                    .map(PerObjectOrderTest::description)
                    .toList();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < TestInfrastructure.RETRY_MAX; i++) {
                expected.add("9201-a");
            }
            expected.add("9201-b");
            assertEquals(expected, order);
        }
    }

    @Test
    void manyChangesOfFewObjectsArriveInCommitOrderAtASlowReceiver() throws Exception {
        Random random = new Random(52);
        Map<Long, List<String>> sent = new ConcurrentHashMap<>();
        try (Receiver receiver = Receiver.start()) {
            // answers in 0-25 ms: requests sent side by side would overtake each other
            receiver.delaying(r -> random.nextInt(26));
            long webhook = Fixtures.webhook("burst order hook", receiver.url("/burst-order"), null, null, null);
            Fixtures.eventRule(
                    "burst order rule",
                    List.of("dcim.site"),
                    ALL_EVENTS,
                    "{\"and\": [{\"attr\": \"id\", \"op\": \"in\", \"value\": [9301, 9302, 9303]}]}",
                    webhook);
            ruleCache.refresh();
            List<ChangeEvent> events = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                for (long site = 9301; site <= 9303; site++) {
                    String description = site + "-" + i;
                    events.add(siteUpdate(site, description));
                    sent.computeIfAbsent(site, k -> new ArrayList<>()).add(description);
                }
            }
            fixtures.publishAll(events);

            await().atMost(WAIT).until(() -> arrivals(receiver, "/burst-order").size() >= events.size());
            Map<Long, List<String>> arrived = new HashMap<>();
            Map<Long, List<String>> sequences = new HashMap<>();
            for (Receiver.Received r : arrivals(receiver, "/burst-order")) {
                arrived.computeIfAbsent(objectId(r), k -> new ArrayList<>()).add(description(r));
                sequences
                        .computeIfAbsent(objectId(r), k -> new ArrayList<>())
                        .add(r.header(DeliveryIdentity.SEQUENCE_HEADER));
            }
            assertEquals(sent, arrived, "each site's changes in the order they were made");
            for (List<String> numbers : sequences.values()) {
                List<String> expected = new ArrayList<>();
                for (int i = 1; i <= numbers.size(); i++) {
                    expected.add(String.valueOf(i));
                }
                assertEquals(expected, numbers);
            }
        }
    }
}
