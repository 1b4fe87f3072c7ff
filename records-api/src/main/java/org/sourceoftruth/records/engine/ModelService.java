package org.sourceoftruth.records.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.query.DetailQuery;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.write.DeletePreview;
import org.sourceoftruth.records.engine.write.RecordWriter;
import org.sourceoftruth.records.engine.write.UniqueViolation;
import org.sourceoftruth.records.engine.write.WriteHeap;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * The generic engine's operations over any declared model, as resources and applications call
 * them: list and get ({@link ListQuery}, {@link DetailQuery}), create, update and delete, single
 * and bulk ({@link RecordWriter}). Every operation is limited to the objects the caller's
 * permissions cover for its action ({@link Access#restriction}): others are not found, and a
 * write whose result falls outside them is refused with a 403 (and rolled back). Writes of large
 * objects take their heap from the budget ({@link WriteHeap}).
 */
@ApplicationScoped
public class ModelService {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Inject
    ListQuery listQuery;

    @Inject
    DetailQuery detailQuery;

    @Inject
    RecordWriter writer;

    @Inject
    WriteHeap heap;

    public ListQuery.Page list(
            Model model, Map<String, List<String>> query, Renderer.Options opts, ListQuery.PageRequest page) {
        return listQuery.list(model, query, opts, page);
    }

    /** The object rendered now (for callers that work with it). */
    public RenderedObject get(Model model, long id, Renderer.Options opts) {
        return detailQuery.get(model, id, opts);
    }

    /**
     * Times a write is run when a concurrent request stored the same unique key between its
     * check and its write; the second run's check sees the other row and answers as for any
     * duplicate, so a third is needed only if that row was deleted meanwhile and another came.
     */
    private static final int UNIQUE_RACE_ATTEMPTS = 3;

    private static final String UNIQUE_VIOLATION = "23505";

    /** The object for a response: large values are read when it is written ({@link DetailQuery}). */
    public DetailQuery.Detail read(Model model, long id, Renderer.Options opts) {
        return detailQuery.read(model, id, opts);
    }

    /** POST of one object or a list (bulk, all-or-nothing); see {@link RecordWriter#create}. */
    public List<RenderedObject> create(Model model, List<JsonNode> items, boolean bulk) {
        return heap.run(() -> rerunAfterUniqueRace(() -> writer.create(model, items, bulk)));
    }

    /** PUT/PATCH of one object or of a list of {id, ...}; all-or-nothing. */
    public List<RenderedObject> update(
            Model model,
            List<Long> ids,
            List<JsonNode> items,
            boolean partial,
            boolean bulk,
            Function<Row, String> etagCheck) {
        return heap.run(() -> rerunAfterUniqueRace(() -> writer.update(model, ids, items, partial, bulk, etagCheck)));
    }

    /** DELETE of one object or a list; refused with 409 when protected objects depend on any. */
    public void delete(Model model, List<Long> ids, boolean bulk, Function<Row, String> etagCheck, String message) {
        heap.run(() -> {
            writer.delete(model, ids, bulk, etagCheck, message);
            return null;
        });
    }

    /**
     * What {@link #delete} would remove with these objects and what protects them, read without
     * writing (a confirmation page's list); {@code names} objects of each model are named.
     */
    public DeletePreview previewDelete(Model model, List<Long> ids, int names) {
        return writer.previewDelete(model, ids, names);
    }

    /**
     * Runs a write, again when a unique index refused it ({@link UniqueViolation}, or a
     * violation of an index behind a model's own check: its transaction was rolled back,
     * nothing of it is stored). The request is then answered by its
     * own check, which now sees the row the other request committed: the same 400 as for any
     * duplicate. A write that is part of a caller's transaction cannot be run again on its own;
     * the violation is answered as it is.
     */
    private static <T> T rerunAfterUniqueRace(Supplier<T> write) {
        if (QuarkusTransaction.isActive()) {
            return write.get();
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return write.get();
            } catch (UniqueViolation e) {
                if (attempt == UNIQUE_RACE_ATTEMPTS) {
                    throw e;
                }
            } catch (Db.DbException e) {
                // an index behind a model's own check rather than a declared rule (a v1 token's
                // key digest): the check, run again, answers it the same way
                if (!UNIQUE_VIOLATION.equals(e.sqlState()) || attempt == UNIQUE_RACE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
