package org.sourceoftruth.records.api;

import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.db.Db;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.changelog.ChangeRecorder;
import io.quarkus.arc.All;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.kind.FieldTypes;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The generic engine's operations over any declared model: list, get, create, update, delete,
 * single and bulk. Every write runs in one transaction with its change-log rows; any error
 * rolls the whole request back. Every operation is limited to the objects the caller's
 * permissions cover for its action ({@link Access#restriction}): others are not found, and a
 * write whose result falls outside them is refused with a 403 (and rolled back).
 */
@ApplicationScoped
public class ModelService {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final DateTimeFormatter ETAG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    @Inject
    AgroalDataSource dataSource;
    @Inject
    ModelRegistry registry;
    @Inject
    FilterCompiler filters;
    @Inject
    Renderer renderer;
    @Inject
    PayloadReader reader;
    @Inject
    ChangeRecorder changes;
    @Inject
    RequestContext request;
    @Inject
    Access access;
    @Inject
    @All
    List<WriteListener> writeListeners;

    /** One page of a list: total count (null in cursor mode) and the rendered objects. */
    public record Page(Long count, List<ObjectNode> results, long lastId) {
    }

    /** How the caller asked to page: offset mode, or cursor mode when {@code start} is set. */
    public record PageRequest(Long limit, long offset, Long start) {
    }

    /** A rendered object with its ETag. */
    public record Single(ObjectNode node, String etag) {
    }

    public Page list(Model model, Map<String, List<String>> query, Renderer.Options opts, PageRequest page) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            FilterCompiler.Where where = filters.compile(db, model, query);
            List<Object> params = new ArrayList<>(where.params());
            String whereSql = where.sql();
            ExtraFilter.Sql scope = access.restriction(model, Access.Action.VIEW);
            if (scope != null) {
                whereSql = "(" + whereSql + ") and (" + scope.sql() + ")";
                params.addAll(scope.params());
            }
            String order;
            List<Object> countParams = null;
            if (page.start() != null) {
                whereSql = "(" + whereSql + ") and t.id >= ?";
                params.add(page.start());
                order = "t.id";
            } else {
                countParams = new ArrayList<>(params);
                order = ordering(model, query.get("ordering"));
            }
            StringBuilder sql = new StringBuilder(model.selectFrom()).append(" where ").append(whereSql)
                    .append(" order by ").append(order);
            // Limit and offset are bound, not written into the text: one statement text per list
            // query shape, so the driver's server-side prepared statement (and its plan) is reused.
            if (page.limit() != null) {
                sql.append(" limit ?");
                params.add(page.limit());
            }
            if (page.start() == null && page.offset() > 0) {
                sql.append(" offset ?");
                params.add(page.offset());
            }
            List<Row> rows = db.query(sql.toString(), params);
            Long count = null;
            if (countParams != null) {
                // A page that ends before the limit holds the last matches: the count follows from it
                // (when it is not empty, or starts at the beginning) without counting the table.
                boolean lastPage = page.limit() == null || rows.size() < page.limit();
                count = lastPage && (!rows.isEmpty() || page.offset() == 0) ? page.offset() + rows.size()
                        : db.count("select count(*) from " + model.table() + " t where " + whereSql, countParams);
            }
            List<ObjectNode> nodes = renderer.render(db, model, rows, opts);
            return new Page(count, nodes, rows.isEmpty() ? -1 : rows.get(rows.size() - 1).id());
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    public Single get(Model model, long id, Renderer.Options opts) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            Row row = load(db, model, id, false);
            if (!access.permits(db, model, id, Access.Action.VIEW)) {
                throw notFound(model);
            }
            return new Single(renderer.renderOne(db, model, row, opts), etag(row));
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** ORDER BY from {@code ?ordering=a,-b}; unknown terms are ignored as NetBox does; id breaks ties. */
    String ordering(Model model, List<String> requested) {
        List<String> terms = new ArrayList<>();
        if (requested != null) {
            for (String spec : requested) {
                for (String raw : spec.split(",")) {
                    String name = raw.trim();
                    boolean desc = name.startsWith("-");
                    if (desc) {
                        name = name.substring(1);
                    }
                    String expr = orderExpression(model, name);
                    if (expr != null) {
                        terms.add(expr + (desc ? " desc nulls last" : " asc nulls first"));
                    }
                }
            }
        }
        if (terms.isEmpty()) {
            terms.addAll(model.ordering());
        }
        terms.add("t.id");
        return String.join(", ", terms);
    }

    private String orderExpression(Model model, String name) {
        Field f = model.field(name);
        if (f == null || !f.isOrderable() || f.isWriteOnly()) {
            return null;
        }
        return switch (f.kind) {
            case FK -> {
                Model target = registry.require(f.target());
                String first = target.ordering().isEmpty() ? "t.id" : target.ordering().get(0);
                first = first.replaceAll("\\s+(asc|desc).*$", "");
                yield "(select " + first.replace("t.", "x.") + " from " + target.table() + " x where x.id = t." + f.column() + ")";
            }
            case COUNT -> FilterCompiler.countExpression(f);
            case COMPUTED -> name.equals("display") && model.ordering().size() > 0 ? model.ordering().get(0) : null;
            default -> f.isColumn() ? "t." + f.column() : null;
        };
    }

    // ------------------------------------------------------------------ writes

    /**
     * POST: one object or a list (bulk, all-or-nothing, answered in request order). As NetBox,
     * every item is read and validated against the stored rows before any is written; then all
     * are written set-wise (one multi-row insert, one re-read, one batch of change records), so
     * a bulk request costs a few statements per request rather than several per object.
     */
    @Transactional
    public List<Single> create(Model model, List<JsonNode> items, boolean bulk) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            reader.prefetchReferences(db, model, items);
            List<Map<String, List<String>>> allErrors = new ArrayList<>();
            List<PayloadReader.Changes> reads = new ArrayList<>();
            List<Row> valid = new ArrayList<>();
            List<Map<String, List<String>>> validErrors = new ArrayList<>();
            for (JsonNode item : items) {
                Map<String, List<String>> errors = new LinkedHashMap<>();
                PayloadReader.Changes ch = reader.read(db, model, item, null, false, errors);
                if (errors.isEmpty()) {
                    beforeWrite(model, ch.columns(), null, errors);
                }
                if (errors.isEmpty()) {
                    valid.add(ch.columns());
                    validErrors.add(errors);
                }
                reads.add(ch);
                allErrors.add(errors);
            }
            reader.validateRows(db, model, valid, java.util.Collections.nCopies(valid.size(), null), validErrors);
            if (allErrors.stream().anyMatch(e -> !e.isEmpty())) {
                throw bulk ? bulkError(allErrors) : ApiException.fields(allErrors.get(0));
            }
            List<Long> ids = insertAll(db, model, reads);
            for (int i = 0; i < ids.size(); i++) {
                runWriteHooks(db, model, ids.get(i), reads.get(i).columns(), null);
            }
            if (!access.permitsAll(db, model, ids, Access.Action.ADD)) {
                throw ApiException.forbidden();
            }
            return afterWrite(db, model, "create", java.util.Collections.nCopies(ids.size(), null), ids, items);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** PUT/PATCH of one object or of a list of {id, ...}; all-or-nothing. */
    @Transactional
    public List<Single> update(Model model, List<Long> ids, List<JsonNode> items, boolean partial, boolean bulk,
                               Function<Row, String> etagCheck) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Map<String, List<String>>> allErrors = new ArrayList<>();
            boolean failed = false;
            List<Single> out = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                long id = ids.get(i);
                Map<String, List<String>> errors = new LinkedHashMap<>();
                Row existing = loadForWrite(db, model, id, Access.Action.CHANGE, bulk);
                if (existing == null) {
                    errors.put("id", List.of("Object with id " + id + " does not exist."));
                } else {
                    if (etagCheck != null) {
                        etagCheck.apply(existing);
                    }
                    JsonNode pre = snapshot(db, model, existing);
                    PayloadReader.Changes ch = reader.read(db, model, items.get(i), existing, partial, errors);
                    if (errors.isEmpty()) {
                        beforeWrite(model, ch.columns(), existing, errors);
                    }
                    Row merged = new Row();
                    merged.putAll(existing);
                    merged.putAll(ch.columns());
                    if (errors.isEmpty()) {
                        reader.validateRow(db, model, merged, id, errors);
                    }
                    if (errors.isEmpty() && !failed) {
                        updateRow(db, model, id, ch);
                        checkWritten(db, model, id, Access.Action.CHANGE, ch.columns(), existing);
                        out.addAll(afterWrite(db, model, "update", java.util.Collections.singletonList(pre),
                                List.of(id), List.of(items.get(i))));
                    }
                }
                allErrors.add(errors);
                failed |= !errors.isEmpty();
            }
            if (failed) {
                throw bulk ? bulkError(allErrors) : ApiException.fields(allErrors.get(0));
            }
            return out;
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** DELETE of one object or a list; refused with 409 when protected objects depend on any. */
    @Transactional
    public void delete(Model model, List<Long> ids, boolean bulk, Function<Row, String> etagCheck, String message) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Map<String, List<String>>> missing = new ArrayList<>();
            boolean anyMissing = false;
            List<Row> rows = new ArrayList<>();
            for (long id : ids) {
                Row row = loadForWrite(db, model, id, Access.Action.DELETE, bulk);
                Map<String, List<String>> err = new LinkedHashMap<>();
                if (row == null) {
                    err.put("id", List.of("Object with id " + id + " does not exist."));
                    anyMissing = true;
                } else {
                    if (etagCheck != null) {
                        etagCheck.apply(row);
                    }
                    rows.add(row);
                }
                missing.add(err);
            }
            if (anyMissing) {
                throw bulkError(missing);
            }
            deleteWithCascade(db, model, rows, message);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /**
     * Deletes the requested rows and everything the delete cascades to, logging every row removed
     * or changed (NetBox logs every object a delete touches): a delete record with the pre-change
     * snapshot for each deleted row, an update record with both snapshots for each row that lost
     * a reference, dependents first, all in this request and transaction. Only the requested rows
     * need the caller's permission and carry the request's changelog message, as in NetBox.
     */
    private void deleteWithCascade(Db db, Model model, List<Row> rows, String message) {
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

        java.util.Set<Long> requested = new java.util.HashSet<>(rows.stream().map(Row::id).toList());
        List<ChangeRecord> records = new ArrayList<>(deletions.size() + updates.size());
        // Deepest first; at one depth, the rows that lost a reference before those deleted.
        List<DeleteCascade.Touched> order = new ArrayList<>(updates);
        order.addAll(deletions);
        order.sort(java.util.Comparator.comparingInt((DeleteCascade.Touched t) -> t.depth).reversed());
        for (DeleteCascade.Touched t : order) {
            if (changedRows.containsKey(t)) {
                Row after = changedRows.get(t);
                records.add(changeRecord(t.model, "update", t.row.id(), t.model.display(after), pres.get(t),
                        posts.get(t), changedData.get(t), ""));
            } else {
                boolean isRequested = t.model == model && requested.contains(t.row.id());
                records.add(changeRecord(t.model, "delete", t.row.id(), t.model.display(t.row), pres.get(t), null,
                        deletedData.get(t), isRequested ? message : ""));
            }
        }
        changes.recordAll(records);
        // Touched models were deleted from or lost references: both count as deletes for the caches.
        cascade.touchedModels().forEach(m -> invalidateCaches(m, true));
    }

    private static Map<DeleteCascade.Touched, Row> rowsAsFound(List<DeleteCascade.Touched> touched) {
        Map<DeleteCascade.Touched, Row> rows = new LinkedHashMap<>();
        touched.forEach(t -> rows.put(t, t.row));
        return rows;
    }

    /** Change-log snapshots of touched rows (their current form given): a query or two per model, not per row. */
    private Map<DeleteCascade.Touched, JsonNode> snapshotsOf(Db db, Map<DeleteCascade.Touched, Row> current) {
        Map<DeleteCascade.Touched, JsonNode> out = new java.util.HashMap<>();
        byModel(current).forEach((m, touched) -> {
            List<JsonNode> snaps = snapshots(db, m, touched.stream().map(current::get).toList());
            for (int i = 0; i < touched.size(); i++) {
                out.put(touched.get(i), snaps.get(i));
            }
        });
        return out;
    }

    /** The event data (full representation without secrets) of touched rows: a render per model. */
    private Map<DeleteCascade.Touched, ObjectNode> renderedOf(Db db, Map<DeleteCascade.Touched, Row> current) {
        Map<DeleteCascade.Touched, ObjectNode> out = new java.util.HashMap<>();
        byModel(current).forEach((m, touched) -> {
            List<ObjectNode> rendered = renderer.render(db, m, touched.stream().map(current::get).toList(),
                    Renderer.Options.full(""));
            for (int i = 0; i < touched.size(); i++) {
                out.put(touched.get(i), withoutSecrets(m, rendered.get(i)));
            }
        });
        return out;
    }

    /** The updated rows as written (a query per model). */
    private static Map<DeleteCascade.Touched, Row> reloaded(Db db, List<DeleteCascade.Touched> updates) {
        Map<DeleteCascade.Touched, Row> out = new LinkedHashMap<>();
        byModel(rowsAsFound(updates)).forEach((m, touched) -> {
            List<Row> rows = loadAll(db, m, touched.stream().map(t -> t.row.id()).toList());
            for (int i = 0; i < touched.size(); i++) {
                out.put(touched.get(i), rows.get(i));
            }
        });
        return out;
    }

    private static Map<Model, List<DeleteCascade.Touched>> byModel(Map<DeleteCascade.Touched, Row> touched) {
        Map<Model, List<DeleteCascade.Touched>> out = new LinkedHashMap<>();
        touched.keySet().forEach(t -> out.computeIfAbsent(t.model, m -> new ArrayList<>()).add(t));
        return out;
    }

    private static ApiException bulkError(List<Map<String, List<String>>> errors) {
        ArrayNode arr = NODES.arrayNode();
        errors.forEach(e -> arr.add(ApiException.errorsNode(e)));
        return new ApiException(400, arr);
    }

    /**
     * Inserts the rows and their relations; returns their ids in the order given. Rows with the
     * same columns go into one multi-row INSERT (PostgreSQL returns the ids in VALUES order, as
     * Django's bulk_create relies on too), in chunks that stay below the protocol's bind limit.
     */
    private List<Long> insertAll(Db db, Model model, List<PayloadReader.Changes> reads) {
        Long[] ids = new Long[reads.size()];
        Map<List<String>, List<Integer>> byColumns = new LinkedHashMap<>();
        for (int i = 0; i < reads.size(); i++) {
            byColumns.computeIfAbsent(new ArrayList<>(reads.get(i).columns().keySet()), k -> new ArrayList<>()).add(i);
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
            String tuple = "(" + String.join(", ", java.util.Collections.nCopies(cols.size(), "?")) + ")";
            int chunk = Math.max(1, 30_000 / cols.size());
            for (int from = 0; from < indexes.size(); from += chunk) {
                List<Integer> part = indexes.subList(from, Math.min(indexes.size(), from + chunk));
                List<Object> params = new ArrayList<>(part.size() * cols.size());
                for (int index : part) {
                    Row row = reads.get(index).columns();
                    cols.forEach(col -> params.add(row.get(col)));
                }
                String sql = head + String.join(", ", java.util.Collections.nCopies(part.size(), tuple)) + " returning id";
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

    /** Many-to-many links and tags of newly inserted rows: one multi-row INSERT per relation. */
    private void insertRelations(Db db, Model model, List<Long> ids, List<PayloadReader.Changes> reads) {
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
        String tuple = "(" + String.join(", ", java.util.Collections.nCopies(width, "?")) + ")";
        int chunk = 30_000 / width;
        for (int from = 0; from < tuples.size(); from += chunk) {
            List<Object[]> part = tuples.subList(from, Math.min(tuples.size(), from + chunk));
            List<Object> params = new ArrayList<>();
            part.forEach(t -> params.addAll(List.of(t)));
            db.update("insert into " + target + " values " + String.join(", ", java.util.Collections.nCopies(part.size(), tuple)),
                    params);
        }
    }

    private void updateRow(Db db, Model model, long id, PayloadReader.Changes ch) {
        List<String> sets = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        ch.columns().forEach((col, v) -> {
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
        writeRelations(db, model, id, ch);
    }

    private void writeRelations(Db db, Model model, long id, PayloadReader.Changes ch) {
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

    /**
     * Re-reads the written objects (one query), records their changes (one batch) and returns the
     * response forms. Secret fields appear in the response to a create (shown once), never in the
     * change record.
     */
    private List<Single> afterWrite(Db db, Model model, String action, List<JsonNode> pres, List<Long> ids,
                                    List<JsonNode> bodies) {
        List<Row> rows = loadAll(db, model, ids);
        Renderer.Options opts = Renderer.Options.full("");
        List<ObjectNode> rendered = renderer.render(db, model, rows, action.equals("create") ? opts.revealingSecrets() : opts);
        List<JsonNode> posts = snapshots(db, model, rows);
        List<ChangeRecord> records = new ArrayList<>(rows.size());
        List<Single> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            JsonNode msg = bodies.get(i).get("changelog_message");
            records.add(changeRecord(model, action, ids.get(i), model.display(row), pres.get(i), posts.get(i),
                    withoutSecrets(model, rendered.get(i)), msg == null ? "" : msg.asText()));
        }
        // Only now, with every change record holding its own copy: nested objects are shared
        // between the rendered rows, and absolutize changes them in place.
        for (int i = 0; i < rows.size(); i++) {
            ObjectNode response = rendered.get(i);
            absolutize(response, request.baseUrl());
            out.add(new Single(response, etag(rows.get(i))));
        }
        changes.recordAll(records);
        invalidateCaches(model, false);
        return out;
    }

    /** The rows with these ids, in the order of the ids. */
    private static List<Row> loadAll(Db db, Model model, List<Long> ids) {
        Map<Long, Row> byId = new java.util.HashMap<>();
        db.query(model.selectFrom() + " where t.id = any(?)", new Db.SqlArray("bigint", ids)).forEach(r -> byId.put(r.id(), r));
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

    /** A copy of a rendered object without the model's secret fields (for the change log and events). */
    private static ObjectNode withoutSecrets(Model model, ObjectNode rendered) {
        ObjectNode copy = rendered.deepCopy();
        for (Field f : model.fields()) {
            if (f.isSecret()) {
                copy.remove(f.name);
            }
        }
        return copy;
    }

    private static void beforeWrite(Model model, Row changes, Row existing, Map<String, List<String>> errors) {
        for (WriteHook hook : model.writeHooks()) {
            hook.beforeWrite(changes, existing, errors);
        }
    }

    /**
     * After a create or update: runs the model's hooks, then refuses (403, so the transaction
     * rolls back) a result the caller's permissions for the action do not cover.
     */
    private void checkWritten(Db db, Model model, long id, Access.Action action, Row changes, Row existing) {
        runWriteHooks(db, model, id, changes, existing);
        if (!access.permits(db, model, id, action)) {
            throw ApiException.forbidden();
        }
    }

    private void runWriteHooks(Db db, Model model, long id, Row changes, Row existing) {
        if (!model.writeHooks().isEmpty()) {
            Row written = load(db, model, id, false);
            for (WriteHook hook : model.writeHooks()) {
                hook.afterWrite(written, changes, existing);
            }
        }
    }

    private void invalidateCaches(Model model, boolean delete) {
        for (WriteListener listener : writeListeners) {
            listener.afterWrite(model.contentType(), delete);
        }
    }

    private void record(Model model, String action, long id, String repr, JsonNode pre, JsonNode post, JsonNode data,
                        String message) {
        changes.record(changeRecord(model, action, id, repr, pre, post, data, message));
    }

    private ChangeRecord changeRecord(Model model, String action, long id, String repr, JsonNode pre, JsonNode post,
                                      JsonNode data, String message) {
        if (message != null && message.length() > 200) {
            throw ApiException.field("changelog_message", "Ensure this field has no more than 200 characters.");
        }
        RequestContext.Caller caller = request.caller();
        return new ChangeRecord(caller == null ? null : caller.userId(), caller == null ? "" : caller.username(),
                request.requestId(), ChangeAction.valueOf(action.toUpperCase(java.util.Locale.ROOT)), model.contentType(),
                id, repr, message, pre, post, data, null, null);
    }

    /** Prefixes relative "url"/"display_url" values with the request's base URL, in place. */
    public static void absolutize(JsonNode node, String baseUrl) {
        if (baseUrl.isEmpty()) {
            return;
        }
        if (node instanceof ObjectNode obj) {
            Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if ((e.getKey().equals("url") || e.getKey().equals("display_url")) && v.isTextual()
                        && v.asText().startsWith("/")) {
                    e.setValue(NODES.textNode(baseUrl + v.asText()));
                } else if (v.isContainerNode() && !e.getKey().equals("custom_fields") && !e.getKey().equals("config_context")
                        && !e.getKey().equals("local_context_data")) {
                    absolutize(v, baseUrl);
                }
            }
        } else if (node instanceof ArrayNode arr) {
            arr.forEach(n -> absolutize(n, baseUrl));
        }
    }

    /** NetBox's change-log snapshot: raw column values, FK ids, sorted tag names, no id/last_updated. */
    JsonNode snapshot(Db db, Model model, Row row) {
        return snapshots(db, model, List.of(row)).get(0);
    }

    /** Snapshots of several rows; tags and many-to-many ids are read with one query each for all. */
    List<JsonNode> snapshots(Db db, Model model, List<Row> rows) {
        List<Long> ids = rows.stream().map(Row::id).toList();
        Map<String, Map<Long, ArrayNode>> lists = new java.util.HashMap<>();
        for (Field f : model.fields()) {
            if (f.kind == Kind.TAGS) {
                Map<Long, ArrayNode> names = lists.computeIfAbsent(f.name, k -> new java.util.HashMap<>());
                db.query("select ti.object_id as object_id, g.name from extras_taggeditem ti join extras_tag g on g.id = ti.tag_id"
                                + " where ti.object_type = ? and ti.object_id = any(?) order by g.name", model.contentType(),
                                new Db.SqlArray("bigint", ids))
                        .forEach(r -> names.computeIfAbsent(r.longValue("object_id"), k -> NODES.arrayNode()).add(r.str("name")));
            } else if (f.kind == Kind.M2M) {
                Map<Long, ArrayNode> targets = lists.computeIfAbsent(f.name, k -> new java.util.HashMap<>());
                db.query("select " + f.joinOwnColumn() + " as own, " + f.joinTargetColumn() + " as v from " + f.joinTable()
                                + " where " + f.joinOwnColumn() + " = any(?) order by 2", new Db.SqlArray("bigint", ids))
                        .forEach(r -> targets.computeIfAbsent(r.longValue("own"), k -> NODES.arrayNode()).add(r.longValue("v")));
            }
        }
        List<JsonNode> out = new ArrayList<>(rows.size());
        for (Row row : rows) {
            out.add(snapshot(model, row, lists));
        }
        return out;
    }

    private static JsonNode snapshot(Model model, Row row, Map<String, Map<Long, ArrayNode>> lists) {
        ObjectNode snap = NODES.objectNode();
        for (Field f : model.fields()) {
            if (!f.name.equals("id") && !f.name.equals("last_updated")) {
                FieldTypes.of(f).snapshot(f, row, snap, linked -> lists.get(linked.name).get(row.id()));
            }
        }
        return snap;
    }

    Row load(Db db, Model model, long id, boolean forUpdate) {
        Row row = loadOrNull(db, model, id, forUpdate);
        if (row == null) {
            throw notFound(model);
        }
        return row;
    }

    private static ApiException notFound(Model model) {
        return ApiException.detail(404, "No " + model.titleName().replace(" ", "") + " matches the given query.");
    }

    /**
     * The locked row a write acts on, when it exists and the caller's permission for the action
     * covers it. Otherwise null in bulk mode (reported per item), else a 404 as NetBox answers
     * for objects outside the user's restricted queryset.
     */
    private Row loadForWrite(Db db, Model model, long id, Access.Action action, boolean bulk) {
        Row row = loadOrNull(db, model, id, true);
        if (row != null && !access.permits(db, model, id, action)) {
            row = null;
        }
        if (row == null && !bulk) {
            throw notFound(model);
        }
        return row;
    }

    private Row loadOrNull(Db db, Model model, long id, boolean forUpdate) {
        if (forUpdate) {
            // Lock first (no computed columns allowed with FOR UPDATE on some expressions), then read.
            if (db.query("select id from " + model.table() + " where id = ? for update", id).isEmpty()) {
                return null;
            }
        }
        List<Row> rows = db.query(model.selectFrom() + " where t.id = ?", id);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** NetBox 4.6's weak ETag: the isoformat of last_updated (or created). */
    public static String etag(Row row) {
        Object t = row.get("last_updated");
        if (t == null) {
            t = row.get("created");
        }
        if (!(t instanceof OffsetDateTime odt)) {
            return null;
        }
        return "W/\"" + ETAG_TIME.format(odt.withOffsetSameInstant(ZoneOffset.UTC)) + "\"";
    }

    /** Ids sorted for a stable lock order (avoids deadlocks between concurrent bulk writes). */
    public static Set<Long> sorted(List<Long> ids) {
        return new TreeSet<>(ids);
    }
}
