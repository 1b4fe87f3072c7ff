package org.sourceoftruth.dispatcher.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * Real PostgreSQL, the real Kafka broker and the packaged records-api for @QuarkusTest: a freshly
 * migrated test database, a topic and consumer group of this run's own (so parallel runs by
 * other people on the same broker do not interfere), and a records-api on that database and
 * topic, from which the dispatcher reads webhooks and event rules and through which it checks
 * sign-ins, with a service superuser's token. Retries are fast so that retry tests finish quickly.
 */
public class TestInfrastructure implements QuarkusTestResourceLifecycleManager {

    public static final String BOOTSTRAP = System.getenv().getOrDefault("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092");
    public static final String TOPIC =
            "dispatcher-test-" + UUID.randomUUID().toString().substring(0, 8);
    public static final int RETRY_MAX = 3;
    /** The dispatcher's RECORDS_API_TOKEN: the API token of records-api's bootstrapped superuser. */
    public static final String SERVICE_TOKEN = "5e41ce0000000000000000000000000000d15ba7";

    private RecordsApiProcess recordsApi;

    /** records-api for the dispatcher under test, with the service superuser; not started. */
    public static RecordsApiProcess.Launcher serviceRecordsApi(String topic) {
        if (!java.nio.file.Files.exists(RecordsApiProcess.packagedJar())) {
            throw new IllegalStateException("webhook-dispatcher's tests need the packaged records-api ("
                    + RecordsApiProcess.packagedJar()
                    + "): the dispatcher reads its rules and checks sign-ins through it;"
                    + " build with -am (mvn -pl webhook-dispatcher -am verify)");
        }
        return RecordsApiProcess.launcher()
                .database(TestDatabase.NAME)
                .kafka(BOOTSTRAP, topic)
                .superuser("dispatcher-service", "Dispatcher-service-1", SERVICE_TOKEN)
                .name("records-api-service");
    }

    /**
     * The packaged records-api (records-api's test-jar launcher) against this run's test database,
     * broker and topic; the caller adds its superuser and starts it.
     */
    public static RecordsApiProcess.Launcher recordsApi() {
        return RecordsApiProcess.launcher().database(TestDatabase.NAME).kafka(BOOTSTRAP, TOPIC);
    }

    @Override
    public Map<String, String> start() {
        try {
            TestDatabase.reset();
            try (Admin admin = Admin.create(adminProperties())) {
                // As deploy/local/stack creates records.object-changes: events up to records-api's
                // 8 MiB ceiling (OUTBOX_MAX_EVENT_BYTES) plus record headers.
                admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1)
                                .configs(Map.of(
                                        "max.message.bytes", String.valueOf(Fixtures.MAX_EVENT_BYTES + 16 * 1024)))))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            recordsApi = serviceRecordsApi(TOPIC).start();
        } catch (Exception e) {
            throw new IllegalStateException("test infrastructure could not be prepared", e);
        }
        return Map.ofEntries(
                Map.entry("dispatcher.records-api.url", recordsApi.url()),
                Map.entry("dispatcher.records-api.token", SERVICE_TOKEN),
                Map.entry("dispatcher.admin.records-api-url", recordsApi.url()),
                Map.entry("dispatcher.changes-topic", TOPIC),
                Map.entry("mp.messaging.incoming.object-changes.group.id", TOPIC + "-group"),
                Map.entry("kafka.bootstrap.servers", BOOTSTRAP),
                Map.entry("dispatcher.retry.max-attempts", String.valueOf(RETRY_MAX)),
                Map.entry("dispatcher.retry.base-seconds", "0.2"),
                Map.entry("dispatcher.delivery.poll-interval", "200ms"),
                Map.entry("dispatcher.delivery.per-host-concurrency", "4"),
                Map.entry("dispatcher.rules.refresh-interval", "1h"),
                // well above a delivery's latency on a busy machine, so that a template running
                // into its time limit is clearly slower than the deliveries it must not delay
                Map.entry("dispatcher.template.timeout", "6s"));
    }

    @Override
    public void stop() {
        if (recordsApi != null) {
            recordsApi.close();
        }
        try (Admin admin = Admin.create(adminProperties())) {
            admin.deleteTopics(List.of(TOPIC)).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the broker removes nothing else; a leftover test topic is harmless
        }
    }

    private static Properties adminProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP);
        return properties;
    }
}
