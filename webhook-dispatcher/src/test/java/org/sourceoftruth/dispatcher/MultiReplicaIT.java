package org.sourceoftruth.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.sourceoftruth.dispatcher.delivery.DeliveryIdentity;
import org.sourceoftruth.dispatcher.support.DispatcherProcess;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestDatabase;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * Several replicas of both services on one topic of 6 partitions, as the Helm chart runs them:
 * 2 records-api and 3 dispatchers (packaged, as child processes on 127.0.0.1), with changes
 * written at a steady rate through both APIs to two webhooks. Mid-run one dispatcher is SIGKILLed
 * and started again, and so is the records-api whose relay is the leader. Then:
 * <ul>
 * <li>every committed change is on the topic exactly once (the new relay leader marks what the
 * dead one published without marking it);</li>
 * <li>every change reached both receivers;</li>
 * <li>per object, each receiver got its deliveries in commit order, numbered 1, 2, 3, ... without
 * gap (repeats, recognised by their delivery id, aside): no inversion;</li>
 * <li>repeats only of deliveries the killed dispatcher had in hand;</li>
 * <li>the killed dispatcher's partitions were taken over within seconds, and the others' kept all
 * theirs meanwhile (cooperative rebalancing);</li>
 * <li>publishing went on after the relay leader's death, within about the standby's retry.</li>
 * </ul>
 * Bounded (420 s at most; 4-5 minutes on a busy 2-core machine, most of it starting seven JVMs),
 * so it runs on its own command rather than with every build (docs/change-stream.md):
 * {@code deploy/local/stack test -pl webhook-dispatcher -am -Dtest=NoSuchTest -Dit.test=MultiReplicaIT
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false -Dsot.it.multi-replica=true}.
 */
@EnabledIfSystemProperty(named = "sot.it.multi-replica", matches = "true")
class MultiReplicaIT {

    private static final int SITES = 24;
    private static final int DISPATCHERS = 3;
    private static final int PARTITIONS = 6;
    /** Changes per second, split over both APIs (a pace a busy 2-core machine keeps up with). */
    private static final int RATE = 12;
    /** Writes under way at most: a tick finding this many waits for none, so the run stays bounded. */
    private static final int WRITES_IN_FLIGHT = 8;

    private static final Duration WRITE_FOR = Duration.ofSeconds(36);
    private static final Duration KILL_DISPATCHER_AT = Duration.ofSeconds(8);
    private static final Duration KILL_RELAY_LEADER_AT = Duration.ofSeconds(16);
    private static final Duration RESTART_DISPATCHER_AT = Duration.ofSeconds(22);

    private static final String TOPIC =
            "multi-replica-" + UUID.randomUUID().toString().substring(0, 8);
    private static final Pattern ASSIGNED = Pattern.compile("^dispatcher_kafka_partitions_assigned\\S* (\\S+)$");
    private static final Pattern REVOKED = Pattern.compile(
            "^dispatcher_kafka_partitions_revoked_total\\{[^}]*reason=\"(revoked|lost)\"[^}]*} (\\S+)$");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<RecordsApiProcess> apis = new CopyOnWriteArrayList<>();
    private final RecordsApiProcess.Launcher[] launchers = new RecordsApiProcess.Launcher[2];
    private final Process[] dispatchers = new Process[DISPATCHERS];
    private final int[] dispatcherPorts = new int[DISPATCHERS];
    private final AtomicBoolean sampling = new AtomicBoolean(true);
    /** Per dispatcher: (time, partitions assigned, partitions revoked or lost so far). */
    private final List<List<long[]>> samples = new ArrayList<>();

