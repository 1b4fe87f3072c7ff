package org.sourceoftruth.records.changelog;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** How many change-log rows wait for the relay, and how many it parked (for readiness and metrics). */
@ApplicationScoped
public class OutboxCounts {

    /** One statement, all figures: the pending list (V166) and the parked rows' partial index (V43). */
    private static final String COUNTS = """
            select (select count(*) from core_objectchange_pending),
                   (select count(*) from core_objectchange where parked_at is not null),
                   (select extract(epoch from now() - c.time) from core_objectchange c
                     where c.id = (select min(id) from core_objectchange_pending))""";

    /**
     * @param oldestAgeSeconds how long the oldest unpublished (not parked) change has waited; 0
     *                         when none waits
     */
    public record Counts(long backlog, long parked, double oldestAgeSeconds) {}

    @Inject
    DataSource dataSource;

    public Counts read() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement count = connection.createStatement();
                ResultSet result = count.executeQuery(COUNTS)) {
            result.next();
            return new Counts(result.getLong(1), result.getLong(2), Math.max(0, result.getDouble(3)));
        }
    }

    /** Parked rows now, or -1 when the database does not answer (a gauge cannot throw). */
    long parkedOrUnknown() {
        Counts recent = recent();
        return recent == null ? -1 : recent.parked();
    }

    /** Rows waiting for the relay now, or -1 when the database does not answer. */
    long backlogOrUnknown() {
        Counts recent = recent();
        return recent == null ? -1 : recent.backlog();
    }

    /** Seconds the oldest waiting row has waited, or -1 when the database does not answer. */
    double oldestAgeOrUnknown() {
        Counts recent = recent();
        return recent == null ? -1 : recent.oldestAgeSeconds();
    }

    /** One query serves all gauges of a scrape: figures younger than this are reused. */
    private static final long REUSE_NANOS = 2_000_000_000L;

    private record Snapshot(long readAt, Counts counts) {}

    private volatile Snapshot snapshot;

    private Counts recent() {
        Snapshot last = snapshot;
        long now = System.nanoTime();
        if (last != null && now - last.readAt() < REUSE_NANOS) {
            return last.counts();
        }
        Counts counts;
        try {
            counts = read();
        } catch (SQLException e) {
            counts = null;
        }
        snapshot = new Snapshot(now, counts);
        return counts;
    }
}
