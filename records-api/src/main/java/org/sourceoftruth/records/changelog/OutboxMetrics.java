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
 * by this replica, and rows parked in the table now (sot_outbox_parked_rows; alert when above 0).
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
                .description("Change events acknowledged by Kafka").register(registry);
        FunctionCounter.builder("sot.outbox.truncated", relay, OutboxRelay::truncatedCount)
                .description("Change events published in reduced form, flagged truncated").register(registry);
        FunctionCounter.builder("sot.outbox.parked", relay, OutboxRelay::parkedCount)
                .description("Change-log rows this replica parked because they can never be published")
                .register(registry);
        Gauge.builder("sot.outbox.parked.rows", counts, OutboxCounts::parkedOrUnknown)
                .description("Change-log rows parked now, waiting for an operator (-1: database unreachable)")
                .register(registry);
    }
}
