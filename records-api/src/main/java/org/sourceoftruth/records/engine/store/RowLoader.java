package org.sourceoftruth.records.engine.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ApiException;

/** Reads stored rows of a model by id (with the model's computed columns), optionally locked. */
public final class RowLoader {
    private RowLoader() {}

    /** The row, or NetBox's 404 for the model. */
    public static Row load(Db db, Model model, long id, boolean forUpdate) {
        Row row = loadOrNull(db, model, id, forUpdate);
        if (row == null) {
            throw notFound(model);
        }
        return row;
    }

    public static Row loadOrNull(Db db, Model model, long id, boolean forUpdate) {
        // One statement locks and reads: FOR UPDATE OF t locks only the model's own row (the
        // computed columns are scalar subqueries of their own), and a row updated concurrently is
        // returned in its committed new version, as a separate read after the lock would see it.
        List<Row> rows = db.query(select(model, id, forUpdate));
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The query of the row with this id (for another round trip to carry, see {@link Db#queryAll}). */
    public static Db.Select select(Model model, long id, boolean forUpdate) {
        return new Db.Select(
                model.selectFrom() + " where t.id = ?" + (forUpdate ? " for update of t" : ""), List.of(id));
    }

    /** The rows with these ids, in the order of the ids (one query); a missing one is a 404. */
    public static List<Row> loadAll(Db db, Model model, List<Long> ids) {
        Map<Long, Row> byId = new HashMap<>();
        db.query(Db.byIds(model.selectFrom(), ids)).forEach(r -> byId.put(r.id(), r));
        List<Row> rows = new ArrayList<>(ids.size());
        for (Long id : ids) {
            Row row = byId.get(id);
            if (row == null) {
                throw notFound(model);
            }
            rows.add(row);
        }
        return rows;
    }

    /** NetBox's answer for an object that does not exist or lies outside the caller's permissions. */
    public static ApiException notFound(Model model) {
        return ApiException.detail(404, "No " + model.titleName().replace(" ", "") + " matches the given query.");
    }
}
