package org.sourceoftruth.dispatcher.delivery;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The admin's transitions of a delivery: requeue, enqueue now, stop, delete; and retention clean-up.
 * Each one that adds a delivery to its lane's unfinished ones or takes one out of them holds the
 * lane's lock ({@link DeliveryLanes}), so per-object order survives them.
 */
@ApplicationScoped
public class DeliveryAdmin {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    DeliveryWorker worker;

    /** Result of a manual requeue. */
    public enum RequeueResult {
        REQUEUED,
        NOT_FOUND,
        NOT_FAILED,
        NOT_RENDERED
    }

    /**
     * failed → queued for a new round of attempts (attempt history is kept). A delivery whose
     * request could not be built cannot be requeued: the same error would come back. It joins the
     * end of its lane: due at once when nothing else of its object is unfinished at that webhook,
     * else after what is (it keeps its number, so the receiver can tell it is an old one).
     */
    public RequeueResult requeue(long id) throws SQLException {
        return inTransaction(connection -> {
            DeliveryLanes.lockOf(connection, List.of(id));
            try (PreparedStatement requeue = connection.prepareStatement("""
                     update dispatch.delivery d
                        set state = 'queued', round = round + 1, attempts = 0, next_attempt_at = now(),
                            completed_at = null, lease_owner = null, lease_expires_at = null,
                            waiting = exists (select 1 from dispatch.delivery o
                                               where o.webhook_id = d.webhook_id and o.model = d.model
                                                 and o.object_id = d.object_id and o.state = 'queued')
                      where id = ? and state = 'failed' and request_url is not null""")) {
                requeue.setLong(1, id);
                if (requeue.executeUpdate() == 1) {
                    return RequeueResult.REQUEUED;
                }
            }
            Optional<String[]> current = stateOf(connection, id);
            if (current.isEmpty()) {
                return RequeueResult.NOT_FOUND;
            }
            return current.get()[1] == null && current.get()[0].equals("failed")
                    ? RequeueResult.NOT_RENDERED
                    : RequeueResult.NOT_FAILED;
        });
    }

    /** Result of the other admin actions (NetBox's enqueue, stop and delete). */
    public enum ActionResult {
        DONE,
        NOT_FOUND,
        WRONG_STATE
    }

