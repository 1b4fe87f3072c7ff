package org.sourceoftruth.dispatcher;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
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
 * The packaged dispatcher started while records-api is down: it cannot read the webhooks and
 * event rules, so readiness is DOWN (saying why) and the changes on the topic wait, unprocessed;
 * once records-api answers, the dispatcher reads them (retrying with backoff), becomes ready and
 * delivers the waiting change, once.
 */
class RecordsApiOutageIT {

    private static final String TOPIC =
            "dispatcher-outage-" + UUID.randomUUID().toString().substring(0, 8);
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
    void withoutRecordsApiTheDispatcherIsNotReadyAndNoChangeIsLost() throws Exception {
        TestDatabase.reset();
        try (Admin admin = Admin.create(adminProperties())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (Receiver receiver = Receiver.start();
                Fixtures fixtures = new Fixtures(TestInfrastructure.BOOTSTRAP, TOPIC)) {
            long webhook = Fixtures.webhook("outage hook", receiver.url("/outage"), null, null, null);
            Fixtures.eventRule("outage rule", List.of("dcim.site"), Fixtures.ALL_EVENTS, null, webhook);
            int recordsApiPort = RecordsApiProcess.freePort();
            int port = RecordsApiProcess.freePort();
            dispatcher = DispatcherProcess.start(port, TOPIC, "http://127.0.0.1:" + recordsApiPort, "outage-it");

            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        HttpResponse<String> started = DispatcherProcess.health(port, "/q/health/started");
                        return started != null && started.statusCode() == 200;
                    });
            HttpResponse<String> notReady = DispatcherProcess.health(port, "/q/health/ready");
            assertEquals(503, notReady.statusCode(), notReady.body());
            assertTrue(
                    notReady.body().contains("\"event-rules\"")
                            && notReady.body().contains("does not answer"),
                    notReady.body());

            ChangeEvent change = Fixtures.event(
                    "created", "dcim.site", 31, Fixtures.json("{\"id\": 31, \"name\": \"outage site\"}"), null, null);
            fixtures.publish(change);
            Thread.sleep(5_000); // time enough to consume it, were it not waiting for the rules
            assertFalse(Fixtures.processed(change.changeId()), "a change was processed before the rules were read");
            assertEquals(0, receiver.received().size());

            recordsApi = TestInfrastructure.serviceRecordsApi(TOPIC)
                    .port(recordsApiPort)
                    .start();
            DispatcherProcess.awaitReady(port);
            await().atMost(Duration.ofMinutes(1))
                    .until(() -> receiver.received().size() == 1);
            assertEquals(
                    change.requestId(),
                    Fixtures.json(receiver.received().get(0).bodyText())
                            .get("request_id")
                            .asText());
            assertEquals(1, Fixtures.deliveriesOf(change.changeId()).size());
        }
    }

    private static Properties adminProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestInfrastructure.BOOTSTRAP);
        return properties;
    }
}
