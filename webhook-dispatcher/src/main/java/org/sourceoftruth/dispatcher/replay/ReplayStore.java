package org.sourceoftruth.dispatcher.replay;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The replays in dispatch.replay: created by an operator, taken up and moved on by a runner. */
@ApplicationScoped
public class ReplayStore {

    private static final String COLUMNS = """
            id, state, webhook_id, webhook_name, change_id, since, until, object_types, rate, position,
            changes_read, deliveries, error, created, created_by, finished_at""";

    @Inject
    AgroalDataSource dataSource;

    /** What an operator asked for. */
    public record Request(
            long webhookId,
            String webhookName,
            UUID changeId,
            OffsetDateTime since,
            OffsetDateTime until,
            List<String> objectTypes,
            int rate,
            String createdBy) {}

    public Replay create(Request request) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "insert into dispatch.replay(state, webhook_id, webhook_name, change_id, since, until,"
                                + " object_types, rate, created_by) values ('running', ?, ?, ?, ?, ?, ?, ?, ?)"
                                + " returning " + COLUMNS)) {
            insert.setLong(1, request.webhookId());
            insert.setString(2, request.webhookName());
            insert.setObject(3, request.changeId());
            insert.setObject(4, request.since());
            insert.setObject(5, request.until());
            insert.setArray(
                    6, connection.createArrayOf("text", request.objectTypes().toArray()));
            insert.setInt(7, request.rate());
            insert.setString(8, request.createdBy());
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return replay(row);
            }
        }
    }

    public Optional<Replay> get(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select =
                        connection.prepareStatement("select " + COLUMNS + " from dispatch.replay where id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(replay(row)) : Optional.empty();
            }
        }
    }

    /** A page of replays, newest first, and how many there are. */
    public record Page(long count, List<Replay> replays) {}

    public Page list(Integer limit, int offset) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            long count;
            try (PreparedStatement select = connection.prepareStatement("select count(*) from dispatch.replay");
                    ResultSet row = select.executeQuery()) {
                row.next();
                count = row.getLong(1);
            }
            List<Replay> replays = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "select " + COLUMNS + " from dispatch.replay order by id desc limit ? offset ?")) {
                if (limit == null) {
                    select.setNull(1, Types.BIGINT);
                } else {
                    select.setLong(1, limit);
                }
                select.setLong(2, offset);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        replays.add(replay(rows));
                    }
                }
            }
            return new Page(count, replays);
        }
    }

    /** The replay's deliveries by state: queued (due, waiting or retrying), succeeded, failed. */
    public Map<String, Long> deliveriesByState(long id) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String state : List.of("queued", "succeeded", "failed")) {
            counts.put(state, 0L);
        }
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "select state, count(*) from dispatch.delivery where replay_id = ? group by state")) {
            select.setLong(1, id);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    counts.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return counts;
    }

    /**
     * Leases a running replay that no other runner holds (or whose runner's lease ran out: it
     * died), the oldest first.
     */
    public Optional<Replay> claim(String owner, Duration lease) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement claim = connection.prepareStatement("""
                        update dispatch.replay r set lease_owner = ?, lease_expires_at = now() + make_interval(secs => ?)
                         where r.id = (select id from dispatch.replay
                                        where state = 'running'
                                          and (lease_expires_at is null or lease_expires_at < now() or lease_owner = ?)
                                        order by id limit 1 for update skip locked)
                        returning\s""" + COLUMNS)) {
            claim.setString(1, owner);
            claim.setDouble(2, lease.toMillis() / 1000.0);
            claim.setString(3, owner);
            try (ResultSet row = claim.executeQuery()) {
                return row.next() ? Optional.of(replay(row)) : Optional.empty();
            }
        }
    }

    /**
     * Moves the replay on past a page, in the transaction that records the page's deliveries:
     * false (record nothing) when it is no longer running under this owner's lease (cancelled,
     * or taken over).
     */
    boolean advance(
            Connection connection,
            long id,
            String owner,
            Duration lease,
            long position,
            int changesRead,
            int deliveries,
            boolean finished)
            throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("""
                update dispatch.replay
                   set position = ?, changes_read = changes_read + ?, deliveries = deliveries + ?,
                       lease_expires_at = now() + make_interval(secs => ?),
                       state = case when ? then 'finished' else state end,
                       finished_at = case when ? then now() else finished_at end,
                       lease_owner = case when ? then null else lease_owner end,
                       error = null
                 where id = ? and state = 'running' and lease_owner = ?""")) {
            update.setLong(1, position);
            update.setInt(2, changesRead);
            update.setInt(3, deliveries);
            update.setDouble(4, lease.toMillis() / 1000.0);
            update.setBoolean(5, finished);
            update.setBoolean(6, finished);
            update.setBoolean(7, finished);
            update.setLong(8, id);
            update.setString(9, owner);
            return update.executeUpdate() == 1;
        }
    }

    /** Ends a running replay with the reason it cannot go on. */
    public void fail(long id, String owner, String error) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement("""
                        update dispatch.replay set state = 'failed', error = ?, finished_at = now(), lease_owner = null
                         where id = ? and state = 'running' and lease_owner = ?""")) {
            update.setString(1, error);
            update.setLong(2, id);
            update.setString(3, owner);
            update.executeUpdate();
        }
    }

    /** Notes a passing problem (records-api does not answer) on a replay that goes on. */
    public void note(long id, String error) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement(
                        "update dispatch.replay set error = ? where id = ? and state = 'running'")) {
            update.setString(1, error);
            update.setLong(2, id);
            update.executeUpdate();
        }
    }

    /** running → cancelled; false when it was not running. */
    public boolean cancel(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement("""
                        update dispatch.replay set state = 'cancelled', finished_at = now(), lease_owner = null
                         where id = ? and state = 'running'""")) {
            update.setLong(1, id);
            return update.executeUpdate() == 1;
        }
    }

    private static Replay replay(ResultSet row) throws SQLException {
        Array types = row.getArray("object_types");
        return new Replay(
                row.getLong("id"),
                row.getString("state"),
                row.getLong("webhook_id"),
                row.getString("webhook_name"),
                row.getObject("change_id", UUID.class),
                row.getObject("since", OffsetDateTime.class),
                row.getObject("until", OffsetDateTime.class),
                types == null ? List.of() : Arrays.asList((String[]) types.getArray()),
                row.getInt("rate"),
                row.getLong("position"),
                row.getLong("changes_read"),
                row.getLong("deliveries"),
                row.getString("error"),
                row.getObject("created", OffsetDateTime.class),
                row.getString("created_by"),
                row.getObject("finished_at", OffsetDateTime.class));
    }
}
