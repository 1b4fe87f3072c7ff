package org.sourceoftruth.dispatcher.delivery;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** The admin's transitions of a delivery: requeue, enqueue now, stop, delete; and retention clean-up. */
@ApplicationScoped
public class DeliveryAdmin {
    @Inject
    AgroalDataSource dataSource;

    /** Result of a manual requeue. */
    public enum RequeueResult {
        REQUEUED,
        NOT_FOUND,
        NOT_FAILED,
        NOT_RENDERED
    }

    /**
     * failed → queued for a new round of attempts (attempt history is kept). A delivery whose
     * request could not be built cannot be requeued: the same error would come back.
     */
    public RequeueResult requeue(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement requeue = connection.prepareStatement("""
                     update dispatch.delivery
                        set state = 'queued', round = round + 1, attempts = 0, next_attempt_at = now(),
                            completed_at = null, lease_owner = null, lease_expires_at = null
                      where id = ? and state = 'failed' and request_url is not null""")) {
            requeue.setLong(1, id);
            if (requeue.executeUpdate() == 1) {
                return RequeueResult.REQUEUED;
            }
            Optional<String[]> current = stateOf(connection, id);
            if (current.isEmpty()) {
                return RequeueResult.NOT_FOUND;
            }
            return current.get()[1] == null && current.get()[0].equals("failed")
                    ? RequeueResult.NOT_RENDERED
                    : RequeueResult.NOT_FAILED;
        }
    }

    /** Result of the other admin actions (NetBox's enqueue, stop and delete). */
    public enum ActionResult {
        DONE,
        NOT_FOUND,
        WRONG_STATE
    }

    /**
     * A queued delivery waiting for its next attempt (RQ: scheduled) becomes due now. One being sent
     * right now (leased) is left alone: its worker decides what happens next.
     */
    public ActionResult enqueueNow(long id) throws SQLException {
        return update(id, """
                update dispatch.delivery set next_attempt_at = now()
                 where id = ? and state = 'queued' and (lease_expires_at is null or lease_expires_at < now())""");
    }

    /**
     * queued → failed with {@code reason} as its error, so no further attempt is made. An attempt in
     * flight is not interrupted, but its outcome is no longer recorded (finishing requires an
     * unfinished delivery).
     */
    public ActionResult stop(long id, String reason) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement stop = connection.prepareStatement("""
                     update dispatch.delivery
                        set state = 'failed', completed_at = now(), last_error = ?, lease_owner = null,
                            lease_expires_at = null
                      where id = ? and state = 'queued'""")) {
            stop.setString(1, reason);
            stop.setLong(2, id);
            return stop.executeUpdate() == 1
                    ? ActionResult.DONE
                    : stateOf(connection, id).isEmpty() ? ActionResult.NOT_FOUND : ActionResult.WRONG_STATE;
        }
    }

    /** Removes the delivery with its attempts and rendered request, whatever its state. */
    public ActionResult delete(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement("delete from dispatch.delivery where id = ?")) {
            delete.setLong(1, id);
            return delete.executeUpdate() == 1 ? ActionResult.DONE : ActionResult.NOT_FOUND;
        }
    }

    private ActionResult update(long id, String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement(sql)) {
            update.setLong(1, id);
            return update.executeUpdate() == 1
                    ? ActionResult.DONE
                    : stateOf(connection, id).isEmpty() ? ActionResult.NOT_FOUND : ActionResult.WRONG_STATE;
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

    /** Deletes finished deliveries and processed change ids older than the retention period. */
    public int[] deleteOlderThan(int days) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement deliveries = connection.prepareStatement("""
                     delete from dispatch.delivery
                     where state <> 'queued' and completed_at < now() - make_interval(days => ?)""");
                PreparedStatement changes = connection.prepareStatement("""
                     delete from dispatch.processed_change where processed_at < now() - make_interval(days => ?)""")) {
            deliveries.setInt(1, days);
            changes.setInt(1, days);
            return new int[] {deliveries.executeUpdate(), changes.executeUpdate()};
        }
    }
}
