package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.sourceoftruth.model.memory.ByteBudget;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.store.LargeValues;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.memory.HeapBudget;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * The heap a write request takes for the large values it handles, under the {@link HeapBudget}.
 * A write of an object holds it several times over: the stored row and its snapshot before the
 * change, the row and snapshot after it, the change record's JSON and the driver's bytes of it,
 * the rendered response; a bulk PATCH of three objects of 1, 5 and 10 MB took over 100 MB.
 *
 * <p>What a write will hold shows only once it has locked the rows it changes, inside its
 * transaction, where it must not wait for the budget: the holders it would wait for may wait for
 * its locks. So the writer locks each row without its large values first ({@link #lock}), and
 * counts their bytes and those of the request's items ({@link #holding}); as long as the
 * request stays under {@value #FREE_BYTES} bytes nothing is reserved (every ordinary write);
 * beyond, the reservation grows if the budget has room at once, and otherwise the write is rolled
 * back, the whole reservation waited for with no lock held, and the write done again. The
 * reservation is kept until the response has been sent.
 */
@ApplicationScoped
public class WriteHeap {
    /** The heap a write may take without a reservation. */
    static final long FREE_BYTES = 1L << 20;

    /** Heap per byte of the large values a write handles (see above). */
    static final int HEAP_PER_BYTE = 8;

    @Inject
    HeapBudget budget;

    @Inject
    LargeValues largeValues;

    private final ThreadLocal<Scope> current = new ThreadLocal<>();

    /** The heap still to reserve: thrown out of the write's transaction, which is rolled back and done again. */
    static final class MoreHeapNeeded extends RuntimeException {
        final long bytes;

        MoreHeapNeeded(long bytes) {
            super(null, null, false, false);
            this.bytes = bytes;
        }
    }

    /** What one write request has reported and reserved. */
    private static final class Scope {
        long held;
        long reservedBytes;
        ByteBudget.Reservation reservation;
        final java.util.List<ByteBudget.Reservation> grown = new java.util.ArrayList<>();

        void release() {
            if (reservation != null) {
                reservation.close();
            }
            grown.forEach(ByteBudget.Reservation::close);
            grown.clear();
            reservation = null;
            reservedBytes = 0;
        }
    }

    /**
     * Runs a write request (its own transaction): again, after waiting for the heap, when it found
     * it needs more than the budget had free. A write that joins a transaction already under way
     * is run once, and never waits: that transaction cannot be done again from here.
     */
    public <T> T run(Supplier<T> write) {
        if (current.get() != null || QuarkusTransaction.isActive()) {
            return write.get();
        }
        Scope scope = new Scope();
        current.set(scope);
        try {
            while (true) {
                scope.held = 0;
                try {
                    T result = write.get();
                    hold(scope);
                    return result;
                } catch (MoreHeapNeeded more) {
                    scope.release();
                    scope.reservation = budget.reserve(more.bytes);
                    scope.reservedBytes = Math.min(more.bytes, budget.bytes());
                }
            }
        } catch (RuntimeException | Error e) {
            scope.release();
            throw e;
        } finally {
            current.remove();
        }
    }

    /** The request's reservations, kept until its response is sent. */
    private void hold(Scope scope) {
        if (scope.reservation != null) {
            budget.holdUntilResponseEnds(scope.reservation);
        }
        scope.grown.forEach(budget::holdUntilResponseEnds);
        scope.grown.clear();
        scope.reservation = null;
    }

    /**
     * Locks and reads the row with this id for a change, with its snapshot ({@link
     * ChangeSnapshots#lock}), null when there is none: first without its large values, whose
     * bytes then count as held (the write may be rolled back here to wait for them), then, when
     * it has some, whole.
     */
    ChangeSnapshots.Locked lock(Db db, Model model, long id) {
        if (current.get() == null) {
            return ChangeSnapshots.lock(db, model, id);
        }
        ChangeSnapshots.Locked locked = ChangeSnapshots.lock(db, model, id, largeValues.select(model));
        if (locked == null) {
            return null;
        }
        long withheld = LargeValues.withheld(locked.row());
        if (withheld == 0) {
            locked.row().remove(LargeValues.WITHHELD);
            return locked;
        }
        add(current.get(), withheld);
        return ChangeSnapshots.lock(db, model, id);
    }

    /** As {@link #lock}, the row alone ({@link RowLoader#loadOrNull} for update). */
    Row loadLocked(Db db, Model model, long id) {
        if (current.get() == null) {
            return RowLoader.loadOrNull(db, model, id, true);
        }
        List<Row> rows = db.query(largeValues.select(model) + " where t.id = ? for update of t", id);
        if (rows.isEmpty()) {
            return null;
        }
        long withheld = LargeValues.withheld(rows.get(0));
        if (withheld == 0) {
            rows.get(0).remove(LargeValues.WITHHELD);
            return rows.get(0);
        }
        add(current.get(), withheld);
        return RowLoader.loadOrNull(db, model, id, true);
    }

    /** The write holds a request item (a new object, or the changes to one). */
    public void holding(JsonNode item) {
        Scope scope = current.get();
        if (scope != null && item != null) {
            add(scope, sizeOf(item));
        }
    }

    private void add(Scope scope, long bytes) {
        scope.held += bytes;
        long needed = scope.held * HEAP_PER_BYTE;
        if (needed <= FREE_BYTES || needed <= scope.reservedBytes || scope.reservedBytes >= budget.bytes()) {
            return;
        }
        ByteBudget.Reservation more = budget.tryReserve(needed - scope.reservedBytes);
        if (more == null) {
            throw new MoreHeapNeeded(needed);
        }
        scope.grown.add(more);
        scope.reservedBytes = needed;
    }

    /** About the length of a JSON value's text, without writing it. */
    static long sizeOf(JsonNode json) {
        if (json.isTextual()) {
            return json.textValue().length() + 2L;
        }
        if (!json.isContainerNode()) {
            return 8;
        }
        long bytes = 2;
        Iterator<java.util.Map.Entry<String, JsonNode>> fields = json.fields();
        if (json.isObject()) {
            while (fields.hasNext()) {
                java.util.Map.Entry<String, JsonNode> field = fields.next();
                bytes += field.getKey().length() + 4 + sizeOf(field.getValue());
            }
        } else {
            for (JsonNode element : json) {
                bytes += 1 + sizeOf(element);
            }
        }
        return bytes;
    }
}
