package org.sourceoftruth.dispatcher.delivery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Per-object order. A lane is one object (model and id) at one webhook: its deliveries are sent
 * one at a time, in the order they were recorded (the order of the object's changes on its Kafka
 * partition, which is their commit order). Only the lane's oldest unfinished delivery is due; the
 * others are recorded {@code waiting} and become due, one by one, when the one before them has
 * succeeded or finally failed. Other lanes (other objects, other webhooks) are never held up.
 *
 * <p>Every transaction that adds deliveries to a lane or finishes one locks the lane's row in
 * {@code dispatch.delivery_lane} first, all its lanes in one statement in key order (so two such
 * transactions never wait for each other in a cycle), and only then reads the lane's deliveries,
 * in a later statement whose snapshot sees everything committed before the lock was granted. So a
 * consumer that records a waiting delivery and a worker that finishes the lane's last unfinished
 * one cannot miss each other: whichever comes second sees what the first committed.
 */
final class DeliveryLanes {

    private DeliveryLanes() {}

    /** One object at one webhook. */
    record Lane(long webhookId, String model, long objectId) {
        static final Comparator<Lane> ORDER = Comparator.comparingLong(Lane::webhookId)
                .thenComparing(Lane::model)
                .thenComparingLong(Lane::objectId);
    }

    /** A lane as locked: its last delivery number, and whether a delivery of it is unfinished. */
    record Locked(long lastSequence, boolean busy) {}

