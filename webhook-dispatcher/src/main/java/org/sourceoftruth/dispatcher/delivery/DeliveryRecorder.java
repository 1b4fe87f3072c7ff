package org.sourceoftruth.dispatcher.delivery;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/**
 * Records processed change events and the deliveries they give (the consumer's side): one
 * transaction per Kafka poll, the deliveries in multi-row inserts.
 */
@ApplicationScoped
public class DeliveryRecorder {
    @Inject
    AgroalDataSource dataSource;

    /**
     * target_host of a delivery whose request is not rendered yet: the claim's per-receiver
     * budget for it is the room the rendering threads have (see DeliveryWorker).
     */
    public static final String UNRENDERED = "(rendering)";

    /** Rows of one multi-row delivery insert (23 parameters each; PostgreSQL allows 32767). */
    private static final int INSERT_CHUNK = 500;

    /** A change event with the deliveries it gives; what one Kafka record turns into. */
    public record PreparedChange(ChangeEvent event, List<NewDelivery> deliveries) {}

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
                insertAll(connection, deliveries);
                connection.commit();
                return recorded;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** Work done in the transaction that records some deliveries; false: record nothing. */
    public interface Step {
        boolean run(Connection connection) throws SQLException;
    }

    /**
     * Records deliveries (a replay's) in one transaction with {@code step}, which runs first: when
     * it answers false, nothing is written.
     *
     * @return whether the deliveries were recorded
     */
    public boolean recordWith(List<NewDelivery> deliveries, Step step) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                if (!step.run(connection)) {
                    connection.rollback();
                    return false;
                }
                insertAll(connection, deliveries);
                connection.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /**
     * Places the deliveries in their lanes and inserts them, inside the caller's transaction
     * (the consumer's poll, or a replay's page).
     */
    static void insertAll(Connection connection, List<NewDelivery> deliveries) throws SQLException {
        List<Placed> placed = place(connection, deliveries);
        for (int from = 0; from < placed.size(); from += INSERT_CHUNK) {
            insertDeliveries(connection, placed.subList(from, Math.min(placed.size(), from + INSERT_CHUNK)));
        }
    }

    private static Set<UUID> markProcessed(Connection connection, Collection<PreparedChange> changes)
            throws SQLException {
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
            TextArrays.bind(connection, insert, ids, models, objectIds, events, counts);
            Set<UUID> recorded = new HashSet<>();
            try (ResultSet rows = insert.executeQuery()) {
                while (rows.next()) {
                    recorded.add(rows.getObject(1, UUID.class));
                }
            }
            return recorded;
        }
    }

    /** A delivery with its place in its lane: its number there, and whether it waits for the one before. */
    private record Placed(NewDelivery delivery, long laneSequence, boolean waiting) {}

    /**
     * Locks the deliveries' lanes and places each delivery in its lane (see {@link DeliveryLanes}):
     * numbered after the lane's last delivery, and waiting when the lane has an unfinished one
     * before it. A delivery that could not be prepared is recorded failed: it takes its number (a
     * receiver sees the gap) but holds nothing up.
     */
    private static List<Placed> place(Connection connection, List<NewDelivery> deliveries) throws SQLException {
        Map<DeliveryLanes.Lane, DeliveryLanes.Locked> lanes = DeliveryLanes.lockAll(
                connection, deliveries.stream().map(DeliveryRecorder::laneOf).toList());
        Map<DeliveryLanes.Lane, Long> last = new HashMap<>();
        Map<DeliveryLanes.Lane, Boolean> busy = new HashMap<>();
        List<Placed> placed = new ArrayList<>(deliveries.size());
        for (NewDelivery delivery : deliveries) {
            DeliveryLanes.Lane lane = laneOf(delivery);
            DeliveryLanes.Locked locked = lanes.get(lane);
            long sequence = last.merge(lane, locked.lastSequence() + 1, (previous, first) -> previous + 1);
            boolean failed = delivery.preparationError() != null;
            boolean waiting = !failed && busy.getOrDefault(lane, locked.busy());
            if (!failed) {
                busy.put(lane, true);
            }
            placed.add(new Placed(delivery, sequence, waiting));
        }
        DeliveryLanes.setLastSequences(connection, last);
        return placed;
    }

    private static DeliveryLanes.Lane laneOf(NewDelivery delivery) {
        return new DeliveryLanes.Lane(
                delivery.rule().webhook().id(),
                delivery.event().model(),
                delivery.event().objectId());
    }

    private static final String DELIVERY_COLUMNS = """
            insert into dispatch.delivery(state, change_id, event, model, object_id, request_id, username,
                event_rule_id, event_rule_name, webhook_id, webhook_name, request_method, request_url,
                target_host, ssl_verification, ca_file_path, last_error, completed_at, waiting, delivery_uuid,
                lane_sequence, change_sequence, replay_id)
            values """;
    private static final String DELIVERY_VALUES =
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /**
     * Two statements for all the given deliveries: one multi-row insert of the delivery rows, one
     * of the rendered headers and bodies for the ids it returned (matched by change id and rule,
     * which are unique together).
     */
    private static void insertDeliveries(Connection connection, List<Placed> placed) throws SQLException {
        if (placed.isEmpty()) {
            return;
        }
        List<NewDelivery> deliveries = placed.stream().map(Placed::delivery).toList();
        StringBuilder sql = new StringBuilder(DELIVERY_COLUMNS);
        for (int i = 0; i < deliveries.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(DELIVERY_VALUES);
        }
        sql.append(" returning id, change_id, event_rule_id");
        Map<String, Long> ids = new HashMap<>();
        try (PreparedStatement insert = connection.prepareStatement(sql.toString())) {
            int p = 0;
            Timestamp now = Timestamp.from(Instant.now());
            for (Placed place : placed) {
                NewDelivery delivery = place.delivery();
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
                insert.setBoolean(++p, place.waiting());
                insert.setObject(
                        ++p,
                        DeliveryIdentity.deliveryId(
                                event.changeId(), delivery.rule().id(), delivery.replayId()));
                insert.setLong(++p, place.laneSequence());
                insert.setLong(++p, event.sequence());
                insert.setObject(++p, delivery.replayId(), java.sql.Types.BIGINT);
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
            String id = ids.get(
                            delivery.event().changeId() + "/" + delivery.rule().id())
                    .toString();
            if (delivery.request() != null) {
                deliveryIds.add(id);
                headers.add(StoredRequests.headersJson(delivery.request().headers()));
                bodies.add(delivery.request().body());
            } else if (delivery.awaitsRendering()) {
                toRender.add(id);
                events.add(new String(Json.toBytes(delivery.event()), StandardCharsets.UTF_8));
            }
        }
        if (!deliveryIds.isEmpty()) {
            StoredRequests.insert(connection, deliveryIds, headers, bodies);
        }
        if (!toRender.isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement("""
                    insert into dispatch.render_input(delivery_id, event)
                    select * from unnest(?::text[]::bigint[], ?::text[]::jsonb[])""")) {
                TextArrays.bind(connection, insert, toRender.toArray(String[]::new), events.toArray(String[]::new));
                insert.executeUpdate();
            }
        }
    }
}
