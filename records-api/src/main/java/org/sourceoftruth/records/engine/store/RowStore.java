package org.sourceoftruth.records.engine.store;

import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes what a request changes into a model's table and its relation tables (many-to-many
 * links, tag assignments), set-wise: a statement per group of rows, never one per row.
 */
public final class RowStore {
    /** Bind parameters per statement, kept below the protocol's limit of 65535. */
    private static final int MAX_PARAMS = 30_000;

    private RowStore() {
    }

    /**
     * Inserts the rows and their relations; returns their ids in the order given. Rows with the
     * same columns go into one multi-row INSERT (PostgreSQL returns the ids in VALUES order, as
     * Django's bulk_create relies on too), in chunks that stay below the protocol's bind limit.
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
                    ids[index] = db.query("insert into " + model.table() + " default values returning id").get(0).id();
                }
                return;
            }
            String head = "insert into " + model.table() + " (" + String.join(", ", cols.stream().map(Db::q).toList())
                    + ") values ";
            String tuple = "(" + String.join(", ", Collections.nCopies(cols.size(), "?")) + ")";
            int chunk = Math.max(1, MAX_PARAMS / cols.size());
            for (int from = 0; from < indexes.size(); from += chunk) {
                List<Integer> part = indexes.subList(from, Math.min(indexes.size(), from + chunk));
                List<Object> params = new ArrayList<>(part.size() * cols.size());
                for (int index : part) {
                    Row row = reads.get(index).columns();
                    cols.forEach(col -> params.add(row.get(col)));
                }
                String sql = head + String.join(", ", Collections.nCopies(part.size(), tuple)) + " returning id";
                List<Row> returned = db.query(sql, params);
                for (int k = 0; k < part.size(); k++) {
                    ids[part.get(k)] = returned.get(k).id();
                }
            }
        });
        List<Long> out = List.of(ids);
        insertRelations(db, model, out, reads);
        return out;
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
                db.update("insert into " + f.joinTable() + " (" + f.joinOwnColumn() + ", " + f.joinTargetColumn()
                        + ") values (?, ?)", id, t);
            }
        });
        if (ch.tags() != null) {
            db.update("delete from extras_taggeditem where object_type = ? and object_id = ?", model.contentType(), id);
            for (Long tag : ch.tags()) {
                db.update("insert into extras_taggeditem (tag_id, object_type, object_id) values (?, ?, ?)",
                        tag, model.contentType(), id);
            }
        }
    }

    /** Many-to-many links and tags of newly inserted rows: one multi-row INSERT per relation. */
    private static void insertRelations(Db db, Model model, List<Long> ids, List<RowChanges> reads) {
        Map<Field, List<Object[]>> links = new LinkedHashMap<>();
        List<Object[]> tagged = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            reads.get(i).m2m().forEach((f, targets) -> targets.forEach(t ->
                    links.computeIfAbsent(f, k -> new ArrayList<>()).add(new Object[]{id, t})));
            if (reads.get(i).tags() != null) {
                reads.get(i).tags().forEach(tag -> tagged.add(new Object[]{tag, model.contentType(), id}));
            }
        }
        links.forEach((f, pairs) -> insertValues(db, f.joinTable() + " (" + f.joinOwnColumn() + ", "
                + f.joinTargetColumn() + ")", pairs));
        insertValues(db, "extras_taggeditem (tag_id, object_type, object_id)", tagged);
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
            db.update("insert into " + target + " values " + String.join(", ", Collections.nCopies(part.size(), tuple)),
                    params);
        }
    }
}
