package org.sourceoftruth.records.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.api.query.DetailQuery;
import org.sourceoftruth.records.api.query.ListQuery;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.changelog.ChangeRecorder;
import io.quarkus.arc.All;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.kind.FieldTypes;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The generic engine's operations over any declared model, as resources and applications call
 * them: list and get ({@link ListQuery}, {@link DetailQuery}), create, update and delete, single
 * and bulk ({@link RecordWriter}). Every operation is limited to the objects the caller's
 * permissions cover for its action ({@link Access#restriction}): others are not found, and a
 * write whose result falls outside them is refused with a 403 (and rolled back).
 *
 * <p>Also NetBox's change-log snapshots of rows, which the writers record before and after a
 * change.
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

    /** A rendered object with its ETag. */
    public record Single(ObjectNode node, String etag) {
    }

    public ListQuery.Page list(Model model, Map<String, List<String>> query, Renderer.Options opts,
                               ListQuery.PageRequest page) {
        return listQuery.list(model, query, opts, page);
    }

    public Single get(Model model, long id, Renderer.Options opts) {
        return detailQuery.get(model, id, opts);
    }

    /** POST of one object or a list (bulk, all-or-nothing); see {@link RecordWriter#create}. */
    public List<Single> create(Model model, List<JsonNode> items, boolean bulk) {
        return writer.create(model, items, bulk);
    }

    /** PUT/PATCH of one object or of a list of {id, ...}; all-or-nothing. */
    public List<Single> update(Model model, List<Long> ids, List<JsonNode> items, boolean partial, boolean bulk,
                               Function<Row, String> etagCheck) {
        return writer.update(model, ids, items, partial, bulk, etagCheck);
    }

    /** DELETE of one object or a list; refused with 409 when protected objects depend on any. */
    public void delete(Model model, List<Long> ids, boolean bulk, Function<Row, String> etagCheck, String message) {
        writer.delete(model, ids, bulk, etagCheck, message);
    }

    // ------------------------------------------------------------------ change-log snapshots

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
}