    @AfterEach
    void stopEverything() throws Exception {
        sampling.set(false);
        for (Process dispatcher : dispatchers) {
            if (dispatcher != null) {
                dispatcher.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
        apis.forEach(RecordsApiProcess::kill);
        try (Admin admin = Admin.create(adminProperties())) {
            admin.deleteTopics(List.of(TOPIC)).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(420)
    void changesThroughTwoApisReachTwoWebhooksInOrderWhileAReplicaOfEachIsKilled() throws Exception {
        long started = System.nanoTime();
        TestDatabase.reset();
        try (Admin admin = Admin.create(adminProperties())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        for (int i = 0; i < 2; i++) {
            launchers[i] = TestInfrastructure.serviceRecordsApi(TOPIC)
                    .name("multi-replica-api-" + i)
                    .env("PASSWORD_HASH_ITERATIONS", "1000")
                    // a standby tries for the lease often: the takeover is part of what is measured
                    .property("sot.outbox.standby-retry", "300ms");
        }
        // both at once: most of the test's time is JVMs starting
        List<Thread> starting = new ArrayList<>();
        for (RecordsApiProcess.Launcher launcher : launchers) {
            Thread thread = new Thread(() -> {
                try {
                    apis.add(launcher.start());
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            thread.start();
            starting.add(thread);
        }
        for (Thread thread : starting) {
            thread.join();
        }
        assertEquals(2, apis.size(), "both records-api replicas started");

        try (Receiver first = Receiver.start();
                Receiver second = Receiver.start()) {
            Random random = new Random(52);
            // the first receiver is slow: the killed dispatcher dies with requests to it in flight,
            // which another one sends again once their lease runs out
            first.delaying(r -> 100 + random.nextInt(100));
            second.delaying(r -> random.nextInt(4));
            RecordsApiProcess api = apis.get(0);
            for (Receiver receiver : List.of(first, second)) {
                long webhook = post(
                                api,
                                "/api/extras/webhooks/",
                                Map.of(
                                        "name",
                                        "replica hook " + receiver.url("/"),
                                        "payload_url",
                                        receiver.url("/hook"),
                                        "secret",
                                        "replica-secret"))
                        .get("id")
                        .asLong();
                post(
                        api,
                        "/api/extras/event-rules/",
                        Map.of(
                                "name",
                                "replica rule " + webhook,
                                "object_types",
                                List.of("dcim.site"),
                                "event_types",
                                Fixtures.ALL_EVENTS,
                                "action_object_type",
                                "extras.webhook",
                                "action_object_id",
                                webhook));
            }
            List<Map<String, Object>> newSites = new ArrayList<>();
            for (int i = 0; i < SITES; i++) {
                newSites.add(Map.of("name", "replica-site-" + i, "slug", "replica-site-" + i));
            }
            List<Long> sites = new ArrayList<>();
            for (JsonNode site : post(api, "/api/dcim/sites/", newSites)) {
                sites.add(site.get("id").asLong());
            }

            // the leader's API first in every dispatcher's list: its death must not hold them up
            RecordsApiProcess leader = relayLeader();
            RecordsApiProcess standby = apis.get(0) == leader ? apis.get(1) : apis.get(0);
            String urls = leader.url() + "," + standby.url();
            List<Thread> dispatcherStarts = new ArrayList<>();
            for (int i = 0; i < DISPATCHERS; i++) {
                samples.add(new CopyOnWriteArrayList<>());
                dispatcherPorts[i] = RecordsApiProcess.freePort();
                dispatchers[i] = startDispatcher(i, urls);
            }
            for (int i = 0; i < DISPATCHERS; i++) {
                DispatcherProcess.awaitReady(dispatcherPorts[i]);
            }
            Thread sampler = new Thread(this::sample, "partition-sampler");
            sampler.setDaemon(true);
            sampler.start();
            awaitPartitions(PARTITIONS, Duration.ofSeconds(60));
            System.out.printf("MultiReplicaIT: everything started after %d s%n", seconds(started));

            // writes at a steady rate, through both APIs (the one still alive when one is dead)
            long writing = System.nanoTime();
            long deadline = writing + WRITE_FOR.toNanos();
            int written = 0;
            java.util.concurrent.atomic.AtomicInteger failedWrites = new java.util.concurrent.atomic.AtomicInteger();
            // requests side by side: each takes longer than the pace on a busy machine
            java.util.concurrent.ExecutorService writers =
                    java.util.concurrent.Executors.newFixedThreadPool(WRITES_IN_FLIGHT);
            java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
            int skipped = 0;
            Instant dispatcherKilled = null;
            Instant leaderKilled = null;
            Instant dispatcherRestarted = null;
            long leaderMovedMillis = -1;
            while (System.nanoTime() < deadline) {
                long elapsed = System.nanoTime() - writing;
                if (dispatcherKilled == null && elapsed >= KILL_DISPATCHER_AT.toNanos()) {
                    dispatchers[0].destroyForcibly(); // SIGKILL: no leave-group, no outcome recorded
                    dispatchers[0].waitFor(30, TimeUnit.SECONDS);
                    dispatcherKilled = Instant.now();
                }
                if (leaderKilled == null && elapsed >= KILL_RELAY_LEADER_AT.toNanos()) {
                    leader.kill();
                    apis.remove(leader);
                    leaderKilled = Instant.now();
                    Thread watcher = leaseWatcher(standby, leaderKilled);
                    watcher.start();
                }
                if (dispatcherRestarted == null && elapsed >= RESTART_DISPATCHER_AT.toNanos()) {
                    dispatchers[0] = startDispatcher(0, urls);
                    dispatcherRestarted = Instant.now();
                }
                long due = writing + (written + skipped) * 1_000_000_000L / RATE;
                long sleep = due - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                }
                if (inFlight.get() >= WRITES_IN_FLIGHT) {
                    skipped++;
                    continue;
                }
                RecordsApiProcess target = apis.get(written % apis.size());
                long site = sites.get(random.nextInt(sites.size()));
                int number = written;
                inFlight.incrementAndGet();
                writers.submit(() -> {
                    try {
                        patch(target, "/api/dcim/sites/" + site + "/", Map.of("description", "change " + number));
                    } catch (IOException | IllegalStateException e) {
                        failedWrites.incrementAndGet(); // killed under the request: the change log says
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        inFlight.decrementAndGet();
                    }
                });
                written++;
            }
            writers.shutdown();
            assertTrue(writers.awaitTermination(60, TimeUnit.SECONDS), "writes finished");
            leaderMovedMillis = leaseMovedMillis;
            System.out.printf(
                    "MultiReplicaIT: %d writes in %d s (%d failed at the kill, %d ticks skipped: the APIs were busy)%n",
                    written, WRITE_FOR.toSeconds(), failedWrites.get(), skipped);

            // what was committed is what the change log holds
            Map<String, Long> committed = siteChanges();
            DispatcherProcess.awaitReady(dispatcherPorts[0]);
            long drainDeadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (System.nanoTime() < drainDeadline
                    && (changeIds(first).size() < committed.size()
                            || changeIds(second).size() < committed.size())) {
                Thread.sleep(250);
            }
            sampling.set(false);

            // 1. the topic: every committed change exactly once
            Map<String, Integer> copies = topicCopies();
            List<String> missing = new ArrayList<>();
            List<String> repeated = new ArrayList<>();
            for (String change : allChanges()) {
                int n = copies.getOrDefault(change, 0);
                if (n == 0) {
                    missing.add(change);
                } else if (n > 1) {
                    repeated.add(change);
                }
            }
            assertEquals(List.of(), missing, "committed changes not on the topic");
            assertEquals(List.of(), repeated, "changes on the topic more than once");

            // 2.-4. each receiver: every change, in order per object, repeats only of the dead one's
            Report one = check(first, committed, dispatcherKilled);
            Report two = check(second, committed, dispatcherKilled);

            // 5. the dead dispatcher's partitions, taken over; the others' never given up meanwhile
            Takeover takeover = takeover(dispatcherKilled);
            System.out.printf(
                    "MultiReplicaIT: %d site changes committed (%d writes), each once on the topic (%d records in"
                            + " all); receiver 1: %d deliveries, %d repeats, %d inversions; receiver 2: %d deliveries,"
                            + " %d repeats, %d inversions; killed dispatcher's partitions taken over %d ms after the kill"
                            + " (survivors revoked %d meanwhile, %d when it rejoined); relay lease moved %d ms after the"
                            + " leader's kill; whole test %d s%n",
                    committed.size(),
                    written,
                    copies.values().stream().mapToInt(Integer::intValue).sum(),
                    one.deliveries(),
                    one.repeats(),
                    one.inversions(),
                    two.deliveries(),
                    two.repeats(),
                    two.inversions(),
                    takeover.millis(),
                    takeover.revokedMeanwhile(),
                    takeover.revokedOnRejoin(),
                    leaderMovedMillis,
                    seconds(started));
            assertEquals(0, one.inversions() + two.inversions(), "deliveries of an object out of order");
            assertTrue(
                    takeover.millis() >= 0 && takeover.millis() < 15_000, "takeover took " + takeover.millis() + " ms");
            assertEquals(0, takeover.revokedMeanwhile(), "survivors gave up partitions when a replica died");
            assertTrue(
                    leaderMovedMillis >= 0 && leaderMovedMillis < 10_000,
                    "relay lease moved in " + leaderMovedMillis + " ms");
        }
    }

    private volatile long leaseMovedMillis = -1;

    /** Watches the standby's relay until it leads; records how long after the kill that was. */
    private Thread leaseWatcher(RecordsApiProcess standby, Instant killed) {
        Thread watcher = new Thread(
                () -> {
                    while (sampling.get()) {
                        if ("leader".equals(relayRole(standby))) {
                            leaseMovedMillis =
                                    Duration.between(killed, Instant.now()).toMillis();
                            return;
                        }
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "lease-watcher");
        watcher.setDaemon(true);
        return watcher;
    }

    private Process startDispatcher(int index, String recordsApiUrls) throws IOException {
        return DispatcherProcess.start(
                dispatcherPorts[index],
                TOPIC,
                recordsApiUrls,
                "multi-replica-dispatcher-" + index + "-" + System.nanoTime(),
                Map.of(
                        "KAFKA_CONSUMER_CONCURRENCY", "2",
                        "KAFKA_SESSION_TIMEOUT_MS", "6000",
                        // a lease long enough that only a death makes a request go out twice,
                        // also on a busy machine (outcomes recorded seconds late)
                        "WEBHOOK_TIMEOUT_SECONDS", "5",
                        "WEBHOOK_LEASE_MARGIN_SECONDS", "15"));
    }

    /** Polls each dispatcher's partition metrics every 200 ms. */
    private void sample() {
        while (sampling.get()) {
            for (int i = 0; i < DISPATCHERS; i++) {
                HttpResponse<String> metrics = DispatcherProcess.health(dispatcherPorts[i], "/q/metrics");
                if (metrics == null || metrics.statusCode() != 200) {
                    samples.get(i).add(new long[] {System.currentTimeMillis(), -1, -1});
                    continue;
                }
                long assigned = -1;
                long revoked = 0;
                for (String line : metrics.body().split("\n")) {
                    Matcher a = ASSIGNED.matcher(line);
                    if (a.matches()) {
                        assigned = (long) Double.parseDouble(a.group(1));
                    }
                    Matcher r = REVOKED.matcher(line);
                    if (r.matches()) {
                        revoked += (long) Double.parseDouble(r.group(2));
                    }
                }
                samples.get(i).add(new long[] {System.currentTimeMillis(), assigned, revoked});
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void awaitPartitions(int expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            long total = 0;
            for (List<long[]> series : samples) {
                if (!series.isEmpty()) {
                    total += Math.max(0, series.get(series.size() - 1)[1]);
                }
            }
            if (total == expected) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the dispatchers never consumed all " + expected + " partitions");
    }

    private record Takeover(long millis, long revokedMeanwhile, long revokedOnRejoin) {}

    /**
     * When the survivors (dispatchers 1 and 2) together held all partitions after the kill of
     * dispatcher 0, and what they revoked from the kill to then, and after (when it rejoined).
     */
    private Takeover takeover(Instant killed) {
        long kill = killed.toEpochMilli();
        long revokedAtKill = 0;
        long revokedAtTakeover = 0;
        long revokedAtEnd = 0;
        for (int i = 1; i < DISPATCHERS; i++) {
            long atKill = 0;
            long atEnd = 0;
            for (long[] sample : samples.get(i)) {
                if (sample[0] <= kill && sample[2] >= 0) {
                    atKill = sample[2];
                }
                if (sample[2] >= 0) {
                    atEnd = sample[2];
                }
            }
            revokedAtKill += atKill;
            revokedAtEnd += atEnd;
        }
        long takenOver = -1;
        List<long[]> one = samples.get(1);
        List<long[]> two = samples.get(2);
        for (long[] sample : one) {
            if (sample[0] <= kill || sample[1] < 0) {
                continue;
            }
            long other = latest(two, sample[0])[1];
            if (other >= 0 && sample[1] + other == PARTITIONS) {
                takenOver = sample[0];
                break;
            }
        }
        if (takenOver < 0) {
            return new Takeover(-1, -1, -1);
        }
        for (int i = 1; i < DISPATCHERS; i++) {
            revokedAtTakeover += latest(samples.get(i), takenOver)[2];
        }
        return new Takeover(takenOver - kill, revokedAtTakeover - revokedAtKill, revokedAtEnd - revokedAtTakeover);
    }

    private static long[] latest(List<long[]> series, long at) {
        long[] latest = {0, -1, 0};
        for (long[] sample : series) {
            if (sample[0] <= at) {
                latest = sample;
            }
        }
        return latest;
    }

    private record Report(int deliveries, int repeats, int inversions) {}

    /**
     * Every committed change arrived; per object, first copies in commit order and numbered without
     * gap; repeats only of deliveries whose first copy came before the dispatcher's kill.
     */
    private static Report check(Receiver receiver, Map<String, Long> committed, Instant killed) {
        List<Receiver.Received> arrivals = new ArrayList<>(receiver.received());
        arrivals.sort(java.util.Comparator.comparing(Receiver.Received::at));
        Map<String, Receiver.Received> firstCopies = new LinkedHashMap<>();
        int repeats = 0;
        for (Receiver.Received r : arrivals) {
            String id = r.header(DeliveryIdentity.DELIVERY_HEADER);
            Receiver.Received first = firstCopies.putIfAbsent(id, r);
            if (first != null) {
                repeats++;
                assertTrue(
                        first.at().isBefore(killed.plusMillis(500)) && !r.at().isBefore(killed),
                        "a repeat of " + id + " that no process's death explains: first at " + first.at()
                                + ", again at " + r.at() + ", dispatcher killed at " + killed);
                assertEquals(first.bodyText(), r.bodyText(), "a repeat is the same request");
            }
        }
        Set<String> delivered = new HashSet<>();
        Map<Long, List<long[]>> perObject = new HashMap<>();
        for (Receiver.Received r : firstCopies.values()) {
            String change = r.header(DeliveryIdentity.CHANGE_HEADER);
            delivered.add(change);
            Long sequence = committed.get(change);
            assertTrue(sequence != null, "a delivery of a change the change log does not hold: " + change);
            long object = Json.fromBytes(r.body(), JsonNode.class)
                    .get("data")
                    .get("id")
                    .asLong();
            perObject
                    .computeIfAbsent(object, k -> new ArrayList<>())
                    .add(new long[] {sequence, Long.parseLong(r.header(DeliveryIdentity.SEQUENCE_HEADER))});
        }
        Set<String> undelivered = new HashSet<>(committed.keySet());
        undelivered.removeAll(delivered);
        assertEquals(Set.of(), undelivered, "changes never delivered to " + receiver.url("/"));
        int inversions = 0;
        for (List<long[]> deliveries : perObject.values()) {
            for (int i = 1; i < deliveries.size(); i++) {
                if (deliveries.get(i)[0] < deliveries.get(i - 1)[0]) {
                    inversions++;
                }
                assertEquals(
                        deliveries.get(i - 1)[1] + 1,
                        deliveries.get(i)[1],
                        "deliveries of an object numbered without gap, in arrival order");
            }
        }
        return new Report(firstCopies.size(), repeats, inversions);
    }

    /** The committed site changes: change id -> change-log id. */
    private static Map<String, Long> siteChanges() throws Exception {
        Map<String, Long> changes = new HashMap<>();
        try (Connection connection = TestDatabase.connect();
                PreparedStatement select = connection.prepareStatement(
                        "select change_id, id from core_objectchange where changed_object_type = 'dcim.site'");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                changes.put(rows.getString(1), rows.getLong(2));
            }
        }
        return changes;
    }

    private static List<String> allChanges() throws Exception {
        List<String> changes = new ArrayList<>();
        try (Connection connection = TestDatabase.connect();
                PreparedStatement select = connection.prepareStatement("select change_id from core_objectchange");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                changes.add(rows.getString(1));
            }
        }
        return changes;
    }

    /** Copies of each change id on the topic. */
    private static Map<String, Integer> topicCopies() {
        Map<String, Integer> copies = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.BOOTSTRAP,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false))) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(TOPIC, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline
                    && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    String id = Json.fromBytes(record.value(), JsonNode.class)
                            .get("change_id")
                            .asText();
                    copies.merge(id, 1, Integer::sum);
                }
            }
        }
        return copies;
    }

    private static Set<String> changeIds(Receiver receiver) {
        Set<String> ids = new HashSet<>();
        receiver.received().forEach(r -> ids.add(r.header(DeliveryIdentity.CHANGE_HEADER)));
        return ids;
    }

    /** The records-api whose relay leads now (waits for one to). */
    private RecordsApiProcess relayLeader() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            for (RecordsApiProcess api : apis) {
                if ("leader".equals(relayRole(api))) {
                    return api;
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no relay became the leader");
    }

    private String relayRole(RecordsApiProcess api) {
        try {
            HttpResponse<String> ready = http.send(
                    HttpRequest.newBuilder(URI.create(api.managementUrl() + "/q/health/ready"))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            for (JsonNode check : Json.MAPPER.readTree(ready.body()).path("checks")) {
                if (check.path("name").asText().equals("outbox-relay")) {
                    return check.path("data").path("role").asText();
                }
            }
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    private JsonNode post(RecordsApiProcess api, String path, Object body) throws IOException, InterruptedException {
        return send(api, path, "POST", body, 201);
    }

    private void patch(RecordsApiProcess api, String path, Object body) throws IOException, InterruptedException {
        send(api, path, "PATCH", body, 200);
    }

    private JsonNode send(RecordsApiProcess api, String path, String method, Object body, int expected)
            throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(api.url() + path))
                        .timeout(Duration.ofSeconds(10))
                        .header("Authorization", "Token " + TestInfrastructure.SERVICE_TOKEN)
                        .header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(Json.toBytes(body)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(
                    method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return Json.MAPPER.readTree(response.body());
    }

    private static long seconds(long since) {
        return (System.nanoTime() - since) / 1_000_000_000L;
    }

    private static Properties adminProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestInfrastructure.BOOTSTRAP);
        return properties;
    }
}
