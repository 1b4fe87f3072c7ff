package org.sourceoftruth.records.engine.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.db.ColumnTypes;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.db.SqlText;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Writes what a request changes into a model's table and its relation tables (many-to-many
 * links, tag assignments), set-wise: a statement per group of rows, never one per row.
 */
public final class RowStore {
    /** Column types whose values go as a bigint array (binary); the cast to the column refuses what does not fit. */
    private static final Set<String> INTEGER_TYPES = Set.of("bigint", "integer", "smallint");
    /** Bind parameters per statement, kept below the protocol's limit of 65535. */
    private static final int MAX_PARAMS = 30_000;

    private RowStore() {}

    /**
     * Inserts the rows and their relations; returns their ids in the order given. Rows with the
     * same columns go into one INSERT ({@link #insertGroup}).
     */
    public static List<Long> insertAll(Db db, Model model, List<RowChanges> reads) {
        Long[] ids = new Long[reads.size()];
        Map<List<String>, List<Integer>> byColumns = new LinkedHashMap<>();
        for (int i = 0; i < reads.size(); i++) {
            List<String> stored = new ArrayList<>(reads.get(i).columns().keySet());
            stored.removeIf(model::isRequestOnly);
            byColumns.computeIfAbsent(stored, k -> new ArrayList<>()).add(i);
        }
        byColumns.forEach((cols, indexes) -> {
            if (cols.isEmpty()) {
                for (int index : indexes) {
                    ids[index] = db.query("insert into " + model.table() + " default values returning id")
                            .get(0)
                            .id();
                }
                return;
            }
            List<Row> rows =
                    indexes.stream().map(index -> reads.get(index).columns()).toList();
            List<Long> inserted = insertGroup(db, model, cols, rows);
            for (int k = 0; k < indexes.size(); k++) {
                ids[indexes.get(k)] = inserted.get(k);
            }
        });
        List<Long> out = List.of(ids);
        insertRelations(db, model, out, reads);
        return out;
    }

    /**
     * One INSERT of rows with the same columns, each column's values in one array parameter,
     * unnested in the rows' order; the ids are returned in that order (the order in which the
     * rows are inserted, as Django's bulk_create relies on for VALUES lists). The statement's
     * text depends on the columns only, so it is parsed and planned once per session: the VALUES
     * list it replaces (a new text of 30,000 parameters per 1,000 interfaces) was built, parsed by
     * the driver and bound parameter by parameter at every request.
     *
     * <p>Integer columns go as bigint arrays (sent in binary), every other column as text, each
     * cast to the column's type in SQL, as PostgreSQL reads a literal of that type.
     */
    private static List<Long> insertGroup(Db db, Model model, List<String> cols, List<Row> rows) {
        List<String> columns = new ArrayList<>(cols.size());
        List<String> arrays = new ArrayList<>(cols.size());
        List<String> names = new ArrayList<>(cols.size());
        List<String> selected = new ArrayList<>(cols.size());
        List<Object> params = new ArrayList<>(cols.size());
        for (int c = 0; c < cols.size(); c++) {
            String col = cols.get(c);
            String type = ColumnTypes.of(db, model.table(), col);
            List<Object> values = new ArrayList<>(rows.size());
            rows.forEach(row -> values.add(row.get(col)));
            // bigint for every integer column: its cast to integer or smallint refuses what does not fit
            String element =
                    INTEGER_TYPES.contains(type) && values.stream().allMatch(Db::isWholeNumber) ? "bigint" : "text";
            if (element.equals("text")) {
                values.replaceAll(SqlText::of);
            }
            columns.add(Db.q(col));
            arrays.add("?::" + element + "[]");
            names.add("c" + c);
            selected.add("u.c" + c + (element.equals(type) ? "" : "::" + type));
            params.add(new Db.SqlArray(element, values));
        }
        String sql = "insert into " + model.table() + " (" + String.join(", ", columns) + ") select "
                + String.join(", ", selected) + " from unnest(" + String.join(", ", arrays)
                + ") with ordinality as u(" + String.join(", ", names) + ", n) order by u.n returning id";
        return db.query(sql, params).stream().map(Row::id).toList();
    }

    /** Updates one row's columns (and last_updated) and replaces the relations the request sent. */
    public static void update(Db db, Model model, long id, RowChanges ch) {
        List<String> sets = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        ch.columns().forEach((col, v) -> {
            if (model.isRequestOnly(col)) {
                return;
            }
            sets.add(Db.q(col) + " = ?");
            params.add(v);
        });
        if (model.hasColumn("last_updated")) {
            sets.add("last_updated = now()");
        }
        if (!sets.isEmpty()) {
            params.add(id);
            db.update("update " + model.table() + " set " + String.join(", ", sets) + " where id = ?", params);
        }
        replaceRelations(db, model, id, ch);
    }

    private static void replaceRelations(Db db, Model model, long id, RowChanges ch) {
        ch.m2m().forEach((f, targets) -> {
            db.update("delete from " + f.joinTable() + " where " + f.joinOwnColumn() + " = ?", id);
            for (Long t : targets) {
                db.update(
                        "insert into " + f.joinTable() + " (" + f.joinOwnColumn() + ", " + f.joinTargetColumn()
                                + ") values (?, ?)",
                        id,
                        t);
            }
        });
        if (ch.tags() != null) {
            db.update(
                    "delete from " + SystemTables.EXTRAS_TAGGEDITEM + " where object_type = ? and object_id = ?",
                    model.contentType(),
                    id);
            for (Long tag : ch.tags()) {
                db.update(
                        "insert into " + SystemTables.EXTRAS_TAGGEDITEM
                                + " (tag_id, object_type, object_id) values (?, ?, ?)",
                        tag,
                        model.contentType(),
                        id);
            }
        }
    }

    /** Many-to-many links and tags of newly inserted rows: one multi-row INSERT per relation. */
    private static void insertRelations(Db db, Model model, List<Long> ids, List<RowChanges> reads) {
        Map<Field, List<Object[]>> links = new LinkedHashMap<>();
        List<Object[]> tagged = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            reads.get(i)
                    .m2m()
                    .forEach((f, targets) -> targets.forEach(t ->
                            links.computeIfAbsent(f, k -> new ArrayList<>()).add(new Object[] {id, t})));
            if (reads.get(i).tags() != null) {
                reads.get(i).tags().forEach(tag -> tagged.add(new Object[] {tag, model.contentType(), id}));
            }
        }
        links.forEach((f, pairs) ->
                insertValues(db, f.joinTable() + " (" + f.joinOwnColumn() + ", " + f.joinTargetColumn() + ")", pairs));
        insertValues(db, SystemTables.EXTRAS_TAGGEDITEM + " (tag_id, object_type, object_id)", tagged);
    }

    private static void insertValues(Db db, String target, List<Object[]> tuples) {
        if (tuples.isEmpty()) {
            return;
        }
        int width = tuples.get(0).length;
        String tuple = "(" + String.join(", ", Collections.nCopies(width, "?")) + ")";
        int chunk = MAX_PARAMS / width;
        for (int from = 0; from < tuples.size(); from += chunk) {
            List<Object[]> part = tuples.subList(from, Math.min(tuples.size(), from + chunk));
            List<Object> params = new ArrayList<>();
            part.forEach(t -> params.addAll(List.of(t)));
            db.update(
                    "insert into " + target + " values " + String.join(", ", Collections.nCopies(part.size(), tuple)),
                    params);
        }
    }
}
