package org.sourceoftruth.records.changelog;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Reports this replica's relay: leader or standby, and how many changes wait to be published.
 * A standby replica, or a leader waiting for Kafka, is still ready: API writes do not depend on
 * the relay, and the Kafka and datasource checks report those servers themselves. Down only when
 * the relay should run and does not.
 */
@Readiness
@ApplicationScoped
public class OutboxRelayHealthCheck implements HealthCheck {

    static final String NAME = "outbox-relay";

    @Inject
    RelayLifecycle lifecycle;

    @Inject
    DataSource dataSource;

    @Override
    public HealthCheckResponse call() {
        OutboxRelay relay = lifecycle.relay();
        OutboxRelay.Role role = relay.role();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .status(!lifecycle.enabled() || role != OutboxRelay.Role.STOPPED)
                .withData("enabled", lifecycle.enabled())
                .withData("role", role.name().toLowerCase())
                .withData("topic", lifecycle.settings().topic())
                .withData("published", relay.publishedCount());
        try {
            response.withData("backlog", backlog());
        } catch (SQLException e) {
            response.withData("backlog", "unknown: " + e.getMessage());
        }
        if (relay.lastPublishedAt() != null) {
            response.withData("last_published_at", relay.lastPublishedAt().toString());
        }
        if (relay.waitingForKafkaSince() != null) {
            response.withData("waiting_for_kafka_since", relay.waitingForKafkaSince().toString());
        }
        if (relay.lastError() != null) {
            response.withData("last_error", relay.lastError());
        }
        return response.build();
    }

    private long backlog() throws SQLException {
        try (Connection connection = dataSource.getConnection();
             Statement count = connection.createStatement();
             ResultSet result = count.executeQuery(
                     "select count(*) from core_objectchange where published_at is null")) {
            result.next();
            return result.getLong(1);
        }
    }
}
