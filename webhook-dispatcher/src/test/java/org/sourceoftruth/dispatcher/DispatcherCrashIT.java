package org.sourceoftruth.dispatcher;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.support.DispatcherProcess;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestDatabase;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * Kills the packaged dispatcher with SIGKILL in the middle of 500 change events, starts it
 * again, and checks that every event still gets exactly one delivery row, all succeeded, and
 * that every event reached the receiver (at least once: requests in flight at the kill may be
 * sent twice).
 */
class DispatcherCrashIT {

    private static final int EVENTS = 500;
    private static final String TOPIC =
            "dispatcher-crash-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<Process> processes = new ArrayList<>();
    /** Where the dispatcher reads its rules from. */
    private RecordsApiProcess recordsApi;

    @AfterEach
    void stopEverything() throws Exception {
        for (Process process : processes) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        if (recordsApi != null) {
            recordsApi.close();
        }
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestInfrastructure.BOOTSTRAP);
        try (Admin admin = Admin.create(properties)) {
            admin.deleteTopics(List.of(TOPIC)).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aKilledDispatcherLosesNoEventAndDuplicatesNoDelivery() throws Exception {
        TestDatabase.reset();
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestInfrastructure.BOOTSTRAP);
        try (Admin admin = Admin.create(properties)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }

        try (Receiver receiver = Receiver.start().delaying(40);
                Fixtures fixtures = new Fixtures(TestInfrastructure.BOOTSTRAP, TOPIC)) {
            long webhook = Fixtures.webhook("crash hook", receiver.url("/crash"), null, null, "crash-secret");
            Fixtures.eventRule("crash rule", List.of("dcim.site"), Fixtures.ALL_EVENTS, null, webhook);
            recordsApi = TestInfrastructure.serviceRecordsApi(TOPIC).start();

            int port = freePort();
            Process first = startDispatcher(port, "first");
            DispatcherProcess.awaitReady(port);

            List<ChangeEvent> events = new ArrayList<>();
            for (int i = 1; i <= EVENTS; i++) {
                ChangeEvent event = Fixtures.event(
                        "created",
                        "dcim.site",
                        i,
                        Fixtures.json("{\"id\": " + i + ", \"name\": \"site-" + i + "\"}"),
                        null,
                        null);
                events.add(event);
            }
            fixtures.publishAll(events);

            await().atMost(Duration.ofMinutes(2))
                    .until(() -> receiver.received().size() >= 60);
            first.destroyForcibly(); // SIGKILL: no shutdown hooks, no offset commit, requests in flight
            assertTrue(first.waitFor(30, TimeUnit.SECONDS));
            int receivedAtKill = receiver.received().size();
            int processedAtKill =
                    Fixtures.rows("select 1 from dispatch.processed_change").size();
            assertTrue(receivedAtKill < EVENTS, "the dispatcher finished before it could be killed");

            long restarted = System.nanoTime();
            startDispatcher(port, "second");
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> Fixtures.rows("select 1 from dispatch.delivery where state = 'succeeded'")
                                    .size()
                            == EVENTS);

            long recoverySeconds = (System.nanoTime() - restarted) / 1_000_000_000;
            assertEquals(
                    EVENTS, Fixtures.rows("select 1 from dispatch.delivery").size(), "one delivery per event");
            assertEquals(
                    EVENTS,
                    Fixtures.rows("select 1 from dispatch.processed_change").size());
            Set<String> delivered = new HashSet<>();
            receiver.received()
                    .forEach(r -> delivered.add(
                            Fixtures.json(r.bodyText()).get("request_id").asText()));
            for (ChangeEvent event : events) {
                assertTrue(delivered.contains(event.requestId()), "never delivered: " + event.objectId());
            }
            System.out.printf(
                    "crash test: at the kill %d events were recorded and %d requests received; "
                            + "%d requests in all for %d events; all delivered %d s after the restart (JVM start included)%n",
                    processedAtKill, receivedAtKill, receiver.received().size(), EVENTS, recoverySeconds);
        }
    }

    private Process startDispatcher(int port, String name) throws IOException {
        Process process = DispatcherProcess.start(port, TOPIC, recordsApi.url(), "crash-it-" + name);
        processes.add(process);
        return process;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
