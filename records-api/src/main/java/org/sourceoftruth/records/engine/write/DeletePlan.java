package org.sourceoftruth.records.engine.write;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.web.ApiException;

/**
 * Everything a delete touches, found before anything is written, as NetBox's (Django's)
 * deletion collector finds it: rows referring to a deleted row through a CASCADE foreign key or
 * a CASCADE generic relation (an interface's IP addresses) are deleted too, recursively; rows
 * referring to one through a SET_NULL foreign key or generic relation lose that reference, and
 * owners of many-to-many links to one lose those links (both are updated); a PROTECT reference
 * from a row that is not deleted itself refuses the whole delete.
 *
 * <p>The engine then writes exactly this ({@link #apply}), so what the change log records is what
 * happened; the migrations' ON DELETE rules and generic-relation triggers stay as a safety net
 * and find nothing left to do. Everything is found and written set-wise: a query per reference
 * and level of the cascade, a statement per model and level, never one per row.
 *
 * <p>Each touched row has a depth: the requested rows 0, a row reached from a row of depth d
 * d + 1, the deepest path winning (a location nested in another of the same site is reached from
 * the site and from its parent: it counts as its parent's child). Rows are logged and deleted
 * deepest first, so dependents come before what they depend on.
 */
final class DeletePlan {
    /** Safety bound on depth: a cycle of CASCADE references in the data must not loop forever. */
    private static final int MAX_DEPTH = 1000;

    private final Db db;
    private final ModelRegistry registry;
    /** Whether the rows found are locked (a delete) or only read (a {@link #preview}). */
    private final boolean lock;

    private final Map<Model, Map<Long, Touched>> deleted = new LinkedHashMap<>();
    private final Map<Model, Map<Long, Touched>> updated = new LinkedHashMap<>();
    /** The references to clear on the updated rows: (field of the owner, model it points at). */
    private final Set<Clearing> clearings = new LinkedHashSet<>();

    /** A row the delete touches, and how deep in the cascade. */
    static final class Touched {
        final Model model;
        final Row row;
        int depth;

        Touched(Model model, Row row, int depth) {
            this.model = model;
            this.row = row;
            this.depth = depth;
        }
    }

    private record Clearing(ModelRegistry.Reference reference, Model target) {}

    private DeletePlan(Db db, ModelRegistry registry, boolean lock) {
        this.db = db;
        this.registry = registry;
        this.lock = lock;
    }

    /**
     * Finds what deleting {@code rows} of {@code model} (already locked) touches; locks every row
     * found. Refuses with a 409 when protected objects depend on any deleted row.
     */
    static DeletePlan collect(Db db, ModelRegistry registry, Model model, List<Row> rows) {
        DeletePlan cascade = find(db, registry, model, rows, true);
        cascade.refuseIfProtected();
        return cascade;
    }

    /**
     * What deleting {@code rows} would touch, found as {@link #collect} finds it but nothing locked
     * and nothing refused: the protecting rows are in {@link #protecting}. Not to be applied.
     */
    static DeletePlan preview(Db db, ModelRegistry registry, Model model, List<Row> rows) {
        return find(db, registry, model, rows, false);
    }

    private static DeletePlan find(Db db, ModelRegistry registry, Model model, List<Row> rows, boolean lock) {
        DeletePlan cascade = new DeletePlan(db, registry, lock);
        Map<Model, Set<Long>> frontier = new LinkedHashMap<>();
        for (Row row : rows) {
            cascade.reach(cascade.deleted, model, row, 0, frontier);
        }
        for (int depth = 1; !frontier.isEmpty() && depth <= MAX_DEPTH; depth++) {
            Map<Model, Set<Long>> next = new LinkedHashMap<>();
            for (Map.Entry<Model, Set<Long>> level : frontier.entrySet()) {
                cascade.followReferences(level.getKey(), level.getValue(), depth, next);
            }
            frontier = next;
        }
        // A row first found losing a reference may turn out to be deleted as well: then it is only deleted.
        cascade.deleted.forEach((m, rowsOf) -> {
            Map<Long, Touched> alsoUpdated = cascade.updated.get(m);
            if (alsoUpdated != null) {
                alsoUpdated.keySet().removeAll(rowsOf.keySet());
            }
        });
        return cascade;
    }

    /** Rows to delete, deepest first. */
    List<Touched> deletions() {
        return deepestFirst(deleted);
    }

    /** Rows that lose a reference (and stay), deepest first. */
    List<Touched> updates() {
        return deepestFirst(updated);
    }

    /** Rows to delete by model, in the order found (id order within a model and level). */
    List<Touched> deletionsAsFound() {
        return asFound(deleted);
    }

    /** Rows that lose a reference by model, in the order found. */
    List<Touched> updatesAsFound() {
        return asFound(updated);
    }

    private static List<Touched> asFound(Map<Model, Map<Long, Touched>> rows) {
        List<Touched> out = new ArrayList<>();
        rows.values().forEach(r -> out.addAll(r.values()));
        return out;
    }