    /**
     * A queued delivery waiting for its next attempt (RQ: scheduled) becomes due now. One being sent
     * right now (leased) is left alone: its worker decides what happens next. One waiting for an
     * earlier delivery of its lane (RQ: deferred) stays behind it.
     */
    public ActionResult enqueueNow(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement("""
                     update dispatch.delivery set next_attempt_at = now()
                      where id = ? and state = 'queued' and not waiting
                        and (lease_expires_at is null or lease_expires_at < now())""")) {
            update.setLong(1, id);
            return update.executeUpdate() == 1
                    ? ActionResult.DONE
                    : stateOf(connection, id).isEmpty() ? ActionResult.NOT_FOUND : ActionResult.WRONG_STATE;
        }
    }

    /**
     * queued → failed with {@code reason} as its error, so no further attempt is made; the next
     * delivery of its lane becomes due. An attempt in flight is not interrupted, but its outcome is
     * no longer recorded (finishing requires an unfinished delivery).
     */
    public ActionResult stop(long id, String reason) throws SQLException {
        return inTransaction(connection -> {
            DeliveryLanes.Lane lane = DeliveryLanes.lockOf(connection, List.of(id)).stream()
                    .findFirst()
                    .orElse(null);
            try (PreparedStatement stop = connection.prepareStatement("""
                     update dispatch.delivery
                        set state = 'failed', completed_at = now(), last_error = ?, lease_owner = null,
                            lease_expires_at = null, waiting = false
                      where id = ? and state = 'queued'""")) {
                stop.setString(1, reason);
                stop.setLong(2, id);
                if (stop.executeUpdate() == 1) {
                    madeDue(connection, lane);
                    return ActionResult.DONE;
                }
            }
            return stateOf(connection, id).isEmpty() ? ActionResult.NOT_FOUND : ActionResult.WRONG_STATE;
        });
    }

    /** Removes the delivery with its attempts and rendered request, whatever its state. */
    public ActionResult delete(long id) throws SQLException {
        return inTransaction(connection -> {
            DeliveryLanes.Lane lane = DeliveryLanes.lockOf(connection, List.of(id)).stream()
                    .findFirst()
                    .orElse(null);
            try (PreparedStatement delete = connection.prepareStatement("delete from dispatch.delivery where id = ?")) {
                delete.setLong(1, id);
                if (delete.executeUpdate() == 1) {
                    madeDue(connection, lane);
                    return ActionResult.DONE;
                }
                return ActionResult.NOT_FOUND;
            }
        });
    }

    /**
     * Stops the replay's unfinished deliveries (see {@link #stop}), all in one transaction; the
     * next delivery of each of their lanes becomes due.
     *
     * @return how many were stopped
     */
    public int stopReplay(long replayId, String reason) throws SQLException {
        return inTransaction(connection -> {
            List<Long> ids = new java.util.ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "select id from dispatch.delivery where replay_id = ? and state = 'queued'")) {
                select.setLong(1, replayId);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getLong(1));
                    }
                }
            }
            if (ids.isEmpty()) {
                return 0;
            }
            List<DeliveryLanes.Lane> lanes = DeliveryLanes.lockOf(connection, ids);
            int stopped;
            try (PreparedStatement stop = connection.prepareStatement("""
                     update dispatch.delivery
                        set state = 'failed', completed_at = now(), last_error = ?, lease_owner = null,
                            lease_expires_at = null, waiting = false
                      where id = any(?) and state = 'queued'""")) {
                stop.setString(1, reason);
                stop.setArray(2, connection.createArrayOf("bigint", ids.toArray()));
                stopped = stop.executeUpdate();
            }
            if (DeliveryLanes.promote(connection, lanes) > 0) {
                worker.wake();
            }
            return stopped;
        });
    }

    private void madeDue(Connection connection, DeliveryLanes.Lane lane) throws SQLException {
        if (lane != null && DeliveryLanes.promote(connection, List.of(lane)) > 0) {
            worker.wake();
        }
    }

    private static Optional<String[]> stateOf(Connection connection, long id) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement("select state, request_url from dispatch.delivery where id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(new String[] {row.getString(1), row.getString(2)}) : Optional.empty();
            }
        }
    }

    /**
     * Deletes finished deliveries and processed change ids older than the retention period, and
     * the lanes left without any delivery (their numbering starts again at 1).
     *
     * @return deliveries, processed change ids and lanes deleted
     */
    public int[] deleteOlderThan(int days) throws SQLException {
        int deliveries;
        int changes;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement deleteDeliveries = connection.prepareStatement("""
                     delete from dispatch.delivery
                     where state <> 'queued' and completed_at < now() - make_interval(days => ?)""");
                PreparedStatement deleteChanges = connection.prepareStatement("""
                     delete from dispatch.processed_change where processed_at < now() - make_interval(days => ?)""")) {
            deleteDeliveries.setInt(1, days);
            deleteChanges.setInt(1, days);
            deliveries = deleteDeliveries.executeUpdate();
            changes = deleteChanges.executeUpdate();
        }
        int lanes = inTransaction(connection -> {
            // locked first, then checked in a statement of their own: a delivery recorded by a
            // transaction that held the lane before is seen, one that comes after waits for this
            try (PreparedStatement lock = connection.prepareStatement("""
                         select webhook_id, model, object_id from dispatch.delivery_lane l
                          where not exists (select 1 from dispatch.delivery d where d.webhook_id = l.webhook_id
                                              and d.model = l.model and d.object_id = l.object_id)
                          order by webhook_id, model, object_id
                            for update skip locked""");
                    PreparedStatement delete = connection.prepareStatement("""
                         delete from dispatch.delivery_lane l
                          where (l.webhook_id, l.model, l.object_id) in
                                (select * from unnest(?::bigint[], ?::varchar[], ?::bigint[]))
                            and not exists (select 1 from dispatch.delivery d where d.webhook_id = l.webhook_id
                                              and d.model = l.model and d.object_id = l.object_id)""")) {
                List<Object[]> idle = new java.util.ArrayList<>();
                try (ResultSet rows = lock.executeQuery()) {
                    while (rows.next()) {
                        idle.add(new Object[] {rows.getLong(1), rows.getString(2), rows.getLong(3)});
                    }
                }
                if (idle.isEmpty()) {
                    return 0;
                }
                delete.setArray(
                        1,
                        connection.createArrayOf(
                                "bigint", idle.stream().map(l -> l[0]).toArray()));
                delete.setArray(
                        2,
                        connection.createArrayOf(
                                "varchar", idle.stream().map(l -> l[1]).toArray()));
                delete.setArray(
                        3,
                        connection.createArrayOf(
                                "bigint", idle.stream().map(l -> l[2]).toArray()));
                return delete.executeUpdate();
            }
        });
        return new int[] {deliveries, changes, lanes};
    }

    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T inTransaction(Work<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }
}