    /**
     * Locks the lanes (creating their rows where needed) and reads their state; call inside the
     * transaction that then adds deliveries to them.
     */
    private static Map<Lane, Locked> lock(Connection connection, Collection<Lane> lanes) throws SQLException {
        TreeSet<Lane> sorted = sorted(lanes);
        if (sorted.isEmpty()) {
            return Map.of();
        }
        String[][] keys = columns(sorted);
        try (PreparedStatement create = connection.prepareStatement("""
                insert into dispatch.delivery_lane (webhook_id, model, object_id)
                select * from unnest(?::text[]::bigint[], ?::text[], ?::text[]::bigint[]) as k(w, m, o)
                 order by w, m, o
                on conflict do nothing""")) {
            TextArrays.bind(connection, create, keys);
            create.executeUpdate();
        }
        int locked;
        try (PreparedStatement lock = connection.prepareStatement("""
                select 1 from dispatch.delivery_lane l
                  join unnest(?::text[]::bigint[], ?::text[], ?::text[]::bigint[]) as k(w, m, o)
                    on l.webhook_id = k.w and l.model = k.m and l.object_id = k.o
                 order by l.webhook_id, l.model, l.object_id
                   for update of l""")) {
            TextArrays.bind(connection, lock, keys);
            locked = 0;
            try (ResultSet rows = lock.executeQuery()) {
                while (rows.next()) {
                    locked++;
                }
            }
        }
        if (locked < sorted.size()) {
            // a lane row was deleted (retention) between the insert and the lock: create it again
            throw new LaneGoneException();
        }
        // A statement of its own: its snapshot is taken with the locks held, so it sees every
        // delivery that the lanes' previous holders committed.
        Map<Lane, Locked> state = new HashMap<>();
        try (PreparedStatement read = connection.prepareStatement("""
                select l.webhook_id, l.model, l.object_id, l.last_sequence,
                       exists (select 1 from dispatch.delivery d
                                where d.webhook_id = l.webhook_id and d.model = l.model and d.object_id = l.object_id
                                  and d.state = 'queued')
                  from dispatch.delivery_lane l
                  join unnest(?::text[]::bigint[], ?::text[], ?::text[]::bigint[]) as k(w, m, o)
                    on l.webhook_id = k.w and l.model = k.m and l.object_id = k.o""")) {
            TextArrays.bind(connection, read, keys);
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    state.put(
                            new Lane(rows.getLong(1), rows.getString(2), rows.getLong(3)),
                            new Locked(rows.getLong(4), rows.getBoolean(5)));
                }
            }
        }
        return state;
    }

    /** {@link #lock}, again from the start when a lane row vanished meanwhile (at most a few times). */
    static Map<Lane, Locked> lockAll(Connection connection, Collection<Lane> lanes) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return lock(connection, lanes);
            } catch (LaneGoneException e) {
                if (attempt == 3) {
                    throw new SQLException("delivery lanes keep disappearing while being locked");
                }
            }
        }
    }

    /**
     * Locks the lanes of these deliveries (rows recorded before lanes existed may have none).
     *
     * @return the lanes locked
     */
    static List<Lane> lockOf(Connection connection, Collection<Long> deliveryIds) throws SQLException {
        if (deliveryIds.isEmpty()) {
            return List.of();
        }
        try (PreparedStatement lock = connection.prepareStatement("""
                select l.webhook_id, l.model, l.object_id from dispatch.delivery_lane l
                 where (l.webhook_id, l.model, l.object_id) in
                       (select d.webhook_id, d.model, d.object_id from dispatch.delivery d where d.id = any(?))
                 order by l.webhook_id, l.model, l.object_id
                   for update of l""")) {
            lock.setArray(1, connection.createArrayOf("bigint", deliveryIds.toArray()));
            List<Lane> locked = new ArrayList<>();
            try (ResultSet rows = lock.executeQuery()) {
                while (rows.next()) {
                    locked.add(new Lane(rows.getLong(1), rows.getString(2), rows.getLong(3)));
                }
            }
            return locked;
        }
    }

    /** Sets the lanes' last delivery numbers (lanes locked by this transaction). */
    static void setLastSequences(Connection connection, Map<Lane, Long> lastSequences) throws SQLException {
        if (lastSequences.isEmpty()) {
            return;
        }
        List<Lane> lanes = lastSequences.keySet().stream().sorted(Lane.ORDER).toList();
        String[][] keys = columns(lanes);
        String[] sequences =
                lanes.stream().map(l -> lastSequences.get(l).toString()).toArray(String[]::new);
        try (PreparedStatement update = connection.prepareStatement("""
                update dispatch.delivery_lane l set last_sequence = k.s
                  from unnest(?::text[]::bigint[], ?::text[], ?::text[]::bigint[], ?::text[]::bigint[]) as k(w, m, o, s)
                 where l.webhook_id = k.w and l.model = k.m and l.object_id = k.o""")) {
            int next = TextArrays.bind(connection, update, keys);
            update.setArray(next, connection.createArrayOf("text", sequences));
            update.executeUpdate();
        }
    }

    /**
     * Makes the next waiting delivery of each of these lanes due, where the lane has no due or
     * retrying delivery left (lanes locked by this transaction, after it finished deliveries).
     *
     * @return how many deliveries became due
     */
    static int promote(Connection connection, Collection<Lane> lanes) throws SQLException {
        if (lanes.isEmpty()) {
            return 0;
        }
        String[][] keys = columns(sorted(lanes));
        try (PreparedStatement promote = connection.prepareStatement("""
                update dispatch.delivery d set waiting = false, next_attempt_at = now()
                 where d.id in (
                       select (select w.id from dispatch.delivery w
                                where w.webhook_id = k.w and w.model = k.m and w.object_id = k.o
                                  and w.state = 'queued' and w.waiting
                                order by w.id limit 1)
                         from unnest(?::text[]::bigint[], ?::text[], ?::text[]::bigint[]) as k(w, m, o)
                        where not exists (select 1 from dispatch.delivery q
                                           where q.webhook_id = k.w and q.model = k.m and q.object_id = k.o
                                             and q.state = 'queued' and not q.waiting))
                   and d.state = 'queued' and d.waiting""")) {
            TextArrays.bind(connection, promote, keys);
            return promote.executeUpdate();
        }
    }

    private static TreeSet<Lane> sorted(Collection<Lane> lanes) {
        TreeSet<Lane> sorted = new TreeSet<>(Lane.ORDER);
        sorted.addAll(lanes);
        return sorted;
    }

    private static String[][] columns(Collection<Lane> lanes) {
        int n = lanes.size();
        String[] webhooks = new String[n];
        String[] models = new String[n];
        String[] objects = new String[n];
        int i = 0;
        for (Lane lane : lanes) {
            webhooks[i] = Long.toString(lane.webhookId());
            models[i] = lane.model();
            objects[i] = Long.toString(lane.objectId());
            i++;
        }
        return new String[][] {webhooks, models, objects};
    }

    /** A lane row was deleted between creating and locking it. */
    private static final class LaneGoneException extends SQLException {
        LaneGoneException() {
            super("a delivery lane was deleted while being locked");
        }
    }
}
