package org.sourceoftruth.records.changelog;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports this replica's relay: leader or standby, how many changes wait to be published, how
 * many were parked (could never be published; see {@link OutboxRelay}) and how many went out in
 * reduced form. A standby replica, a leader waiting for Kafka, or parked rows still leave the
 * replica ready: API writes do not depend on the relay, and taking replicas out of service would
 * not get a parked row published. Down only when the relay should run and does not.
 */
@Readiness
@ApplicationScoped
public class OutboxRelayHealthCheck implements HealthCheck {

    static final String NAME = "outbox-relay";

    @Inject
    RelayLifecycle lifecycle;

    @Inject
    OutboxCounts counts;

    @Override
    public HealthCheckResponse call() {
        OutboxRelay relay = lifecycle.relay();
        OutboxRelay.Role role = relay.role();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .status(!lifecycle.enabled() || role != OutboxRelay.Role.STOPPED)
                .withData("enabled", lifecycle.enabled())
                .withData("role", role.name().toLowerCase())
                .withData("topic", lifecycle.settings().topic())
                .withData("published", relay.publishedCount())
                .withData("truncated", relay.truncatedCount())
                .withData("errors", relay.errorCount())
                .withData("restarts", relay.restartCount());
        try {
            OutboxCounts.Counts now = counts.read();
            response.withData("backlog", now.backlog()).withData("parked", now.parked());
        } catch (SQLException e) {
            response.withData("backlog", "unknown: " + e.getMessage());
        }
        if (relay.lastPublishedAt() != null) {
            response.withData("last_published_at", relay.lastPublishedAt().toString());
        }
        if (relay.waitingForKafkaSince() != null) {
            response.withData(
                    "waiting_for_kafka_since", relay.waitingForKafkaSince().toString());
        }
        if (relay.lastError() != null) {
            response.withData("last_error", relay.lastError());
        }
        return response.build();
    }
}
