package org.sourceoftruth.records.changelog;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness of the outbox relay: DOWN when it should run and cannot, i.e. it has no live worker or
 * its rounds keep ending in errors ({@link OutboxRelay#isRunning()}). Restarting the process is
 * then the way back: the changes it would publish wait in the table meanwhile. A relay waiting
 * for Kafka or PostgreSQL, or standing by behind another replica's lease, is alive: a restart
 * would not help it.
 */
@Liveness
@ApplicationScoped
public class OutboxRelayLivenessCheck implements HealthCheck {

    @Inject
    RelayLifecycle lifecycle;

    @Override
    public HealthCheckResponse call() {
        OutboxRelay relay = lifecycle.relay();
        boolean up = !lifecycle.enabled() || lifecycle.stopping() || relay.isRunning();
        return HealthCheckResponse.named(OutboxRelayHealthCheck.NAME)
                .status(up)
                .withData("enabled", lifecycle.enabled())
                .withData("role", relay.role().name().toLowerCase())
                .withData("errors", relay.errorCount())
                .withData("restarts", relay.restartCount())
                .build();
    }
}
