package org.sourceoftruth.records.changelog;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * The relay on /q/metrics: events published, events published reduced (truncated), rows parked
 * by this replica, failed relay rounds (Kafka or database), and from the table: rows parked now
 * (sot_outbox_parked_rows; alert when above 0), rows waiting to be published
 * (sot_outbox_backlog_rows) and how long the oldest of them has waited
 * (sot_outbox_oldest_unpublished_age_seconds: the lag of the change stream behind the database).
 */
@Singleton
public class OutboxMetrics {

    @Inject
    MeterRegistry registry;

    @Inject
    RelayLifecycle lifecycle;

    @Inject
    OutboxCounts counts;

    void register(@Observes StartupEvent event) {
        OutboxRelay relay = lifecycle.relay();
        FunctionCounter.builder("sot.outbox.published", relay, OutboxRelay::publishedCount)
                .description("Change events acknowledged by Kafka")
                .register(registry);
        FunctionCounter.builder("sot.outbox.truncated", relay, OutboxRelay::truncatedCount)
                .description("Change events published in reduced form, flagged truncated")
                .register(registry);
        FunctionCounter.builder("sot.outbox.parked", relay, OutboxRelay::parkedCount)
                .description("Change-log rows this replica parked because they can never be published")
                .register(registry);
        FunctionCounter.builder("sot.outbox.failed", relay, OutboxRelay::failedCount)
                .description(
                        "Relay rounds that failed: Kafka did not acknowledge a batch or the database session was lost")
                .register(registry);
        Gauge.builder("sot.outbox.backlog.rows", counts, OutboxCounts::backlogOrUnknown)
                .description("Change-log rows waiting to be published (-1: database unreachable)")
                .register(registry);
        Gauge.builder("sot.outbox.oldest.unpublished.age", counts, OutboxCounts::oldestAgeOrUnknown)
                .baseUnit("seconds")
                .description(
                        "How long the oldest unpublished change has waited; 0 when none waits (-1: database unreachable)")
                .register(registry);
        Gauge.builder("sot.outbox.parked.rows", counts, OutboxCounts::parkedOrUnknown)
                .description("Change-log rows parked now, waiting for an operator (-1: database unreachable)")
                .register(registry);
    }
}
