package org.sourceoftruth.dispatcher.observability;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The delivery queue on /q/metrics, read from the table (all replicas' deliveries):
 * {@code dispatcher_delivery_queue_rows{state=...}} for queued deliveries that are due now
 * ({@code due}), being attempted under a lease ({@code in_flight}), waiting for a later retry
 * ({@code scheduled}) and waiting for an earlier delivery of their lane ({@code waiting}), and {@code dispatcher_delivery_oldest_due_age_seconds}. Deliveries by
 * outcome and retries are {@code dispatcher_delivery_attempts_total{outcome=success|retry|failed}},
 * attempt latency the histogram {@code dispatcher_delivery_duration_seconds} (delivery/OutcomeRecorder; buckets from sot.metrics.latency-histograms).
 */
@Singleton
public class DeliveryQueueMetrics {
    /** One statement for all gauges, over the queued rows only (the partial index delivery_due). */
    private static final String QUEUE = """
            select count(*) filter (where not waiting and lease_expires_at > now()),
                   count(*) filter (where not waiting and (lease_expires_at is null or lease_expires_at <= now())
                                      and next_attempt_at <= now()),
                   count(*) filter (where not waiting and (lease_expires_at is null or lease_expires_at <= now())
                                      and next_attempt_at > now()),
                   count(*) filter (where waiting),
                   coalesce(extract(epoch from now() - min(next_attempt_at)
                                    filter (where not waiting and next_attempt_at <= now())), 0)
              from dispatch.delivery where state = 'queued'""";
    /** Figures younger than this are reused: one scrape reads four gauges. */
    private static final long REUSE_NANOS = 2_000_000_000L;

    private record Snapshot(long readAt, double[] values) {}

    @Inject
    AgroalDataSource dataSource;

    @Inject
    MeterRegistry registry;

    private volatile Snapshot snapshot;

    void register(@Observes StartupEvent event) {
        String[] states = {"in_flight", "due", "scheduled", "waiting"};
        for (int i = 0; i < states.length; i++) {
            int column = i;
            Gauge.builder("dispatcher.delivery.queue.rows", this, m -> m.value(column))
                    .tag("state", states[i])
                    .description(
                            "Queued deliveries by state: due now, in flight, scheduled for a retry, waiting for an earlier"
                                    + " delivery of their object to their webhook (-1: database unreachable)")
                    .register(registry);
        }
        Gauge.builder("dispatcher.delivery.oldest.due.age", this, m -> m.value(4))
                .baseUnit("seconds")
                .description(
                        "How long the longest-due queued delivery has been due; 0 when none (-1: database unreachable)")
                .register(registry);
    }

    private double value(int column) {
        Snapshot last = snapshot;
        long now = System.nanoTime();
        if (last == null || now - last.readAt() >= REUSE_NANOS) {
            last = new Snapshot(now, read());
            snapshot = last;
        }
        return last.values() == null ? -1 : last.values()[column];
    }

    private double[] read() {
        try (Connection connection = dataSource.getConnection();
                Statement query = connection.createStatement();
                ResultSet result = query.executeQuery(QUEUE)) {
            result.next();
            return new double[] {
                result.getLong(1), result.getLong(2), result.getLong(3), result.getLong(4), result.getDouble(5)
            };
        } catch (SQLException e) {
            return null;
        }
    }
}
