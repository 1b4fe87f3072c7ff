package org.sourceoftruth.records.changelog;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGSimpleDataSource;

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
     * large changes is read a few at a time instead of filling the heap. The pending list (V166)
     * holds the rows still to publish; parked rows are off it, waiting for an operator.
     *
     * <p>The list is read from the relay's read bound up (see {@link ReadBound}), plus the rows
     * below the bound that the transactions not yet visible at the previous read wrote: found by
     * the writers' transaction ids (V167), in the short range of transactions since that read and
     * by equality for the few still running then. The statement returns its own snapshot, which
     * the next read starts from.
     *
     * <p>The rows below the floor are found by the (xid, id) index alone: "id + 0" keeps the
     * primary key out of both lookups. Below the floor that key holds every entry
     * published since the last VACUUM, and the one plan of the session (made while the list was
     * empty) walked them at each read with "id < floor": on a database that had written 100,000
     * changes since its last VACUUM, 313 buffers and 1.2 ms per read, once per single write; by
     * the writers' transaction ids, 3 buffers and 0.1 ms.
     *
     * <p>The change log is reached only by primary-key lookups of the listed ids: the lateral
     * subqueries (OFFSET 0 keeps PostgreSQL from flattening them into joins) leave the planner no
     * other way. As a plain join, the plan the session made once (see {@link #SESSION_SETTINGS})
     * followed the statistics of that moment: on a new database, empty and not yet analysed, it
     * was a merge join that walked the change log's primary key from its first row up to the
     * batch at every batch, so each batch cost more than the one before (a seeding of 268,000
     * changes left a backlog of ~120,000, drained at ~4,000 changes/s with PostgreSQL on a full
     * core; 72 million index entries read in 285,000 index scans). The rows come out in the order
     * the running sum already put them in (by w.id), so no sort of the wide rows follows.
     */
    static final String SELECT_UNPUBLISHED = """
            with bound as (select ?::bigint as floor, ?::pg_snapshot as seen),
            listed as (
                select id from (
                    (select id from core_objectchange_pending where id >= (select floor from bound) order by id limit ?)
                    union all
                    select id from core_objectchange_pending
                     where xid >= (select pg_snapshot_xmax(seen) from bound) and id + 0 < (select floor from bound)
                    union all
                    select id from core_objectchange_pending
                     where xid = any(array(select pg_snapshot_xip(seen) from bound)) and id + 0 < (select floor from bound)
                ) l order by id limit ?),
            candidates as (
                select p.id, c.size
                  from listed p
                  cross join lateral (
                       select coalesce(octet_length(event_data::text), 0) + coalesce(octet_length(prechange_data::text), 0)
                              + coalesce(octet_length(postchange_data::text), 0) as size
                         from core_objectchange where id = p.id offset 0) c),
            within_budget as (
                select id from (select id, sum(size) over (order by id) - size as before from candidates) c
                 where before < ?)
            select w.id, c.change_id, c.time, c.user_name, c.request_id, c.action, c.changed_object_type,
                   c.changed_object_id, c.event_data, c.prechange_data, c.postchange_data,
                   (select count(*) from candidates) as candidates,
                   (select pg_current_snapshot()::text) as seen, c.request_method, c.request_path, c.rules_version
              from within_budget w
              cross join lateral (
                   select change_id, time, user_name, request_id, action, changed_object_type, changed_object_id,
                          event_data::text, prechange_data::text, postchange_data::text, request_method, request_path,
                          rules_version
                     from core_objectchange where id = w.id offset 0) c
             order by w.id""";

    /** The relay session's settings, applied once when it connects. */
    static final List<String> SESSION_SETTINGS = List.of(
            // Marking rows published need not wait for the WAL flush: a mark lost in a crash only
            // means those rows go out again, which at-least-once delivery allows (consumers drop
            // repeats by change id); a relay marking one commit at a time flushed once per change.
            "set synchronous_commit = off",
            // Plan the relay's few statements once per session. Left to choose, PostgreSQL kept
            // planning the publish statement again at every execution (a generic plan of
            // "id = any($1)" guesses 10 rows, dearer than the custom plan of the one id a single
            // write publishes): 0.16 ms per published change, ~7 % of a single site POST's
            // statement time. The statements are written so that the one plan is the right one
            // whatever the tables held when it was made (SELECT_UNPUBLISHED).
            "set plan_cache_mode = force_generic_plan",
            // The pending list is read from the floor up, by its primary key. Its statistics say
            // little (it is empty between bursts and holds 100,000 ids during a bulk load, and
            // the plan is made once): planned for the empty list, a sequential scan read every
            // pending id, and every dead one left since the last VACUUM, at each batch, which
            // drained a seeding backlog at ~1,500 changes/s instead of keeping up with it. No
            // statement of this session gains from a sequential scan.
            "set enable_seqscan = off");

    private final Connection connection;
    private final Duration fullReadInterval;
    private ReadBound bound = ReadBound.START;
    private Instant lastFullRead = Instant.EPOCH;

    private OutboxStore(Connection connection, Duration fullReadInterval) {
        this.connection = connection;
        this.fullReadInterval = fullReadInterval;
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
            for (String setting : SESSION_SETTINGS) {
                session.execute(setting);
            }
        }
        return new OutboxStore(connection, settings.fullReadInterval());
    }

    /** Takes the leader lease if no other session holds it; never waits. */
    boolean tryAcquireLease() throws SQLException {
        try (PreparedStatement lock =
                connection.prepareStatement("select pg_try_advisory_lock(hashtextextended(?, 0))")) {
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

    /**
     * Waits until a commit notifies the channel or the timeout passes; true when notified. A
     * notification only wakes the relay: it may come after the commit is visible to the relay's
     * next read, or before it, so what to read is never taken from it (see {@link ReadBound}).
     */
    boolean awaitNotification(Duration timeout) throws SQLException {
        PGNotification[] notifications =
                connection.unwrap(PGConnection.class).getNotifications((int) Math.max(1, timeout.toMillis()));
        return notifications != null && notifications.length > 0;
    }

    /**
     * Where the relay's next read starts: every row visible in the snapshot {@code seen} whose id
     * is below {@code floor} has been published (or parked). So the unpublished rows below the
     * floor that a later read can see were written by transactions not visible in {@code seen}:
     * running then (its xip list) or not started (transaction id at or above its xmax). The read
     * takes those by their transaction id and the rest from the floor up, in one id order.
     *
     * <p>Why a floor: published rows leave dead entries at the low end of the pending list's
     * index until VACUUM, and a read from the start walks them all (0.7 ms per read at a few
     * hundred changes a second, growing with the time since the last VACUUM). Why the snapshot:
     * ids are taken before commit, so a transaction can commit a row below ids already published
     * (one that waited on a row lock, say). The relay used to learn of such a row from its
     * commit's NOTIFY, but a notification can reach the relay after its next read already sees
     * the commit, and the rows the object got after it: those went out first, out of order.
     */
    record ReadBound(long floor, String seen) {
        /**
         * Read from the start. No row is below 0; the snapshot's xmax is the largest there is, so
         * that the index range of transactions at or after it is empty, not the whole index.
         */
        static final ReadBound START = new ReadBound(0, Long.MAX_VALUE + ":" + Long.MAX_VALUE + ":");
    }

    /**
     * The oldest unpublished rows, at most {@code limit} and within the byte budget (at least one);
     * {@code more}: rows were left for the next round (the limit or the budget cut the batch).
     * {@code boundBefore} is where the read started; the bound has moved to the first row read.
     */
    record Batch(List<PendingChange> changes, boolean more, ReadBound boundBefore) {}

    Batch fetchUnpublished(int limit, long budgetBytes) throws SQLException {
        Instant now = Instant.now();
        if (Duration.between(lastFullRead, now).compareTo(fullReadInterval) >= 0) {
            // Needless while the bound holds; a cheap guard against any row it ever missed.
            bound = ReadBound.START;
            lastFullRead = now;
        }
        ReadBound before = bound;
        try (PreparedStatement select = connection.prepareStatement(SELECT_UNPUBLISHED)) {
            select.setLong(1, before.floor());
            select.setString(2, before.seen());
            select.setInt(3, limit);
            select.setInt(4, limit);
            select.setLong(5, budgetBytes);
            List<PendingChange> changes = new ArrayList<>(limit);
            long candidates = 0;
            String seen = null;
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    candidates = rows.getLong(12);
                    seen = rows.getString(13);
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
                            rows.getString(11),
                            rows.getString(14),
                            rows.getString(15),
                            (Long) rows.getObject(16)));
                }
            }
            if (!changes.isEmpty()) {
                // The rows read are every unpublished row visible now, lowest first (cut short
                // maybe): none visible now is below the first, whatever happens to the batch.
                bound = new ReadBound(Math.min(before.floor(), changes.get(0).id()), seen);
            }
            // An empty read leaves the bound as it was: it still holds, nothing was visible.
            return new Batch(changes, candidates == limit || candidates > changes.size(), before);
        }
    }

    /** Marks the first {@code count} rows of the batch published and moves the read bound past them. */
    void markPublished(Batch batch, int count) throws SQLException {
        List<PendingChange> changes = batch.changes().subList(0, count);
        Long[] ids = changes.stream().map(PendingChange::id).toArray(Long[]::new);
        try (PreparedStatement unlist =
                connection.prepareStatement("delete from core_objectchange_pending where id = any(?)")) {
            Array array = connection.createArrayOf("bigint", ids);
            unlist.setArray(1, array);
            unlist.executeUpdate();
            array.free();
        }
        long last = changes.get(changes.size() - 1).id();
        // Every unpublished row the read saw up to the last one marked is published now. When
        // that was all of them, no row visible to it is left below the old floor either.
        boolean all = !batch.more() && count == batch.changes().size();
        long floor = all ? Math.max(batch.boundBefore().floor(), last + 1) : last + 1;
        bound = new ReadBound(floor, bound.seen());
    }

    /** Marks rows published that are known to be on the topic (not through the read bound: the next read skips them). */
    void unlist(List<Long> ids) throws SQLException {
        try (PreparedStatement unlist =
                connection.prepareStatement("delete from core_objectchange_pending where id = any(?)")) {
            Array array = connection.createArrayOf("bigint", ids.toArray());
            unlist.setArray(1, array);
            unlist.executeUpdate();
            array.free();
        }
    }

    /**
     * Takes a row out of the relay's way for good (until an operator retries it, see
     * OutboxAdminResource): off the pending list but marked parked, so retention keeps it.
     */
    void park(long id, String reason) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("""
                with unlisted as (delete from core_objectchange_pending where id = ? returning id)
                update core_objectchange c set parked_at = now(), park_reason = ?
                  from unlisted where c.id = unlisted.id""")) {
            update.setLong(1, id);
            update.setString(2, reason);
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
