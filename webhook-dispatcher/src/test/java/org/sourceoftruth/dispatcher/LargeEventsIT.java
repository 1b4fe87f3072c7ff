package org.sourceoftruth.dispatcher;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sourceoftruth.dispatcher.delivery.DeliveryIdentity;
import org.sourceoftruth.dispatcher.support.DispatcherProcess;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestDatabase;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * The packaged dispatcher with the heap the stack gives it (-Xmx256m, serial collector, exit on
 * OutOfMemoryError) receives 16 events of 6 MB at once, each firing two webhooks: 32 bodies of
 * 6 MB to render, store and send, with 64 requests in flight allowed. Every one arrives whole and
 * the process still runs, without an OutOfMemoryError in its log. (Polls of 50 MiB per consumer,
 * every event of a poll parsed with its bodies, and claims that read up to 64 bodies at once had
 * it end with OutOfMemoryError.) Real PostgreSQL and Kafka; runs in failsafe.
 */
class LargeEventsIT {

    private static final int EVENTS = 16;
    private static final int DESCRIPTION_CHARS = 6_000_000;
    private static final String TOPIC =
            "dispatcher-large-" + UUID.randomUUID().toString().substring(0, 8);
    private Process dispatcher;
    private RecordsApiProcess recordsApi;

    @AfterEach
    void stopEverything() throws Exception {
        if (dispatcher != null) {
            dispatcher.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        if (recordsApi != null) {
            recordsApi.close();
        }
        try (Admin admin = Admin.create(adminProperties())) {
            admin.deleteTopics(List.of(TOPIC)).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(600)
    void manyLargeEventsAtOnceAreAllDeliveredWholeAndTheProcessLives() throws Exception {
        TestDatabase.reset();
        try (Admin admin = Admin.create(adminProperties())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (Receiver receiver = Receiver.start();
                Fixtures fixtures = new Fixtures(TestInfrastructure.BOOTSTRAP, TOPIC)) {
            for (String hook : List.of("first", "second")) {
                long webhook = Fixtures.webhook(hook, receiver.url("/large/" + hook), null, null, null);
                Fixtures.eventRule(hook + " rule", List.of("dcim.site"), Fixtures.ALL_EVENTS, null, webhook);
            }
            recordsApi = TestInfrastructure.serviceRecordsApi(TOPIC).start();
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            dispatcher = DispatcherProcess.start(
                    port,
                    TOPIC,
                    recordsApi.url(),
                    "large-events-it",
                    List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"));
            DispatcherProcess.awaitReady(port);

            // text that compresses badly, so that each event is about as large on the wire
            Random random = new Random(42);
            StringBuilder text = new StringBuilder();
            while (text.length() < DESCRIPTION_CHARS) {
                text.append(Long.toString(random.nextLong(), 36));
            }
            String description = text.substring(0, DESCRIPTION_CHARS);
            List<ChangeEvent> events = new ArrayList<>();
            for (int i = 1; i <= EVENTS; i++) {
                ObjectNode data = (ObjectNode) Fixtures.json("{\"id\": " + i + ", \"name\": \"large-" + i + "\"}");
                data.put("description", description);
                events.add(Fixtures.event("created", "dcim.site", i, data, null, null));
            }
            fixtures.publishAll(events);

            Path log = Path.of("target/large-events-it.log");
            await().atMost(Duration.ofMinutes(8))
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> !dispatcher.isAlive()
                            || Fixtures.rows("select 1 from dispatch.delivery where state = 'succeeded'")
                                            .size()
                                    == 2 * EVENTS);
            assertTrue(dispatcher.isAlive(), "the dispatcher still runs: " + tail(log));
            // at least once: on a loaded machine a 6 MB request may outlast its timeout and be
            // sent again; a repeat carries the same delivery id
            assertEquals(
                    2 * EVENTS,
                    receiver.received().stream()
                            .map(r -> r.header(DeliveryIdentity.DELIVERY_HEADER))
                            .distinct()
                            .count(),
                    "one delivery per event and webhook");
            for (Receiver.Received request : receiver.received()) {
                JsonNode body = Fixtures.json(request.bodyText());
                assertEquals(
                        DESCRIPTION_CHARS,
                        body.get("data").get("description").asText().length(),
                        "whole: " + request.path());
            }
            assertFalse(Files.readString(log).contains("OutOfMemoryError"), tail(log));
        }
    }

    private static String tail(Path log) throws java.io.IOException {
        String text = Files.exists(log) ? Files.readString(log) : "";
        return text.substring(Math.max(0, text.length() - 3000));
    }

    private static Properties adminProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestInfrastructure.BOOTSTRAP);
        return properties;
    }
}
