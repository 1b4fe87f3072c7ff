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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** SQL for the delivery rows: recording, claiming, finishing, requeueing and clean-up. */
@ApplicationScoped
public class DeliveryStore {

    private static final TypeReference<List<List<String>>> HEADER_PAIRS = new TypeReference<>() {
    };

    /**
     * target_host of a delivery whose request is not rendered yet: the claim's per-receiver
     * budget for it is the room the rendering threads have (see DeliveryWorker).
     */
    public static final String UNRENDERED = "(rendering)";

    @Inject
    AgroalDataSource dataSource;

    // ------------------------------------------------------------------ recording (consumer)

    /** Rows of one multi-row delivery insert (18 parameters each; PostgreSQL allows 32767). */
    private static final int INSERT_CHUNK = 500;

    /** A change event with the deliveries it gives; what one Kafka record turns into. */
    public record PreparedChange(ChangeEvent event, List<NewDelivery> deliveries) {
    }

    /**
     * Records a processed change event and its deliveries in one transaction.
     *
     * @return false when the change id was already processed (nothing is written)
     */
    public boolean recordChange(ChangeEvent event, List<NewDelivery> deliveries) throws SQLException {
        return !recordChanges(List.of(new PreparedChange(event, deliveries))).isEmpty();
    }

    /**
     * Records many change events and their deliveries in ONE transaction (one commit for a whole
     * Kafka poll): the processed change ids in one statement, then the deliveries of the changes
     * that were new, in multi-row inserts. Changes whose id is already recorded (re-delivered
     * events), or that appear earlier in the same list, get no deliveries.
     *
     * @return the change ids recorded now (the others were duplicates)
     */
    public Set<UUID> recordChanges(List<PreparedChange> changes) throws SQLException {
        if (changes.isEmpty()) {
            return Set.of();
        }
        // the first copy of a change id in the list wins; later copies are duplicates
        Map<UUID, PreparedChange> unique = new LinkedHashMap<>();
        for (PreparedChange change : changes) {
            unique.putIfAbsent(change.event().changeId(), change);
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                Set<UUID> recorded = markProcessed(connection, unique.values());
                List<NewDelivery> deliveries = new ArrayList<>();
                for (PreparedChange change : unique.values()) {
                    if (recorded.contains(change.event().changeId())) {
                        deliveries.addAll(change.deliveries());
                    }
                }
                for (int from = 0; from < deliveries.size(); from += INSERT_CHUNK) {
                    insertDeliveries(connection, deliveries.subList(from, Math.min(deliveries.size(), from + INSERT_CHUNK)));
                }
                connection.commit();
                return recorded;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static Set<UUID> markProcessed(Connection connection, Collection<PreparedChange> changes) throws SQLException {
        int n = changes.size();
        String[] ids = new String[n];
        String[] models = new String[n];
        String[] objectIds = new String[n];
        String[] events = new String[n];
        String[] counts = new String[n];
        int i = 0;
        for (PreparedChange change : changes) {
            ChangeEvent event = change.event();
            ids[i] = event.changeId().toString();
            models[i] = event.model();
            objectIds[i] = Long.toString(event.objectId());
            events[i] = event.event();
            counts[i] = Integer.toString(change.deliveries().size());
            i++;
        }
        try (PreparedStatement insert = connection.prepareStatement("""
                insert into dispatch.processed_change(change_id, model, object_id, event, deliveries)
                select * from unnest(?::text[]::uuid[], ?::text[], ?::text[]::bigint[], ?::text[], ?::text[]::int[])
                on conflict (change_id) do nothing
                returning change_id""")) {
            bindTextArrays(connection, insert, ids, models, objectIds, events, counts);
            Set<UUID> recorded = new HashSet<>();
            try (ResultSet rows = insert.executeQuery()) {
                while (rows.next()) {
                    recorded.add(rows.getObject(1, UUID.class));
                }
            }
            return recorded;
        }
    }

    private static final String DELIVERY_COLUMNS = """
            insert into dispatch.delivery(state, change_id, event, model, object_id, request_id, username,
                event_rule_id, event_rule_name, webhook_id, webhook_name, request_method, request_url,
                target_host, ssl_verification, ca_file_path, last_error, completed_at)
            values """;
    private static final String DELIVERY_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /**
     * Two statements for all the given deliveries: one multi-row insert of the delivery rows, one
     * of the rendered headers and bodies for the ids it returned (matched by change id and rule,
     * which are unique together).
     */
    private static void insertDeliveries(Connection connection, List<NewDelivery> deliveries) throws SQLException {
        if (deliveries.isEmpty()) {
            return;
        }
        StringBuilder sql = new StringBuilder(DELIVERY_COLUMNS);
        for (int i = 0; i < deliveries.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(DELIVERY_VALUES);
        }
        sql.append(" returning id, change_id, event_rule_id");
        Map<String, Long> ids = new HashMap<>();
        try (PreparedStatement insert = connection.prepareStatement(sql.toString())) {
            int p = 0;
            Timestamp now = Timestamp.from(Instant.now());
            for (NewDelivery delivery : deliveries) {
                ChangeEvent event = delivery.event();
                RenderedRequest request = delivery.request();
                boolean prepared = request != null;
                boolean failed = delivery.preparationError() != null;
                insert.setString(++p, (failed ? DeliveryState.FAILED : DeliveryState.QUEUED).dbValue());
                insert.setObject(++p, event.changeId());
                insert.setString(++p, event.event());
                insert.setString(++p, event.model());
                insert.setLong(++p, event.objectId());
                insert.setString(++p, event.requestId());
                insert.setString(++p, event.username());
                insert.setLong(++p, delivery.rule().id());
                insert.setString(++p, delivery.rule().name());
                insert.setLong(++p, delivery.rule().webhook().id());
                insert.setString(++p, delivery.rule().webhook().name());
                insert.setString(++p, prepared ? request.method() : null);
                insert.setString(++p, prepared ? request.url().toString() : null);
                insert.setString(++p, prepared ? request.targetHost() : (failed ? null : UNRENDERED));
                insert.setBoolean(++p, delivery.rule().webhook().sslVerification());
                insert.setString(++p, delivery.rule().webhook().caFilePath());
                insert.setString(++p, delivery.preparationError());
                insert.setTimestamp(++p, failed ? now : null);
            }
            try (ResultSet rows = insert.executeQuery()) {
                while (rows.next()) {
                    ids.put(rows.getString(2) + "/" + rows.getLong(3), rows.getLong(1));
                }
            }
        }
        List<String> deliveryIds = new ArrayList<>();
        List<String> headers = new ArrayList<>();
        List<String> bodies = new ArrayList<>();
        List<String> toRender = new ArrayList<>();
        List<String> events = new ArrayList<>();
        for (NewDelivery delivery : deliveries) {
            String id = ids.get(delivery.event().changeId() + "/" + delivery.rule().id()).toString();
            if (delivery.request() != null) {
                deliveryIds.add(id);
                headers.add(headersJson(delivery.request().headers()));
                bodies.add(delivery.request().body());
            } else if (delivery.awaitsRendering()) {
                toRender.add(id);
                events.add(new String(Json.toBytes(delivery.event()), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        if (!deliveryIds.isEmpty()) {
            insertRenderedRequests(connection, deliveryIds, headers, bodies);
        }
        if (!toRender.isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement("""
                    insert into dispatch.render_input(delivery_id, event)
                    select * from unnest(?::text[]::bigint[], ?::text[]::jsonb[])""")) {
                bindTextArrays(connection, insert, toRender.toArray(String[]::new), events.toArray(String[]::new));
                insert.executeUpdate();
            }
        }
    }

    private static void insertRenderedRequests(Connection connection, List<String> deliveryIds, List<String> headers,
                                               List<String> bodies) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                insert into dispatch.rendered_request(delivery_id, headers, body)
                select * from unnest(?::text[]::bigint[], ?::text[]::jsonb[], ?::text[])""")) {
            bindTextArrays(connection, insert, deliveryIds.toArray(String[]::new), headers.toArray(String[]::new),
                    bodies.toArray(String[]::new));
            insert.executeUpdate();
        }
    }

    // ------------------------------------------------------------------ rendering (template renderer)

    /** What a delivery's request is rendered from: its rule and the stored change event. */
    public record RenderInput(long eventRuleId, ChangeEvent event) {
    }

    /** The stored event and rule of a delivery awaiting rendering, or empty when there is none. */
    public Optional<RenderInput> renderInput(long deliveryId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     select d.event_rule_id, r.event::text from dispatch.delivery d
                       join dispatch.render_input r on r.delivery_id = d.id
                      where d.id = ?""")) {
            select.setLong(1, deliveryId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new RenderInput(row.getLong(1), Json.MAPPER.readValue(row.getString(2), ChangeEvent.class)));
            } catch (IOException e) {
                throw new IllegalStateException("stored change event is not readable", e);
            }
        }
    }

    /**
     * Stores the rendered request of a delivery this process leased for rendering, and gives the
     * lease back so that it is claimed for sending.
     *
     * @return false when the lease was lost meanwhile (nothing is written)
     */
    public boolean storeRendered(long deliveryId, String owner, RenderedRequest request) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement update = connection.prepareStatement("""
                    update dispatch.delivery
                       set request_method = ?, request_url = ?, target_host = ?, lease_owner = null,
                           lease_expires_at = null
                     where id = ? and lease_owner = ? and state = 'queued' and request_url is null""")) {
                update.setString(1, request.method());
                update.setString(2, request.url().toString());
                update.setString(3, request.targetHost());
                update.setLong(4, deliveryId);
                update.setString(5, owner);
                if (update.executeUpdate() == 0) {
                    connection.rollback();
                    return false;
                }
                insertRenderedRequests(connection, List.of(Long.toString(deliveryId)),
                        List.of(headersJson(request.headers())), java.util.Collections.singletonList(request.body()));
                deleteRenderInput(connection, deliveryId);
                connection.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /**
     * Fails a delivery this process leased for rendering: its request could not be built.
     *
     * @return false when the lease was lost meanwhile (nothing is written)
     */
    public boolean failRendering(long deliveryId, String owner, String reason) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement update = connection.prepareStatement("""
                    update dispatch.delivery
                       set state = 'failed', last_error = ?, completed_at = now(), target_host = null,
                           lease_owner = null, lease_expires_at = null
                     where id = ? and lease_owner = ? and state = 'queued' and request_url is null""")) {
                update.setString(1, reason);
                update.setLong(2, deliveryId);
                update.setString(3, owner);
                if (update.executeUpdate() == 0) {
                    connection.rollback();
                    return false;
                }
                deleteRenderInput(connection, deliveryId);
                connection.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static void deleteRenderInput(Connection connection, long deliveryId) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(
                "delete from dispatch.render_input where delivery_id = ?")) {
            delete.setLong(1, deliveryId);
            delete.executeUpdate();
        }
    }

    /**
     * Binds one text array per column, from parameter 1 on: the statements unnest them together
     * (casting each to its column type), so a batch of rows is one statement of fixed text.
     *
     * @return the index of the next parameter
     */
    private static int bindTextArrays(Connection connection, PreparedStatement statement, String[]... columns)
            throws SQLException {
        int p = 0;
        for (String[] column : columns) {
            statement.setArray(++p, connection.createArrayOf("text", column));
        }
        return p + 1;
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
     * Leases up to {@code limit} due queued deliveries whose receiver is not in {@code busyHosts},
     * at most {@code hostBudgets.get(host)} (else {@code defaultBudget}) for any one receiver, so
     * that a claim takes no more rows for a receiver than it can send or hold. Rows locked by
     * another worker are skipped, and rows whose lease expired (their worker died) are due again.
     * The receiver budgets are applied to the first {@code 4 * limit} due rows.
     */
    public List<ClaimedDelivery> claimDue(int limit, Collection<String> busyHosts, Map<String, Integer> hostBudgets,
                                          int defaultBudget, String owner, Duration lease) throws SQLException {
        String[] hosts = hostBudgets.keySet().toArray(new String[0]);
        String[] budgets = new String[hosts.length];
        for (int i = 0; i < hosts.length; i++) {
            budgets[i] = hostBudgets.get(hosts[i]).toString();
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                // The due-index holds an entry for every row version that was once queued until a
                // vacuum removes it: thousands a second under load, and autovacuum may be slow or
                // off. Only a plain index scan marks those entries dead as it passes them, so the
                // next claim skips them without visiting the heap; a bitmap scan (which the planner
                // picks when it expects few due rows) visits them all, every time: measured 25-190
                // ms a claim against ~1 ms. Scoped to this transaction.
                try (var settings = connection.createStatement()) {
                    settings.execute("set local enable_bitmapscan = off; set local enable_seqscan = off");
                }
                List<ClaimedDelivery> claimed = claim(connection, limit, busyHosts, hosts, budgets, defaultBudget,
                        owner, lease);
                connection.commit();
                return claimed;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static List<ClaimedDelivery> claim(Connection connection, int limit, Collection<String> busyHosts,
                                               String[] hosts, String[] budgets, int defaultBudget, String owner,
                                               Duration lease) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement("""
                     with candidates as (
                         select id, target_host, next_attempt_at from dispatch.delivery
                         where state = 'queued' and next_attempt_at <= now()
                           and (lease_expires_at is null or lease_expires_at < now())
                           and not (target_host = any(?))
                         order by next_attempt_at, id
                         limit ?),
                     ranked as (
                         select c.id, row_number() over (partition by c.target_host order by c.next_attempt_at, c.id) as n,
                                coalesce(b.budget, ?) as budget
                           from candidates c
                           left join unnest(?::text[], ?::text[]::int[]) as b(host, budget) on b.host = c.target_host),
                     due as (
                         -- Looked up by primary key from an array, and locked. The conditions are
                         -- checked again on the row as locked (another dispatcher may have sent it
                         -- meanwhile). "Not finished" rather than "state = 'queued'": the latter
                         -- would let the planner serve this from the due-index, scanning every
                         -- queued row, whenever its statistics say the queue is nearly empty
                         -- (seen: 90 ms a claim with 8,000 rows queued).
                         select d.id from dispatch.delivery d
                         where d.id = any(array(select r.id from ranked r where r.n <= r.budget))
                           and d.state not in ('succeeded', 'failed')
                           and d.next_attempt_at <= now()
                           and (d.lease_expires_at is null or d.lease_expires_at < now())
                         order by d.next_attempt_at, d.id
                         limit ?
                         for update of d skip locked),
                     leased as (
                         update dispatch.delivery d
                            set lease_owner = ?, lease_expires_at = now() + make_interval(secs => ?)
                           from due
                          where d.id = due.id
                         returning d.id, d.round, d.attempts, d.request_method, d.request_url, d.target_host,
                                   d.ssl_verification, d.ca_file_path)
                     select l.id, l.round, l.attempts, l.request_method, l.request_url, r.headers::text, r.body,
                            l.target_host, l.ssl_verification, l.ca_file_path
                       from leased l left join dispatch.rendered_request r on r.delivery_id = l.id""")) {
            // Planned for its parameters each time, never as a cached generic plan: the queue's size
            // swings from empty to thousands, and a generic plan made at one end (seen: ~60 ms of
            // PostgreSQL CPU a claim instead of 2-8) throttled a whole burst to ~120 deliveries/s.
            claim.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(0);
            claim.setArray(1, connection.createArrayOf("varchar", busyHosts.toArray()));
            claim.setInt(2, 4 * limit);
            claim.setInt(3, defaultBudget);
            claim.setArray(4, connection.createArrayOf("text", hosts));
            claim.setArray(5, connection.createArrayOf("text", budgets));
            claim.setInt(6, limit);
            claim.setString(7, owner);
            claim.setDouble(8, lease.toMillis() / 1000.0);
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

    /** {@link #claimDue(int, Collection, Map, int, String, Duration)} without receiver budgets. */
    public List<ClaimedDelivery> claimDue(int limit, Collection<String> busyHosts, String owner, Duration lease)
            throws SQLException {
        return claimDue(limit, busyHosts, Map.of(), limit, owner, lease);
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

    /** An attempt to record: its outcome and the state the delivery moves to. */
    public record FinishedAttempt(ClaimedDelivery delivery, AttemptOutcome outcome, DeliveryState nextState,
                                  Instant nextAttemptAt) {
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
        return finishAttempts(List.of(new FinishedAttempt(delivery, outcome, nextState, nextAttemptAt)), owner)
                .contains(delivery.id());
    }

    /**
     * Records many attempts in one statement (one round trip, one commit): each delivery row is
     * updated only while this process still holds its lease for the same round, and an attempt
     * row is inserted for exactly the deliveries updated.
     *
     * @return the ids of the deliveries recorded; the others' leases had expired (nothing written)
     */
    public Set<Long> finishAttempts(List<FinishedAttempt> attempts, String owner) throws SQLException {
        if (attempts.isEmpty()) {
            return Set.of();
        }
        // the same delivery twice (claimed again after its lease ran out): one statement each
        Set<Long> seen = new HashSet<>();
        List<FinishedAttempt> first = new ArrayList<>();
        List<FinishedAttempt> again = new ArrayList<>();
        for (FinishedAttempt attempt : attempts) {
            (seen.add(attempt.delivery().id()) ? first : again).add(attempt);
        }
        if (!again.isEmpty()) {
            Set<Long> recorded = new HashSet<>(finishAttempts(first, owner));
            recorded.addAll(finishAttempts(again, owner));
            return recorded;
        }
        int n = attempts.size();
        String[] ids = new String[n];
        String[] rounds = new String[n];
        String[] states = new String[n];
        String[] attemptNumbers = new String[n];
        String[] nextAttempts = new String[n];
        String[] statuses = new String[n];
        String[] errors = new String[n];
        String[] excerpts = new String[n];
        String[] starts = new String[n];
        String[] completions = new String[n];
        String[] durations = new String[n];
        for (int i = 0; i < n; i++) {
            FinishedAttempt finished = attempts.get(i);
            ClaimedDelivery delivery = finished.delivery();
            AttemptOutcome outcome = finished.outcome();
            boolean retry = finished.nextState() == DeliveryState.QUEUED;
            Instant ended = outcome.startedAt().plusMillis(outcome.durationMs());
            ids[i] = Long.toString(delivery.id());
            rounds[i] = Integer.toString(delivery.round());
            states[i] = finished.nextState().dbValue();
            attemptNumbers[i] = Integer.toString(delivery.attempts() + 1);
            nextAttempts[i] = retry && finished.nextAttemptAt() != null ? finished.nextAttemptAt().toString() : null;
            statuses[i] = outcome.statusCode() == null ? null : outcome.statusCode().toString();
            errors[i] = outcome.error();
            excerpts[i] = outcome.responseExcerpt();
            starts[i] = outcome.startedAt().toString();
            completions[i] = retry ? null : ended.toString();
            durations[i] = Long.toString(outcome.durationMs());
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement("""
                     with input as (
                         select * from unnest(?::text[]::bigint[], ?::text[]::int[], ?::text[], ?::text[]::int[],
                                              ?::text[]::timestamptz[], ?::text[]::int[], ?::text[], ?::text[],
                                              ?::text[]::timestamptz[], ?::text[]::timestamptz[], ?::text[]::bigint[])
                             as t(id, round, state, attempt, next_attempt_at, status, error, excerpt, started_at,
                                  completed_at, duration_ms)),
                     updated as (
                         update dispatch.delivery d
                            set state = i.state, attempts = i.attempt,
                                next_attempt_at = coalesce(i.next_attempt_at, d.next_attempt_at),
                                last_status = i.status, last_error = i.error, response_excerpt = i.excerpt,
                                first_attempt_at = coalesce(d.first_attempt_at, i.started_at),
                                last_attempt_at = i.started_at, completed_at = i.completed_at,
                                duration_ms = i.duration_ms, lease_owner = null, lease_expires_at = null
                           from input i
                          -- "Not finished" rather than "state = 'queued'", which would let the planner
                          -- read every queued row through the due-index instead of these few by
                          -- primary key (seen: 85 ms a statement).
                          where d.id = i.id and d.lease_owner = ? and d.round = i.round
                            and d.state not in ('succeeded', 'failed')
                          returning d.id)
                     insert into dispatch.delivery_attempt(delivery_id, round, attempt, started_at, duration_ms,
                         status_code, error, response_excerpt)
                     select i.id, i.round, i.attempt, i.started_at, i.duration_ms, i.status, i.error, i.excerpt
                       from input i join updated u on u.id = i.id
                     returning delivery_id""")) {
            int next = bindTextArrays(connection, statement, ids, rounds, states, attemptNumbers, nextAttempts,
                    statuses, errors, excerpts, starts, completions, durations);
            statement.setString(next, owner);
            Set<Long> recorded = new HashSet<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    recorded.add(rows.getLong(1));
                }
            }
            return recorded;
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

    /** Result of the other admin actions (NetBox's enqueue, stop and delete). */
    public enum ActionResult { DONE, NOT_FOUND, WRONG_STATE }

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
            return stop.executeUpdate() == 1 ? ActionResult.DONE
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
            return update.executeUpdate() == 1 ? ActionResult.DONE
                    : stateOf(connection, id).isEmpty() ? ActionResult.NOT_FOUND : ActionResult.WRONG_STATE;
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
