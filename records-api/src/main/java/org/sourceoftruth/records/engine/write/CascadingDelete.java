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
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.changelog.ChangeRecorder;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

/**
 * Deletes rows with everything the delete cascades to ({@link DeleteCascade}), logging every row
 * removed or changed, as NetBox logs every object a delete touches.
 */
@ApplicationScoped
public class CascadingDelete {
    @Inject
    ModelRegistry registry;

    @Inject
    Renderer renderer;

    @Inject
    ChangeLogEntries entries;

    @Inject
    ChangeRecorder changes;

    @Inject
    WriteListeners listeners;

    /**
     * Deletes the requested rows (locked, the caller's permission checked) and what the delete
     * cascades to: a delete record with the pre-change snapshot for each deleted row, an update
     * record with both snapshots for each row that lost a reference, dependents first, all in
     * this request and transaction. Only the requested rows carry the request's changelog
     * message, as in NetBox.
     */
    List<WriteHook.FollowUp> delete(Db db, Model model, List<Row> rows, String message) {
        DeleteCascade cascade = DeleteCascade.collect(db, registry, model, rows);
        List<DeleteCascade.Touched> deletions = cascade.deletions();
        List<DeleteCascade.Touched> updates = cascade.updates();
        // Snapshots and representations of what goes or changes, taken before anything is written.
        Map<DeleteCascade.Touched, Row> before = rowsAsFound(deletions);
        before.putAll(rowsAsFound(updates));
        Map<DeleteCascade.Touched, JsonNode> pres = snapshotsOf(db, before);
        Map<DeleteCascade.Touched, ObjectNode> deletedData = renderedOf(db, rowsAsFound(deletions));
        cascade.apply();
        Map<DeleteCascade.Touched, Row> changedRows = reloaded(db, updates);
        Map<DeleteCascade.Touched, JsonNode> posts = snapshotsOf(db, changedRows);
        Map<DeleteCascade.Touched, ObjectNode> changedData = renderedOf(db, changedRows);

        Set<Long> requested = new HashSet<>(rows.stream().map(Row::id).toList());
        List<ChangeRecord> records = new ArrayList<>(deletions.size() + updates.size());
        // Deepest first; at one depth, the rows that lost a reference before those deleted.
        List<DeleteCascade.Touched> order = new ArrayList<>(updates);
        order.addAll(deletions);
        order.sort(Comparator.comparingInt((DeleteCascade.Touched t) -> t.depth).reversed());
        for (DeleteCascade.Touched t : order) {
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
        cascade.touchedModels().forEach(m -> listeners.changed(m, true));
        // the deleted models' hooks, last: what they rewrite sees every row gone
        List<WriteHook.FollowUp> followUps = new ArrayList<>();
        byModel(rowsAsFound(deletions)).forEach((m, touched) -> {
            if (!m.writeHooks().isEmpty()) {
                followUps.addAll(WriteHooks.afterDelete(
                        db, m, touched.stream().map(t -> t.row).toList()));
            }
        });
        return followUps;
    }

    private static Map<DeleteCascade.Touched, Row> rowsAsFound(List<DeleteCascade.Touched> touched) {
        Map<DeleteCascade.Touched, Row> rows = new LinkedHashMap<>();
        touched.forEach(t -> rows.put(t, t.row));
        return rows;
    }

    /** Change-log snapshots of touched rows (their current form given): a query or two per model, not per row. */
    private Map<DeleteCascade.Touched, JsonNode> snapshotsOf(Db db, Map<DeleteCascade.Touched, Row> current) {
        Map<DeleteCascade.Touched, JsonNode> out = new HashMap<>();
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
    private Map<DeleteCascade.Touched, ObjectNode> renderedOf(Db db, Map<DeleteCascade.Touched, Row> current) {
        Map<DeleteCascade.Touched, ObjectNode> out = new HashMap<>();
        byModel(current).forEach((m, touched) -> {
            List<ObjectNode> rendered =
                    renderer.render(db, m, touched.stream().map(current::get).toList(), Renderer.Options.full(""));
            for (int i = 0; i < touched.size(); i++) {
                out.put(touched.get(i), ChangeLogEntries.withoutSecrets(m, rendered.get(i)));
            }
        });
        return out;
    }

    /** The updated rows as written (a query per model). */
    private static Map<DeleteCascade.Touched, Row> reloaded(Db db, List<DeleteCascade.Touched> updates) {
        Map<DeleteCascade.Touched, Row> out = new LinkedHashMap<>();
        byModel(rowsAsFound(updates)).forEach((m, touched) -> {
            List<Row> rows = RowLoader.loadAll(
                    db, m, touched.stream().map(t -> t.row.id()).toList());
            for (int i = 0; i < touched.size(); i++) {
                out.put(touched.get(i), rows.get(i));
            }
        });
        return out;
    }

    private static Map<Model, List<DeleteCascade.Touched>> byModel(Map<DeleteCascade.Touched, Row> touched) {
        Map<Model, List<DeleteCascade.Touched>> out = new LinkedHashMap<>();
        touched.keySet()
                .forEach(t ->
                        out.computeIfAbsent(t.model, m -> new ArrayList<>()).add(t));
        return out;
    }
}
