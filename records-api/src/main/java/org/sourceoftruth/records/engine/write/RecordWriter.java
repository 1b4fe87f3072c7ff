package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.changelog.ChangeLogWriter;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.store.RowChanges;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.engine.store.RowStore;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;
import org.sourceoftruth.records.web.ApiException;

/**
 * Creates, updates and deletes objects of any declared model, single and bulk: reads and
 * validates the request, runs the model's hooks, writes, checks the result against the caller's
 * permissions, records the changes and answers with the objects as written. Every write runs in
 * one transaction with its change-log rows; any error rolls the whole request back.
 */
@ApplicationScoped
public class RecordWriter {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    PayloadReader reader;

    @Inject
    ModelRegistry registry;

    @Inject
    ReferenceResolver references;

    @Inject
    RowValidator validator;

    @Inject
    WrittenObjects writtenObjects;

    @Inject
    ComponentInstantiation components;

    @Inject
    ChangeLogWriter changes;

    @Inject
    CacheInvalidators caches;

    @Inject
    CascadingDelete cascadingDelete;

    @Inject
    Access access;

    @Inject
    UniqueIndexes uniqueIndexes;

    @Inject
    WriteHeap heap;

    /**
     * POST: one object or a list (bulk, all-or-nothing, answered in request order). As NetBox,
     * every item is read and validated against the stored rows before any is written; then all
     * are written set-wise (one multi-row insert, one re-read, one batch of change records), so
     * a bulk request costs a few statements per request rather than several per object.
     */
    @Transactional
    public List<RenderedObject> create(Model model, List<JsonNode> items, boolean bulk) {
        List<Row> attempted = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            references.prefetchReferences(db, model, items);
            List<Map<String, List<String>>> allErrors = new ArrayList<>();
            List<RowChanges> reads = new ArrayList<>();
            List<Row> valid = new ArrayList<>();
            List<Map<String, List<String>>> validErrors = new ArrayList<>();
            for (JsonNode item : items) {
                heap.holding(item);
                Map<String, List<String>> errors = new LinkedHashMap<>();
                RowChanges ch = reader.read(db, model, item, null, false, errors);
                if (errors.isEmpty()) {
                    WriteHooks.beforeWrite(model, ch.columns(), null, errors);
                }
                if (errors.isEmpty()) {
                    valid.add(ch.columns());
                    validErrors.add(errors);
                }
                reads.add(ch);
                allErrors.add(errors);
            }
            validator.validateNewRows(db, model, valid, validErrors);
            if (allErrors.stream().anyMatch(e -> !e.isEmpty())) {
                throw bulk ? bulkError(allErrors) : ApiException.fields(allErrors.get(0));
            }
            if (model.hasImageFields()) {
                reads.forEach(read -> ImageUploads.store(db, model, read.columns(), null));
            }
            List<Row> columns = reads.stream().map(RowChanges::columns).toList();
            attempted.addAll(columns);
            List<Long> ids = RowStore.insertAll(db, model, reads);
            List<WriteHook.FollowUp> followUps = new ArrayList<>(WriteHooks.afterInsert(db, model, ids, columns));
            if (!access.permitsAll(db, model, ids, Access.Action.ADD)) {
                throw ApiException.forbidden();
            }
            // the components its type's templates make (a device's, a module's): written now,
            // recorded after the objects themselves, as NetBox's save() logs them
            List<ChangeRecord> related = components.instantiate(db, model, ids, items);
            WrittenObjects.Written written = afterWrite(
                    db, model, ChangeAction.CREATE, Collections.nCopies(ids.size(), null), ids, items, related);
            List<RenderedObject> out = written.responses();
            followUps.addAll(WriteHooks.afterCreate(db, model, written.rows(), columns));
            if (followUps.isEmpty()) {
                return out;
            }
            run(followUps);
            // the written objects' response forms once their follow-ups changed what they show
            return writtenObjects.reread(db, model, ids);
        } catch (Db.DbException e) {
            throw UniqueViolation.of(e, uniqueIndexes, model, attempted, bulk);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** PUT/PATCH of one object or of a list of {id, ...}; all-or-nothing. */
    @Transactional
    public List<RenderedObject> update(
            Model model,
            List<Long> ids,
            List<JsonNode> items,
            boolean partial,
            boolean bulk,
            Function<Row, String> etagCheck) {
        List<Row> attempted = new ArrayList<>(Collections.nCopies(items.size(), null));
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Map<String, List<String>>> allErrors = new ArrayList<>();
            boolean failed = false;
            List<RenderedObject> out = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                long id = ids.get(i);
                Map<String, List<String>> errors = new LinkedHashMap<>();
                ChangeSnapshots.Locked locked = heap.lock(db, model, id);
                heap.holding(items.get(i));
                Row existing =
                        permitted(db, model, id, locked == null ? null : locked.row(), Access.Action.CHANGE, bulk);
                if (existing == null) {
                    errors.put("id", List.of("Object with id " + id + " does not exist."));
                } else {
                    if (etagCheck != null) {
                        etagCheck.apply(existing);
                    }
                    JsonNode pre = locked.before();
                    RowChanges ch = reader.read(db, model, items.get(i), existing, partial, errors);
                    if (errors.isEmpty()) {
                        WriteHooks.beforeWrite(model, ch.columns(), existing, errors);
                    }
                    Row merged = new Row();
                    merged.putAll(existing);
                    merged.putAll(ch.columns());
                    if (errors.isEmpty()) {
                        validator.validateUpdate(db, model, existing, ch.columns(), merged, id, errors);
                    }
                    if (errors.isEmpty() && !failed) {
                        ImageUploads.store(db, model, ch.columns(), existing);
                        attempted.set(i, merged);
                        RowStore.update(db, model, id, ch);
                        WriteHooks.Stored stored = WriteHooks.afterWrite(db, model, id, ch.columns(), existing);
                        if (!access.permits(db, model, id, Access.Action.CHANGE)) {
                            throw ApiException.forbidden();
                        }
                        List<RenderedObject> written = afterWrite(
                                        db,
                                        model,
                                        ChangeAction.UPDATE,
                                        Collections.singletonList(pre),
                                        List.of(id),
                                        List.of(items.get(i)),
                                        List.of())
                                .responses();
                        List<WriteHook.FollowUp> followUps = new ArrayList<>(stored.followUps());
                        followUps.addAll(WriteHooks.afterSave(db, model, stored.row(), ch.columns(), existing));
                        if (!followUps.isEmpty()) {
                            run(followUps);
                            written = writtenObjects.reread(db, model, List.of(id));
                        }
                        out.addAll(written);
                    }
                }
                allErrors.add(errors);
                failed |= !errors.isEmpty();
            }
            if (failed) {
                throw bulk ? bulkError(allErrors) : ApiException.fields(allErrors.get(0));
            }
            return out;
        } catch (Db.DbException e) {
            throw UniqueViolation.of(e, uniqueIndexes, model, attempted, bulk);
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
                Row row = permitted(db, model, id, heap.loadLocked(db, model, id), Access.Action.DELETE, bulk);
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
            run(cascadingDelete.delete(db, model, rows, message));
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /**
     * What a {@link #delete} of these objects would do, found as the delete finds it
     * ({@link DeletePlan}) but read only, nothing locked or written: the objects it would delete
     * with them, those that would lose a reference, those that protect them (the DELETE's 409).
     * Ids that do not exist or lie outside the caller's delete permission are left out, as the
     * delete refuses them.
     */
    public DeletePreview previewDelete(Model model, List<Long> ids, int names) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Row> rows = new ArrayList<>();
            java.util.Set<Long> requested = new java.util.HashSet<>();
            for (Row row : db.query(Db.byIds(model.selectFrom(), ids))) {
                if (access.permits(db, model, row.id(), Access.Action.DELETE)) {
                    rows.add(row);
                    requested.add(row.id());
                }
            }
            if (rows.isEmpty()) {
                return DeletePreview.NOTHING;
            }
            return DeletePreview.of(DeletePlan.preview(db, registry, model, rows), model, requested, names);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /**
     * Writes that hooks asked for (see {@link WriteHook#afterSave}), each through this writer in
     * the same transaction (and, through it, the same connection) as the write that asked.
     */
    private void run(List<WriteHook.FollowUp> followUps) {
        for (WriteHook.FollowUp f : followUps) {
            Model target = registry.require(f.contentType());
            JsonNode body = org.sourceoftruth.model.Json.MAPPER.valueToTree(f.changes());
            switch (f.action()) {
                case CREATE -> create(target, List.of(body), false);
                case PATCH -> update(target, List.of(f.id()), List.of(body), true, false, null);
                case DELETE -> delete(target, List.of(f.id()), false, null, "");
            }
        }
    }

    /**
     * Renders the written objects and records their changes, then those of the related writes;
     * returns the objects as written, whose response forms are to be taken from now on.
     */
    private WrittenObjects.Written afterWrite(
            Db db,
            Model model,
            ChangeAction action,
            List<JsonNode> pres,
            List<Long> ids,
            List<JsonNode> bodies,
            List<ChangeRecord> related) {
        WrittenObjects.Written written = writtenObjects.of(db, model, action, pres, ids, bodies);
        List<ChangeRecord> records = written.records();
        if (!related.isEmpty()) {
            records = new ArrayList<>(records);
            records.addAll(related);
        }
        changes.recordAll(records);
        caches.changed(model, false);
        return written;
    }

    /**
     * The locked row a write acts on ({@code row}, null when absent), when the caller's
     * permission for the action covers it. Otherwise null in bulk mode (reported per item), else
     * a 404 as NetBox answers for objects outside the user's restricted queryset.
     */
    private Row permitted(Db db, Model model, long id, Row row, Access.Action action, boolean bulk) {
        if (row != null && !access.permits(db, model, id, action)) {
            row = null;
        }
        if (row == null && !bulk) {
            throw RowLoader.notFound(model);
        }
        return row;
    }

    /** Errors of a bulk request: a list aligned with its items, {} for those without. */
    private static ApiException bulkError(List<Map<String, List<String>>> errors) {
        ArrayNode arr = NODES.arrayNode();
        errors.forEach(e -> arr.add(ApiException.errorsNode(e)));
        return new ApiException(400, arr);
    }
}
