package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.kind.FieldTypes;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** NetBox's change-log snapshots of rows, which the writers record before and after a change. */
public final class ChangeSnapshots {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ChangeSnapshots() {
    }

    /** NetBox's change-log snapshot: raw column values, FK ids, sorted tag names, no id/last_updated. */
    public static JsonNode of(Db db, Model model, Row row) {
        return of(db, model, List.of(row)).get(0);
    }

    /** Snapshots of several rows; tags and many-to-many ids are read with one query each for all. */
    public static List<JsonNode> of(Db db, Model model, List<Row> rows) {
        return of(db, model, rows, null);
    }

    /**
     * Snapshots of rows just rendered in full ({@code rendered}, in the order of the rows): their
     * tags and many-to-many targets are taken from the rendered objects instead of being read
     * again (two statements less per written object with tags and one many-to-many field).
     */
    public static List<JsonNode> of(Db db, Model model, List<Row> rows, List<ObjectNode> rendered) {
        List<Long> ids = rows.stream().map(Row::id).toList();
        Map<String, Map<Long, ArrayNode>> lists = new java.util.HashMap<>();
        for (Field f : model.fields()) {
            boolean fromRendered = rendered != null && (f.kind == Kind.M2M || (f.kind == Kind.TAGS && !f.isTagSlugs()))
                    && rendered.stream().allMatch(node -> node.path(f.name).isArray());
            if (fromRendered) {
                lists.put(f.name, fromRendered(f, rows, rendered));
            } else if (f.kind == Kind.TAGS) {
                Map<Long, ArrayNode> names = lists.computeIfAbsent(f.name, k -> new java.util.HashMap<>());
                // Code-point order (COLLATE "C"), as NetBox's sorted() and fromRendered's sort give.
                db.query("select ti.object_id as object_id, g.name from extras_taggeditem ti join extras_tag g on g.id = ti.tag_id"
                                + " where ti.object_type = ? and ti.object_id = any(?) order by g.name collate \"C\"", model.contentType(),
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

    /** Sorted tag names or sorted target ids per row, out of the rows' rendered objects. */
    private static Map<Long, ArrayNode> fromRendered(Field f, List<Row> rows, List<ObjectNode> rendered) {
        Map<Long, ArrayNode> byRow = new java.util.HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            ArrayNode out = NODES.arrayNode();
            List<JsonNode> items = new ArrayList<>();
            rendered.get(i).get(f.name).forEach(items::add);
            if (f.kind == Kind.TAGS) {
                items.stream().map(tag -> tag.path("name").asText()).sorted().forEach(out::add);
            } else {
                items.stream().mapToLong(target -> target.isNumber() ? target.asLong() : target.path("id").asLong())
                        .sorted().forEach(out::add);
            }
            if (!out.isEmpty()) {
                byRow.put(rows.get(i).id(), out);
            }
        }
        return byRow;
    }

    private static JsonNode snapshot(Model model, Row row, Map<String, Map<Long, ArrayNode>> lists) {
        ObjectNode snap = NODES.objectNode();
        for (Field f : model.fields()) {
            if (!f.name.equals("id") && !f.name.equals("last_updated") && !f.isRequestOnly()) {
                FieldTypes.of(f).snapshot(f, row, snap, linked -> lists.get(linked.name).get(row.id()));
            }
        }
        return snap;
    }
}
