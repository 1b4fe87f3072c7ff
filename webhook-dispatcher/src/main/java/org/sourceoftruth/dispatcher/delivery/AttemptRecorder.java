package org.sourceoftruth.dispatcher.delivery;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Records the outcome of delivery attempts and moves each delivery on, while its lease is held. */
@ApplicationScoped
public class AttemptRecorder {
    @Inject
    AgroalDataSource dataSource;

    /** An attempt to record: its outcome and the state the delivery moves to. */
    public record FinishedAttempt(
            ClaimedDelivery delivery, AttemptOutcome outcome, DeliveryState nextState, Instant nextAttemptAt) {}

    /**
     * What a batch of attempts did: the deliveries recorded (the others' leases had expired), and
     * how many waiting deliveries became due because the one before them in their lane finished.
     */
    public record Recorded(Set<Long> ids, int madeDue) {}

    /**
     * Records an attempt and moves the delivery on: succeeded, queued again at
     * {@code nextAttemptAt}, or failed.
     *
     * @param nextState     QUEUED for a retry
     * @param nextAttemptAt when the retry is due (ignored unless QUEUED)
     * @return false when this process no longer holds the lease (nothing is written)
     */
    public boolean finishAttempt(
            ClaimedDelivery delivery,
            String owner,
            AttemptOutcome outcome,
            DeliveryState nextState,
            Instant nextAttemptAt)
            throws SQLException {
        return finishAttempts(List.of(new FinishedAttempt(delivery, outcome, nextState, nextAttemptAt)), owner)
                .ids()
                .contains(delivery.id());
    }

    /**
     * Records many attempts in one transaction: each delivery row is updated only while this
     * process still holds its lease for the same round, and an attempt row is inserted for exactly
     * the deliveries updated (one statement). The deliveries' lanes are locked first, and in each
     * lane where a delivery finished (succeeded or finally failed) the next waiting one becomes due.
     *
     * @return the ids of the deliveries recorded (the others' leases had expired: nothing written)
     *     and how many deliveries became due
     */
    public Recorded finishAttempts(List<FinishedAttempt> attempts, String owner) throws SQLException {
        if (attempts.isEmpty()) {
            return new Recorded(Set.of(), 0);
        }
        // the same delivery twice (claimed again after its lease ran out): one transaction each
        Set<Long> seen = new HashSet<>();
        List<FinishedAttempt> first = new ArrayList<>();
        List<FinishedAttempt> again = new ArrayList<>();
        for (FinishedAttempt attempt : attempts) {
            (seen.add(attempt.delivery().id()) ? first : again).add(attempt);
        }
        if (!again.isEmpty()) {
            Recorded firstRecorded = finishAttempts(first, owner);
            Recorded againRecorded = finishAttempts(again, owner);
            Set<Long> ids = new HashSet<>(firstRecorded.ids());
            ids.addAll(againRecorded.ids());
            return new Recorded(ids, firstRecorded.madeDue() + againRecorded.madeDue());
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                DeliveryLanes.lockOf(connection, seen);
                Recorded recorded = finish(connection, attempts, owner);
                connection.commit();
                return recorded;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static Recorded finish(Connection connection, List<FinishedAttempt> attempts, String owner)
            throws SQLException {
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
            nextAttempts[i] = retry && finished.nextAttemptAt() != null
                    ? finished.nextAttemptAt().toString()
                    : null;
            statuses[i] =
                    outcome.statusCode() == null ? null : outcome.statusCode().toString();
            errors[i] = outcome.error();
            excerpts[i] = outcome.responseExcerpt();
            starts[i] = outcome.startedAt().toString();
            completions[i] = retry ? null : ended.toString();
            durations[i] = Long.toString(outcome.durationMs());
        }
        try (PreparedStatement statement = connection.prepareStatement("""
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
                          returning d.id, d.state, d.webhook_id, d.model, d.object_id),
                     logged as (
                         insert into dispatch.delivery_attempt(delivery_id, round, attempt, started_at, duration_ms,
                             status_code, error, response_excerpt)
                         select i.id, i.round, i.attempt, i.started_at, i.duration_ms, i.status, i.error, i.excerpt
                           from input i join updated u on u.id = i.id)
                     select id, state, webhook_id, model, object_id from updated""")) {
            int next = TextArrays.bind(
                    connection,
                    statement,
                    ids,
                    rounds,
                    states,
                    attemptNumbers,
                    nextAttempts,
                    statuses,
                    errors,
                    excerpts,
                    starts,
                    completions,
                    durations);
            statement.setString(next, owner);
            Set<Long> recorded = new HashSet<>();
            Set<DeliveryLanes.Lane> finished = new HashSet<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    recorded.add(rows.getLong(1));
                    if (!DeliveryState.QUEUED.dbValue().equals(rows.getString(2))) {
                        finished.add(new DeliveryLanes.Lane(rows.getLong(3), rows.getString(4), rows.getLong(5)));
                    }
                }
            }
            return new Recorded(recorded, DeliveryLanes.promote(connection, finished));
        }
    }
}
