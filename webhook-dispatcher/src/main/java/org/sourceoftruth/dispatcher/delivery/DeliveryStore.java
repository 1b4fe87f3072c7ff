package org.sourceoftruth.dispatcher.delivery;

import com.fasterxml.jackson.core.type.TypeReference;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** SQL for the delivery rows: recording, claiming, finishing, requeueing and clean-up. */
@ApplicationScoped
public class DeliveryStore {

    private static final TypeReference<List<List<String>>> HEADER_PAIRS = new TypeReference<>() {
    };

    @Inject
    AgroalDataSource dataSource;

    // ------------------------------------------------------------------ recording (consumer)

    /**
     * Records a processed change event and its deliveries in one transaction.
     *
     * @return false when the change id was already processed (nothing is written)
     */
    public boolean recordChange(ChangeEvent event, List<NewDelivery> deliveries) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                if (!markProcessed(connection, event, deliveries.size())) {
                    connection.rollback();
                    return false;
                }
                insertDeliveries(connection, deliveries);
                connection.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static boolean markProcessed(Connection connection, ChangeEvent event, int deliveries) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                insert into dispatch.processed_change(change_id, model, object_id, event, deliveries)
                values (?, ?, ?, ?, ?) on conflict (change_id) do nothing""")) {
            insert.setObject(1, event.changeId());
            insert.setString(2, event.model());
            insert.setLong(3, event.objectId());
            insert.setString(4, event.event());
            insert.setInt(5, deliveries);
            return insert.executeUpdate() == 1;
        }
    }

    private static void insertDeliveries(Connection connection, List<NewDelivery> deliveries) throws SQLException {
        if (deliveries.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement("""
                insert into dispatch.delivery(state, change_id, event, model, object_id, request_id, username,
                    event_rule_id, event_rule_name, webhook_id, webhook_name, request_method, request_url,
                    request_headers, request_body, target_host, ssl_verification, ca_file_path, last_error,
                    completed_at)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?)""")) {
            for (NewDelivery delivery : deliveries) {
                ChangeEvent event = delivery.event();
                RenderedRequest request = delivery.request();
                boolean prepared = request != null;
                insert.setString(1, (prepared ? DeliveryState.QUEUED : DeliveryState.FAILED).dbValue());
                insert.setObject(2, event.changeId());
                insert.setString(3, event.event());
                insert.setString(4, event.model());
                insert.setLong(5, event.objectId());
                insert.setString(6, event.requestId());
                insert.setString(7, event.username());
                insert.setLong(8, delivery.rule().id());
                insert.setString(9, delivery.rule().name());
                insert.setLong(10, delivery.rule().webhook().id());
                insert.setString(11, delivery.rule().webhook().name());
                insert.setString(12, prepared ? request.method() : null);
                insert.setString(13, prepared ? request.url().toString() : null);
                insert.setString(14, prepared ? headersJson(request.headers()) : null);
                insert.setString(15, prepared ? request.body() : null);
                insert.setString(16, prepared ? request.targetHost() : null);
                insert.setBoolean(17, delivery.rule().webhook().sslVerification());
                insert.setString(18, delivery.rule().webhook().caFilePath());
                insert.setString(19, delivery.preparationError());
                insert.setTimestamp(20, prepared ? null : Timestamp.from(Instant.now()));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    static String headersJson(List<RenderedRequest.Header> headers) {
        List<List<String>> pairs = headers.stream().map(h -> List.of(h.name(), h.value())).toList();
        return new String(Json.toBytes(pairs), java.nio.charset.StandardCharsets.UTF_8);
    }

    static List<RenderedRequest.Header> parseHeaders(String json) {
        if (json == null) {
            return List.of();
        }
        try {
            return Json.MAPPER.readValue(json, HEADER_PAIRS).stream()
                    .map(pair -> new RenderedRequest.Header(pair.get(0), pair.get(1))).toList();
        } catch (IOException e) {
            throw new IllegalStateException("stored request headers are not valid JSON", e);
        }
    }

    // ------------------------------------------------------------------ claiming (worker)

    /**
     * Leases up to {@code limit} due queued deliveries whose receiver is not in {@code busyHosts}.
     * Rows locked by another worker are skipped, and rows whose lease expired (their worker
     * died) are due again.
     */
    public List<ClaimedDelivery> claimDue(int limit, Collection<String> busyHosts, String owner, Duration lease)
            throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement claim = connection.prepareStatement("""
                     with due as (
                         select id from dispatch.delivery
                         where state = 'queued' and next_attempt_at <= now()
                           and (lease_expires_at is null or lease_expires_at < now())
                           and not (target_host = any(?))
                         order by next_attempt_at, id
                         limit ?
                         for update skip locked)
                     update dispatch.delivery d
                        set lease_owner = ?, lease_expires_at = now() + make_interval(secs => ?)
                       from due
                      where d.id = due.id
                     returning d.id, d.round, d.attempts, d.request_method, d.request_url, d.request_headers::text,
                               d.request_body, d.target_host, d.ssl_verification, d.ca_file_path""")) {
            claim.setArray(1, connection.createArrayOf("varchar", busyHosts.toArray()));
            claim.setInt(2, limit);
            claim.setString(3, owner);
            claim.setDouble(4, lease.toMillis() / 1000.0);
            List<ClaimedDelivery> claimed = new ArrayList<>();
            try (ResultSet rows = claim.executeQuery()) {
                while (rows.next()) {
                    String url = rows.getString(5);
                    RenderedRequest request = url == null ? null : new RenderedRequest(rows.getString(4), URI.create(url),
                            parseHeaders(rows.getString(6)), rows.getString(7));
                    claimed.add(new ClaimedDelivery(rows.getLong(1), rows.getInt(2), rows.getInt(3), request,
                            rows.getString(8), rows.getBoolean(9), rows.getString(10)));
                }
            }
            return claimed;
        }
    }

    /** Gives leases back without an attempt (the receiver had no free slot). */
    public void releaseLeases(Collection<Long> ids, String owner) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement release = connection.prepareStatement("""
                     update dispatch.delivery set lease_owner = null, lease_expires_at = null
                     where id = any(?) and lease_owner = ?""")) {
            release.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
            release.setString(2, owner);
            release.executeUpdate();
        }
    }

    /**
     * Records an attempt and moves the delivery on: succeeded, queued again at
     * {@code nextAttemptAt}, or failed.
     *
     * @param nextState     QUEUED for a retry
     * @param nextAttemptAt when the retry is due (ignored unless QUEUED)
     * @return false when this process no longer holds the lease (nothing is written)
     */
    public boolean finishAttempt(ClaimedDelivery delivery, String owner, AttemptOutcome outcome, DeliveryState nextState,
                                 Instant nextAttemptAt) throws SQLException {
        int attempt = delivery.attempts() + 1;
        Timestamp started = Timestamp.from(outcome.startedAt());
        Timestamp ended = Timestamp.from(outcome.startedAt().plusMillis(outcome.durationMs()));
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement update = connection.prepareStatement("""
                    update dispatch.delivery
                       set state = ?, attempts = ?, next_attempt_at = coalesce(?, next_attempt_at),
                           last_status = ?, last_error = ?, response_excerpt = ?,
                           first_attempt_at = coalesce(first_attempt_at, ?), last_attempt_at = ?,
                           completed_at = ?, duration_ms = ?, lease_owner = null, lease_expires_at = null
                     where id = ? and lease_owner = ? and round = ? and state = 'queued'""");
                 PreparedStatement insertAttempt = connection.prepareStatement("""
                         insert into dispatch.delivery_attempt(delivery_id, round, attempt, started_at, duration_ms,
                             status_code, error, response_excerpt)
                         values (?, ?, ?, ?, ?, ?, ?, ?)""")) {
                update.setString(1, nextState.dbValue());
                update.setInt(2, attempt);
                update.setTimestamp(3, nextState == DeliveryState.QUEUED ? Timestamp.from(nextAttemptAt) : null);
                setInteger(update, 4, outcome.statusCode());
                update.setString(5, outcome.error());
                update.setString(6, outcome.responseExcerpt());
                update.setTimestamp(7, started);
                update.setTimestamp(8, started);
                update.setTimestamp(9, nextState == DeliveryState.QUEUED ? null : ended);
                update.setLong(10, outcome.durationMs());
                update.setLong(11, delivery.id());
                update.setString(12, owner);
                update.setInt(13, delivery.round());
                if (update.executeUpdate() != 1) {
                    connection.rollback();
                    return false;
                }
                insertAttempt.setLong(1, delivery.id());
                insertAttempt.setInt(2, delivery.round());
                insertAttempt.setInt(3, attempt);
                insertAttempt.setTimestamp(4, started);
                insertAttempt.setLong(5, outcome.durationMs());
                setInteger(insertAttempt, 6, outcome.statusCode());
                insertAttempt.setString(7, outcome.error());
                insertAttempt.setString(8, outcome.responseExcerpt());
                insertAttempt.executeUpdate();
                connection.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static void setInteger(PreparedStatement statement, int index, Integer value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        } else {
            statement.setInt(index, value);
        }
    }

    // ------------------------------------------------------------------ requeue (admin)

    /** Result of a manual requeue. */
    public enum RequeueResult { REQUEUED, NOT_FOUND, NOT_FAILED, NOT_RENDERED }

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
                    ? RequeueResult.NOT_RENDERED : RequeueResult.NOT_FAILED;
        }
    }

    private static Optional<String[]> stateOf(Connection connection, long id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "select state, request_url from dispatch.delivery where id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(new String[]{row.getString(1), row.getString(2)}) : Optional.empty();
            }
        }
    }

    // ------------------------------------------------------------------ retention

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
            return new int[]{deliveries.executeUpdate(), changes.executeUpdate()};
        }
    }
}
