package org.sourceoftruth.dispatcher.observability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestDatabase;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.ServiceEndpoints;
import org.sourceoftruth.records.testsupport.Management;

/**
 * The dispatcher's delivery metrics: the queue by state from the table, attempts by outcome, the
 * attempt latency histogram, and the Kafka consumer's lag.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class DeliveryMetricsTest {

    @Test
    void queueDepthAttemptsLatencyAndConsumerLagAreOnTheMetricsPath() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            insertDelivery(receiver.url("/hooks/metrics"), "now()");
            insertDelivery("http://127.0.0.1:9/never", "now() + interval '1 day'");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> value(metrics(), "dispatcher_delivery_attempts_total{outcome=\"success\"") >= 1);
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> value(metrics(), "dispatcher_delivery_queue_rows{state=\"scheduled\"") >= 1);
        String metrics = metrics();
        assertTrue(value(metrics, "dispatcher_delivery_queue_rows{state=\"due\"") >= 0, metrics);
        assertTrue(value(metrics, "dispatcher_delivery_queue_rows{state=\"in_flight\"") >= 0, metrics);
        assertTrue(value(metrics, "dispatcher_delivery_oldest_due_age_seconds") >= 0, metrics);
        assertTrue(value(metrics, "dispatcher_delivery_duration_seconds_count") >= 1, metrics);
        assertTrue(metrics.contains("dispatcher_delivery_duration_seconds_bucket{le=\"0.1\""), "histogram buckets");
        assertTrue(metrics.contains("kafka_consumer_fetch_manager_records_lag"), "the consumer's lag");
    }

    private static void insertDelivery(String url, String due) throws Exception {
        URI target = URI.create(url);
        try (Connection connection = TestDatabase.connect();
                PreparedStatement insert = connection.prepareStatement("""
                     with task as (
                         insert into dispatch.delivery(state, change_id, event, model, object_id, event_rule_id,
                             event_rule_name, webhook_id, webhook_name, request_method, request_url, target_host,
                             next_attempt_at)
                         values ('queued', ?, 'updated', 'dcim.site', 1, 77, 'metrics rule', 900002, 'metrics hook',
                                 'POST', ?, ?, %s)
                         returning id)
                     insert into dispatch.rendered_request(delivery_id, headers, body)
                     select id, '[["Content-Type", "application/json"]]', '{}' from task""".formatted(due))) {
            insert.setObject(1, UUID.randomUUID());
            insert.setString(2, url);
            insert.setString(3, target.getHost() + ":" + target.getPort());
            insert.executeUpdate();
        }
    }

    private static String metrics() {
        return Management.given()
                .get(ServiceEndpoints.METRICS_PATH)
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    /** The value of the first series starting with this text (name and leading labels); -2 when absent. */
    private static double value(String metrics, String series) {
        return metrics.lines()
                .filter(l -> l.startsWith(series))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElse(-2);
    }
}
