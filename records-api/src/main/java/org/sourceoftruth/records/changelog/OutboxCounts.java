package org.sourceoftruth.records.changelog;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** How many change-log rows wait for the relay, and how many it parked (for readiness and metrics). */
@ApplicationScoped
public class OutboxCounts {

    /** One statement, both counts, each served by its partial index (V43). */
    private static final String COUNTS = """
            select (select count(*) from core_objectchange where published_at is null and parked_at is null),
                   (select count(*) from core_objectchange where parked_at is not null)""";

    public record Counts(long backlog, long parked) {
    }

    @Inject
    DataSource dataSource;

    public Counts read() throws SQLException {
        try (Connection connection = dataSource.getConnection();
             Statement count = connection.createStatement();
             ResultSet result = count.executeQuery(COUNTS)) {
            result.next();
            return new Counts(result.getLong(1), result.getLong(2));
        }
    }

    /** Parked rows now, or -1 when the database does not answer (a gauge cannot throw). */
    long parkedOrUnknown() {
        try {
            return read().parked();
        } catch (SQLException e) {
            return -1;
        }
    }
}