    /**
     * Writes the cascade: clears the references of the updated rows, then deletes the rows,
     * deepest first (a statement per model and depth), with their tag assignments.
     */
    void apply() {
        if (!lock) {
            throw new IllegalStateException("a preview of a delete is not applied");
        }
        for (Clearing c : clearings) {
            clear(c);
        }
        Map<Integer, Map<Model, List<Long>>> byDepth = new java.util.TreeMap<>(Comparator.reverseOrder());
        for (Touched t : deletions()) {
            byDepth.computeIfAbsent(t.depth, d -> new LinkedHashMap<>())
                    .computeIfAbsent(t.model, m -> new ArrayList<>())
                    .add(t.row.id());
        }
        byDepth.values()
                .forEach(level -> level.forEach((model, ids) -> {
                    Db.SqlArray idArray = new Db.SqlArray("bigint", ids);
                    if (model.hasTags()) {
                        db.update(
                                "delete from " + SystemTables.EXTRAS_TAGGEDITEM
                                        + " where object_type = ? and object_id = any(?)",
                                model.contentType(),
                                idArray);
                    }
                    db.update("delete from " + model.table() + " where id = any(?)", idArray);
                }));
    }

    /** Every model whose rows the delete removes or changes. */
    Set<Model> touchedModels() {
        Set<Model> models = new LinkedHashSet<>(deleted.keySet());
        updated.forEach((m, rows) -> {
            if (!rows.isEmpty()) {
                models.add(m);
            }
        });
        return models;
    }

    // ------------------------------------------------------------------ finding

    /**
     * Follows every reference to the rows {@code ids} of {@code model}, just reached at depth
     * {@code depth - 1}: dependents to delete join {@code next} (their own dependents are next).
     */
    private void followReferences(Model model, Set<Long> ids, int depth, Map<Model, Set<Long>> next) {
        Db.SqlArray idArray = new Db.SqlArray("bigint", ids);
        for (ModelRegistry.Reference ref : registry.referencesTo(model.contentType())) {
            Model owner = ref.owner();
            Field f = ref.field();
            if (!owner.isChangedByEngine() || f.isReadOnly()) {
                // Nothing stored to follow: the change log is not changed through the API, and a
                // read-only reference is derived (a device's primary_ip, an address's nat_outside
                // is the reverse view of nat_inside, which is followed itself).
                continue;
            }
            String where;
            List<Object> params = new ArrayList<>();
            if (f.kind == Kind.M2M) {
                where = "t.id in (select j." + f.joinOwnColumn() + " from " + f.joinTable() + " j where j."
                        + f.joinTargetColumn() + " = any(?))";
            } else if (f.kind == Kind.GENERIC_FK && f.protects(model.contentType())) {
                continue; // checked once the whole cascade is known (refuseIfProtected)
            } else if (f.kind == Kind.GENERIC_FK) {
                where = "t." + f.genericTypeColumn() + " = ? and t." + f.genericIdColumn() + " = any(?)";
                params.add(model.contentType());
            } else if (f.onDelete() == Field.OnDelete.PROTECT) {
                continue; // checked once the whole cascade is known (refuseIfProtected)
            } else {
                where = "t." + f.column() + " = any(?)";
            }
            params.add(idArray);
            boolean cascades = f.kind != Kind.M2M && f.onDelete() == Field.OnDelete.CASCADE;
            Map<Model, Map<Long, Touched>> into = cascades ? deleted : updated;
            for (Row row : lockAndLoad(owner, where, params)) {
                reach(into, owner, row, depth, cascades ? next : null);
            }
            if (!cascades) {
                clearings.add(new Clearing(ref, model));
            }
        }
    }

    /**
     * Notes {@code row} as touched at {@code depth}; when it is new or now deeper and {@code next}
     * is given, its own dependents are followed at the next level.
     */
    private void reach(
            Map<Model, Map<Long, Touched>> into, Model model, Row row, int depth, Map<Model, Set<Long>> next) {
        Map<Long, Touched> rows = into.computeIfAbsent(model, m -> new LinkedHashMap<>());
        Touched known = rows.get(row.id());
        if (known == null) {
            rows.put(row.id(), new Touched(model, row, depth));
        } else if (known.depth < depth) {
            known.depth = depth;
        } else {
            return;
        }
        if (next != null) {
            next.computeIfAbsent(model, m -> new LinkedHashSet<>()).add(row.id());
        }
    }

    /**
     * The rows of {@code owner} matching {@code where} (alias t), locked: one query for the ids
     * (FOR UPDATE, in id order so concurrent deletes lock alike), one for the rows not yet known.
     */
    private List<Row> lockAndLoad(Model owner, String where, List<Object> params) {
        List<Long> ids = db
                .query(
                        "select t.id from " + owner.table() + " t where " + where + " order by t.id"
                                + (lock ? " for update" : ""),
                        params)
                .stream()
                .map(Row::id)
                .toList();
        if (ids.isEmpty()) {
            return List.of();
        }
        List<Row> rows = new ArrayList<>(ids.size());
        List<Long> unknown = new ArrayList<>();
        for (Long id : ids) {
            Touched known = known(owner, id);
            if (known != null) {
                rows.add(known.row);
            } else {
                unknown.add(id);
            }
        }
        if (!unknown.isEmpty()) {
            rows.addAll(db.query(
                    owner.selectFrom() + " where t.id = any(?) order by t.id", new Db.SqlArray("bigint", unknown)));
        }
        return rows;
    }

