package org.sourceoftruth.records.engine.render;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sourceoftruth.records.db.DatabaseSnapshot;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * The nested objects of read responses (a device's site, rack, device type, role...) and the
 * objects' tag lists, rendered once per database snapshot and reused by the reads that see the
 * same snapshot.
 *
 * <p>A page of 50 devices refers to a few dozen such objects, which cost half of PostgreSQL's
 * time for the page (one batched lookup per field and their own parents) and a fifth of the
 * service's: reading and rendering the same sites and types for every request. A nested object
 * depends on nothing but rows of the database (it is shown to every caller alike, whatever
 * their permissions) and the request's options (base URL, field set), which are part of its
 * key. Two statements with the same {@code pg_current_snapshot()} see the same rows (no
 * transaction can have ended between them; the argument of {@code SnapshotCounts}), so:
 * <ul>
 *   <li>a read asks for the snapshot in the round trip of its own rows ({@link #PROBE} after
 *       them, or a statement of its own that carries the snapshot, such as a list's count), and
 *       may use what was kept under that snapshot: the same objects its lookups would find;</li>
 *   <li>what it renders itself is kept only when a second probe after the last of its lookups
 *       shows the same snapshot again, so that every lookup in between saw that snapshot's data.
 *       That probe costs a round trip, only for a read that had to look something up.</li>
 * </ul>
 * Any commit in the cluster, by anyone (another replica, the outbox relay, psql), moves the
 * snapshot, and nothing kept is used again. Reads inside a transaction that has written (the
 * responses of writes) never use it: their snapshot does not show their own rows.
 *
 * <p>Kept nodes are shared between responses and must not be changed; the renderer already
 * shares one nested node among all rows of a page that point to it.
 *
 * <p>On /q/metrics: {@code sot_nested_objects_total{outcome="reused"|"read"}}.
 */
@ApplicationScoped
public class NestedObjectCache {
    /** The statement's snapshot, and whether its transaction has written ({@link DatabaseSnapshot}). */
    static final Db.Select PROBE = new Db.Select("select " + DatabaseSnapshot.COLUMNS, List.of());
    /** Objects and tag lists kept for one snapshot; beyond it a read keeps nothing more (a kept node is ~1 KB). */
    static final int MAX_OBJECTS = 10_000;

    private volatile Generation generation = new Generation("", new ConcurrentHashMap<>());
    private final Counter reused;
    private final Counter read;

    @Inject
    NestedObjectCache(MeterRegistry registry) {
        reused = outcome(
                registry,
                "reused",
                "Nested objects of read responses taken from the ones kept for the same database snapshot");
        read = outcome(registry, "read", "Nested objects of read responses looked up and rendered");
    }

    private static Counter outcome(MeterRegistry registry, String outcome, String description) {
        return Counter.builder("sot.nested.objects")
                .tag("outcome", outcome)
                .description(description)
                .register(registry);
    }

    /**
     * A read's own rows, its view of the kept objects, and the row of the statement that followed
     * the rows in their round trip (null when none did).
     */
    public record Reading(List<Row> rows, Read cache, Row probe) {}

    /**
     * Reads the rows of this select and, in the same round trip, the snapshot just after them;
     * when the rows will show no nested objects ({@link Renderer#showsNestedObjects}), only the rows.
     * {@code probe}, when given, is the statement sent after the rows instead of {@link #PROBE}
     * (or, for rows without nested objects, at all): a one-row select of the caller's own that
     * carries {@link DatabaseSnapshot#COLUMNS}, such as the page's count, which then costs no
     * round trip of its own.
     */
    public Reading read(Db db, Db.Select select, boolean showsNestedObjects, Db.Select probe) {
        Db.Select after = probe != null ? probe : showsNestedObjects ? PROBE : null;
        if (after == null) {
            return new Reading(db.query(select), null, null);
        }
        List<List<Row>> results = db.queryAll(List.of(select, after));
        Row probeRow = results.get(1).get(0);
        return new Reading(results.get(0), showsNestedObjects ? begin(probeRow) : null, probeRow);
    }

    /**
     * A read whose own rows came with this {@link #PROBE} row: it may use the objects kept
     * under the snapshot the probe shows.
     */
    Read begin(Row probe) {
        String snapshot = DatabaseSnapshot.of(probe);
        Generation current = generation;
        return new Read(snapshot, snapshot != null && snapshot.equals(current.snapshot()) ? current.objects() : null);
    }

    private void keep(String snapshot, Map<Key, JsonNode> objects) {
        Generation current = generation;
        if (!current.snapshot().equals(snapshot)) {
            current = new Generation(snapshot, new ConcurrentHashMap<>());
            generation = current;
        }
        if (current.objects().size() + objects.size() <= MAX_OBJECTS) {
            current.objects().putAll(objects);
        }
    }

    /** The nested objects of one read: the kept ones it may use and the ones it renders. */
    public final class Read {
        private final String snapshot;
        private final Map<Key, JsonNode> usable;
        private final Map<Key, JsonNode> rendered = new HashMap<>();

        private Read(String snapshot, Map<Key, JsonNode> usable) {
            this.snapshot = snapshot;
            this.usable = usable;
        }

        /**
         * The kept nested form of this object under these options (field null), or the kept
         * value of one of its fields (its tags), or null.
         */
        JsonNode find(Model model, String field, long id, Renderer.Options options) {
            JsonNode node = usable == null ? null : usable.get(new Key(model, field, id, options));
            if (node != null) {
                reused.increment();
            }
            return node;
        }

        /** An object (or field value) this read looked up and rendered; kept by {@link #end} if it may be. */
        void rendered(Model model, String field, long id, Renderer.Options options, JsonNode node) {
            read.increment();
            if (snapshot != null) {
                rendered.put(new Key(model, field, id, options), node);
            }
        }

        /**
         * Keeps what this read rendered when the database still shows the snapshot its rows came
         * with; call after the last lookup of the read, on its connection.
         */
        public void end(Db db) {
            if (rendered.isEmpty()) {
                return;
            }
            if (snapshot.equals(DatabaseSnapshot.of(db.query(PROBE).get(0)))) {
                keep(snapshot, rendered);
            }
        }
    }

    private record Generation(String snapshot, ConcurrentHashMap<Key, JsonNode> objects) {}

    /**
     * A model's object rendered nested under these options (base URL and field set included), or
     * with {@code field} set, the rendered value of that field of the object.
     */
    private record Key(Model model, String field, long id, Renderer.Options options) {}
}
