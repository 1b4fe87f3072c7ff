package org.sourceoftruth.dispatcher.delivery;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.postgresql.PGStatement;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.template.RenderedRequest;

/** Leases due deliveries to a worker, receiver by receiver within budgets, and gives leases back. */
@ApplicationScoped
public class DeliveryClaims {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    DispatcherConfig config;

    /** Bodies larger than this are read just before they are sent ({@link #body}), under the heap budget. */
    private int largeBody() {
        return config.memory().largeBodyBytes();
    }

    /**
     * Leases up to {@code limit} due queued deliveries whose receiver is not in {@code busyHosts},
     * at most {@code hostBudgets.get(host)} (else {@code defaultBudget}) for any one receiver, so
     * that a claim takes no more rows for a receiver than it can send or hold. Rows locked by
     * another worker are skipped, and rows whose lease expired (their worker died) are due again.
     * The receiver budgets are applied to the first {@code 4 * limit} due rows.
     */
    public List<ClaimedDelivery> claimDue(
            int limit,
            Collection<String> busyHosts,
            Map<String, Integer> hostBudgets,
            int defaultBudget,
            String owner,
            Duration lease)
            throws SQLException {
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
                List<ClaimedDelivery> claimed =
                        claim(connection, largeBody(), limit, busyHosts, hosts, budgets, defaultBudget, owner, lease);
                connection.commit();
                return claimed;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static List<ClaimedDelivery> claim(
            Connection connection,
            int largeBody,
            int limit,
            Collection<String> busyHosts,
            String[] hosts,
            String[] budgets,
            int defaultBudget,
            String owner,
            Duration lease)
            throws SQLException {
        try (PreparedStatement claim =
                connection.prepareStatement("""
                     with candidates as (
                         select id, target_host, next_attempt_at from dispatch.delivery
                         where state = 'queued' and not waiting and next_attempt_at <= now()
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
                           and d.state not in ('succeeded', 'failed') and not d.waiting
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
                                   d.ssl_verification, d.ca_file_path, d.delivery_uuid, d.change_id, d.lane_sequence,
                                   d.replay_id)
                     select l.id, l.round, l.attempts, l.request_method, l.request_url, r.headers::text,
                            case when octet_length(r.body) <= LARGE_BODY then r.body end,
                            l.target_host, l.ssl_verification, l.ca_file_path, octet_length(r.body),
                            l.delivery_uuid, l.change_id, l.lane_sequence, l.replay_id
                       from leased l left join dispatch.rendered_request r on r.delivery_id = l.id""".replace("LARGE_BODY", Integer.toString(largeBody)))) {
            // Planned for its parameters each time, never as a cached generic plan: the queue's size
            // swings from empty to thousands, and a generic plan made at one end (seen: ~60 ms of
            // PostgreSQL CPU a claim instead of 2-8) throttled a whole burst to ~120 deliveries/s.
            claim.unwrap(PGStatement.class).setPrepareThreshold(0);
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
                    RenderedRequest request = url == null
                            ? null
                            : new RenderedRequest(
                                    rows.getString(4),
                                    URI.create(url),
                                    StoredRequests.parseHeaders(rows.getString(6)),
                                    rows.getString(7));
                    long bodyBytes = rows.getLong(11);
                    claimed.add(new ClaimedDelivery(
                            rows.getLong(1),
                            rows.getInt(2),
                            rows.getInt(3),
                            request,
                            rows.getString(8),
                            rows.getBoolean(9),
                            rows.getString(10),
                            request != null && request.body() == null && bodyBytes > largeBody ? bodyBytes : 0,
                            rows.getObject(12, java.util.UUID.class),
                            rows.getObject(13, java.util.UUID.class),
                            (Long) rows.getObject(14),
                            (Long) rows.getObject(15)));
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

    /** The stored body of a delivery's request (read apart when it is large), null when there is none. */
    public String body(long deliveryId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "select body from dispatch.rendered_request where delivery_id = ?")) {
            select.setLong(1, deliveryId);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
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
}
