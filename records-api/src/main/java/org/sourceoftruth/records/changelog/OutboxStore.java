package org.sourceoftruth.records.changelog;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The relay's own database session: leader lease, LISTEN, reading unpublished rows and marking
 * them published. One session on purpose: a session advisory lock and a LISTEN registration live
 * exactly as long as their connection, so a crashed or partitioned leader loses the lease the
 * moment PostgreSQL drops its session, and another replica takes over.
 */
final class OutboxStore implements AutoCloseable {

    /** Channel the V20 trigger notifies on commit of change-log rows. */
    static final String CHANNEL = "object_changes";
    /** Name of the advisory lock that makes one relay the leader, hashed to a 64-bit key. */
    static final String LEASE_NAME = "sot.outbox-relay";
    /** Shows up as application_name in pg_stat_activity. */
    static final String APPLICATION_NAME = "records-api outbox relay";

    /**
     * The next rows to publish, in id order: at most {@code limit} rows, and no more rows than
     * start within {@code budget} bytes of JSON (the first always comes), so that a backlog of
     * large changes is read a few at a time instead of filling the heap. Parked rows wait for
     * an operator, not for the relay.
     */
    private static final String SELECT_UNPUBLISHED = """
            with candidates as (
                select id, coalesce(octet_length(event_data::text), 0) + coalesce(octet_length(prechange_data::text), 0)
                           + coalesce(octet_length(postchange_data::text), 0) as size
                  from core_objectchange
                 where published_at is null and parked_at is null
                 order by id
                 limit ?),
            within_budget as (
                select id from (select id, sum(size) over (order by id) - size as before from candidates) c
                 where before < ?)
            select id, change_id, time, user_name, request_id, action, changed_object_type,
                   changed_object_id, event_data::text, prechange_data::text, postchange_data::text,
                   (select count(*) from candidates) as candidates
              from core_objectchange join within_budget using (id)
             order by id""";

    private final Connection connection;

    private OutboxStore(Connection connection) {
        this.connection = connection;
    }

    static OutboxStore open(OutboxSettings settings) throws SQLException {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setUrl(settings.jdbcUrl());
        source.setUser(settings.dbUser());
        source.setPassword(settings.dbPassword());
        source.setApplicationName(APPLICATION_NAME);
        source.setTcpKeepAlive(true);
        Connection connection = source.getConnection();
        connection.setAutoCommit(true);
        try (Statement session = connection.createStatement()) {
            // Marking rows published need not wait for the WAL flush: a mark lost in a crash only
            // means those rows go out again, which at-least-once delivery allows (consumers drop
            // repeats by change id); a relay marking one commit at a time flushed once per change.
            session.execute("set synchronous_commit = off");
        }
        return new OutboxStore(connection);
    }

    /** Takes the leader lease if no other session holds it; never waits. */
    boolean tryAcquireLease() throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(
                "select pg_try_advisory_lock(hashtextextended(?, 0))")) {
            lock.setString(1, LEASE_NAME);
            try (ResultSet result = lock.executeQuery()) {
                result.next();
                return result.getBoolean(1);
            }
        }
    }

    void listen() throws SQLException {
        try (Statement listen = connection.createStatement()) {
            listen.execute("listen " + CHANNEL);
        }
    }

    /** Waits until a commit notifies the channel or the timeout passes; true when notified. */
    boolean awaitNotification(Duration timeout) throws SQLException {
        PGNotification[] notifications = connection.unwrap(PGConnection.class)
                .getNotifications((int) Math.max(1, timeout.toMillis()));
        return notifications != null && notifications.length > 0;
    }

    /**
     * The oldest unpublished rows, at most {@code limit} and within the byte budget (at least one);
     * {@code more}: rows were left for the next round (the limit or the budget cut the batch).
     */
    record Batch(List<PendingChange> changes, boolean more) {
    }

    Batch fetchUnpublished(int limit, long budgetBytes) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(SELECT_UNPUBLISHED)) {
            select.setInt(1, limit);
            select.setLong(2, budgetBytes);
            List<PendingChange> changes = new ArrayList<>(limit);
            long candidates = 0;
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    candidates = rows.getLong(12);
                    changes.add(new PendingChange(
                            rows.getLong(1),
                            rows.getObject(2, UUID.class),
                            rows.getObject(3, OffsetDateTime.class),
                            rows.getString(4),
                            rows.getObject(5, UUID.class),
                            rows.getString(6),
                            rows.getString(7),
                            rows.getLong(8),
                            rows.getString(9),
                            rows.getString(10),
                            rows.getString(11)));
                }
            }
            return new Batch(changes, candidates == limit || candidates > changes.size());
        }
    }

    void markPublished(List<PendingChange> changes) throws SQLException {
        Long[] ids = changes.stream().map(PendingChange::id).toArray(Long[]::new);
        try (PreparedStatement update = connection.prepareStatement(
                "update core_objectchange set published_at = now() where id = any(?)")) {
            Array array = connection.createArrayOf("bigint", ids);
            update.setArray(1, array);
            update.executeUpdate();
            array.free();
        }
    }

    /**
     * Takes a row out of the relay's way for good (until an operator retries it, see
     * OutboxAdminResource): it stays unpublished, so retention keeps it too.
     */
    void park(long id, String reason) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(
                "update core_objectchange set parked_at = now(), park_reason = ? where id = ? and published_at is null")) {
            update.setString(1, reason);
            update.setLong(2, id);
            update.executeUpdate();
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // The session is gone either way, and with it the lease.
        }
    }
}