    private Touched known(Model model, long id) {
        Map<Long, Touched> d = deleted.get(model);
        if (d != null && d.containsKey(id)) {
            return d.get(id);
        }
        Map<Long, Touched> u = updated.get(model);
        return u == null ? null : u.get(id);
    }

    /**
     * 409 when rows outside the cascade depend on a deleted row through a PROTECT reference
     * (NetBox's ProtectedError; a protected row deleted by the same cascade does not count,
     * as Django's RESTRICT: an interface that is another's parent goes with its device).
     */
    private void refuseIfProtected() {
        List<String> found = new ArrayList<>();
        for (Touched dependent : protecting()) {
            found.add(dependent.model.display(dependent.row) + " (" + dependent.row.id() + ")");
        }
        if (!found.isEmpty()) {
            throw ApiException.detail(
                    409,
                    "Unable to delete object. " + found.size() + " dependent objects were found: "
                            + String.join(", ", found));
        }
    }

    /**
     * The rows outside the cascade that depend on a deleted row through a PROTECT reference (a
     * query per protecting reference of each deleted model), by model and id; a row may appear
     * once per deleted row it protects through a different reference.
     */
    List<Touched> protecting() {
        List<Touched> found = new ArrayList<>();
        deleted.forEach((model, rows) -> {
            for (ModelRegistry.Reference ref : registry.referencesTo(model.contentType())) {
                Field f = ref.field();
                boolean protectedFk = f.kind == Kind.FK && f.onDelete() == Field.OnDelete.PROTECT;
                boolean protectedGeneric = f.kind == Kind.GENERIC_FK && f.protects(model.contentType());
                if (!protectedFk && !protectedGeneric) {
                    continue;
                }
                Model owner = ref.owner();
                List<Long> alsoDeleted =
                        List.copyOf(deleted.getOrDefault(owner, Map.of()).keySet());
                String pointing = protectedFk
                        ? "t." + f.column() + " = any(?)"
                        : "t." + f.genericTypeColumn() + " = '" + model.contentType() + "' and t." + f.genericIdColumn()
                                + " = any(?)";
                for (Row dependent : db.query(
                        owner.selectFrom() + " where " + pointing + " and t.id <> all(?)" + " order by t.id",
                        new Db.SqlArray("bigint", rows.keySet()),
                        new Db.SqlArray("bigint", alsoDeleted))) {
                    found.add(new Touched(owner, dependent, 0));
                }
            }
        });
        return found;
    }

    // ------------------------------------------------------------------ writing

    /** Removes one kind of reference to the deleted rows from the updated rows (one statement). */
    private void clear(Clearing c) {
        Model owner = c.reference().owner();
        Field f = c.reference().field();
        List<Long> owners = List.copyOf(updated.getOrDefault(owner, Map.of()).keySet());
        if (owners.isEmpty()) {
            return;
        }
        Db.SqlArray targets = new Db.SqlArray("bigint", deleted.get(c.target()).keySet());
        Db.SqlArray ownerIds = new Db.SqlArray("bigint", owners);
        String touch = owner.hasColumn("last_updated") ? ", last_updated = now()" : "";
        switch (f.kind) {
            case M2M ->
                db.update(
                        "delete from " + f.joinTable() + " where " + f.joinTargetColumn() + " = any(?) and "
                                + f.joinOwnColumn() + " = any(?)",
                        targets,
                        ownerIds);
            case GENERIC_FK ->
                db.update(
                        "update " + owner.table() + " set " + f.genericTypeColumn() + " = null, "
                                + f.genericIdColumn() + " = null" + touch + " where " + f.genericTypeColumn()
                                + " = ? and "
                                + f.genericIdColumn() + " = any(?) and id = any(?)",
                        c.target().contentType(),
                        targets,
                        ownerIds);
            default ->
                db.update(
                        "update " + owner.table() + " set " + f.column() + " = null"
                                + f.clearedWith().stream()
                                        .map(col -> ", " + Db.q(col) + " = null")
                                        .collect(Collectors.joining())
                                + touch + " where "
                                + f.column() + " = any(?) and id = any(?)",
                        targets,
                        ownerIds);
        }
    }

    private static List<Touched> deepestFirst(Map<Model, Map<Long, Touched>> rows) {
        List<Touched> out = new ArrayList<>();
        rows.values().forEach(r -> out.addAll(r.values()));
        // Stable: rows of the same depth stay grouped by model, in the order found (id order).
        out.sort(Comparator.comparingInt((Touched t) -> t.depth).reversed());
        return out;
    }
}
