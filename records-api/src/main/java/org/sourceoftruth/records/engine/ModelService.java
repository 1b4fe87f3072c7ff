package org.sourceoftruth.records.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.query.DetailQuery;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.write.RecordWriter;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * The generic engine's operations over any declared model, as resources and applications call
 * them: list and get ({@link ListQuery}, {@link DetailQuery}), create, update and delete, single
 * and bulk ({@link RecordWriter}). Every operation is limited to the objects the caller's
 * permissions cover for its action ({@link Access#restriction}): others are not found, and a
 * write whose result falls outside them is refused with a 403 (and rolled back).
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

    public ListQuery.Page list(
            Model model, Map<String, List<String>> query, Renderer.Options opts, ListQuery.PageRequest page) {
        return listQuery.list(model, query, opts, page);
    }

    public RenderedObject get(Model model, long id, Renderer.Options opts) {
        return detailQuery.get(model, id, opts);
    }

    /** POST of one object or a list (bulk, all-or-nothing); see {@link RecordWriter#create}. */
    public List<RenderedObject> create(Model model, List<JsonNode> items, boolean bulk) {
        return writer.create(model, items, bulk);
    }

    /** PUT/PATCH of one object or of a list of {id, ...}; all-or-nothing. */
    public List<RenderedObject> update(
            Model model,
            List<Long> ids,
            List<JsonNode> items,
            boolean partial,
            boolean bulk,
            Function<Row, String> etagCheck) {
        return writer.update(model, ids, items, partial, bulk, etagCheck);
    }

    /** DELETE of one object or a list; refused with 409 when protected objects depend on any. */
    public void delete(Model model, List<Long> ids, boolean bulk, Function<Row, String> etagCheck, String message) {
        writer.delete(model, ids, bulk, etagCheck, message);
    }
}
