package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.changelog.ChangeLogWriter;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

/**
 * Deletes rows with everything the delete cascades to ({@link DeletePlan}), logging every row
 * removed or changed, as NetBox logs every object a delete touches.
 */
@ApplicationScoped
public class CascadingDelete {
    @Inject
    ModelRegistry registry;

    @Inject
    Renderer renderer;

    @Inject
    ChangeRecordFactory entries;

    @Inject
    ChangeLogWriter changes;

    @Inject
    CacheInvalidators caches;

    /**
     * Deletes the requested rows (locked, the caller's permission checked) and what the delete
     * cascades to: a delete record with the pre-change snapshot for each deleted row, an update
     * record with both snapshots for each row that lost a reference, dependents first, all in
     * this request and transaction. Only the requested rows carry the request's changelog
     * message, as in NetBox.
     */
    List<WriteHook.FollowUp> delete(Db db, Model model, List<Row> rows, String message) {
        DeletePlan cascade = DeletePlan.collect(db, registry, model, rows);
        List<DeletePlan.Touched> deletions = cascade.deletions();
        List<DeletePlan.Touched> updates = cascade.updates();
        // Snapshots and representations of what goes or changes, taken before anything is written.
        Map<DeletePlan.Touched, Row> before = rowsAsFound(deletions);
        before.putAll(rowsAsFound(updates));
        Map<DeletePlan.Touched, JsonNode> pres = snapshotsOf(db, before);
        Map<DeletePlan.Touched, ObjectNode> deletedData = renderedOf(db, rowsAsFound(deletions));
        List<WriteHook.FollowUp> followUps = beforeDelete(db, deletions);
        cascade.apply();
        Map<DeletePlan.Touched, Row> changedRows = reloaded(db, updates);
        Map<DeletePlan.Touched, JsonNode> posts = snapshotsOf(db, changedRows);
        Map<DeletePlan.Touched, ObjectNode> changedData = renderedOf(db, changedRows);

        Set<Long> requested = new HashSet<>(rows.stream().map(Row::id).toList());
        List<ChangeRecord> records = new ArrayList<>(deletions.size() + updates.size());
        // Deepest first; at one depth, the rows that lost a reference before those deleted.
        List<DeletePlan.Touched> order = new ArrayList<>(updates);
        order.addAll(deletions);
        order.sort(Comparator.comparingInt((DeletePlan.Touched t) -> t.depth).reversed());
        for (DeletePlan.Touched t : order) {
            if (changedRows.containsKey(t)) {
                Row after = changedRows.get(t);
                records.add(entries.entry(
                        t.model,
                        ChangeAction.UPDATE,
                        t.row.id(),
                        t.model.display(after),
                        pres.get(t),
                        posts.get(t),
                        changedData.get(t),
                        ""));
            } else {
                boolean isRequested = t.model == model && requested.contains(t.row.id());
                records.add(entries.entry(
                        t.model,
                        ChangeAction.DELETE,
                        t.row.id(),
                        t.model.display(t.row),
                        pres.get(t),
                        null,
                        deletedData.get(t),
                        isRequested ? message : ""));
            }
        }
        changes.recordAll(records);
        // Touched models were deleted from or lost references: both count as deletes for the caches.
        cascade.touchedModels().forEach(m -> caches.changed(m, true));
        // the deleted models' hooks, last: what they rewrite sees every row gone
        byModel(rowsAsFound(deletions)).forEach((m, touched) -> {
            if (!m.writeHooks().isEmpty()) {
                followUps.addAll(WriteHooks.afterDelete(
                        db, m, touched.stream().map(t -> t.row).toList()));
            }
        });
        return followUps;
    }

    /**
     * What the deleted models' hooks ask for before the delete ({@link WriteHook#beforeDelete}),
     * without the writes to objects that go in the same delete.
     */
    private static List<WriteHook.FollowUp> beforeDelete(Db db, List<DeletePlan.Touched> deletions) {
        Set<String> deleted = new HashSet<>();
        deletions.forEach(t -> deleted.add(t.model.contentType() + ":" + t.row.id()));
        List<WriteHook.FollowUp> out = new ArrayList<>();
        byModel(rowsAsFound(deletions)).forEach((m, touched) -> {
            if (!m.writeHooks().isEmpty()) {
                for (WriteHook.FollowUp f : WriteHooks.beforeDelete(
                        db, m, touched.stream().map(t -> t.row).toList())) {
                    if (!deleted.contains(f.contentType() + ":" + f.id())) {
                        out.add(f);
                    }
                }
            }
        });
        return out;
    }

    private static Map<DeletePlan.Touched, Row> rowsAsFound(List<DeletePlan.Touched> touched) {
        Map<DeletePlan.Touched, Row> rows = new LinkedHashMap<>();
        touched.forEach(t -> rows.put(t, t.row));
        return rows;
    }

    /** Change-log snapshots of touched rows (their current form given): a query or two per model, not per row. */
    private Map<DeletePlan.Touched, JsonNode> snapshotsOf(Db db, Map<DeletePlan.Touched, Row> current) {
        Map<DeletePlan.Touched, JsonNode> out = new HashMap<>();
        byModel(current).forEach((m, touched) -> {
            List<JsonNode> snaps =
                    ChangeSnapshots.of(db, m, touched.stream().map(current::get).toList());
            for (int i = 0; i < touched.size(); i++) {
                out.put(touched.get(i), snaps.get(i));
            }
        });
        return out;
    }

    /** The event data (full representation without secrets) of touched rows: a render per model. */
    private Map<DeletePlan.Touched, ObjectNode> renderedOf(Db db, Map<DeletePlan.Touched, Row> current) {
        Map<DeletePlan.Touched, ObjectNode> out = new HashMap<>();
        byModel(current).forEach((m, touched) -> {
            List<ObjectNode> rendered =
                    renderer.render(db, m, touched.stream().map(current::get).toList(), Renderer.Options.full(""));
            for (int i = 0; i < touched.size(); i++) {
                out.put(touched.get(i), ChangeRecordFactory.redacted(m, rendered.get(i)));
            }
        });
        return out;
    }

    /** The updated rows as written (a query per model). */
    private static Map<DeletePlan.Touched, Row> reloaded(Db db, List<DeletePlan.Touched> updates) {
        Map<DeletePlan.Touched, Row> out = new LinkedHashMap<>();
        byModel(rowsAsFound(updates)).forEach((m, touched) -> {
            List<Row> rows = RowLoader.loadAll(
                    db, m, touched.stream().map(t -> t.row.id()).toList());
            for (int i = 0; i < touched.size(); i++) {
                out.put(touched.get(i), rows.get(i));
            }
        });
        return out;
    }

    private static Map<Model, List<DeletePlan.Touched>> byModel(Map<DeletePlan.Touched, Row> touched) {
        Map<Model, List<DeletePlan.Touched>> out = new LinkedHashMap<>();
        touched.keySet()
                .forEach(t ->
                        out.computeIfAbsent(t.model, m -> new ArrayList<>()).add(t));
        return out;
    }
}
