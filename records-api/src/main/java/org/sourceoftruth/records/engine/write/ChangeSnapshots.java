package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.fieldtype.FieldTypes;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/** NetBox's change-log snapshots of rows, which the writers record before and after a change. */
public final class ChangeSnapshots {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ChangeSnapshots() {}

    /**
     * NetBox's change-log snapshot: raw column values, FK ids, sorted tag names, no id/last_updated,
     * no sensitive fields.
     */
    public static JsonNode of(Db db, Model model, Row row) {
        return of(db, model, List.of(row)).get(0);
    }

    /** Snapshots of several rows; tags and many-to-many ids are read with one query each for all, in one round trip. */
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
        Map<String, Map<Long, ArrayNode>> lists = new HashMap<>();
        List<Field> toRead = new ArrayList<>();
        for (Field f : listFields(model)) {
            boolean fromRendered = rendered != null
                    && (f.kind == Kind.M2M || !f.isTagSlugs())
                    && rendered.stream().allMatch(node -> node.path(f.name).isArray());
            if (fromRendered) {
                lists.put(f.name, fromRendered(f, rows, rendered));
            } else {
                toRead.add(f);
            }
        }
        if (!toRead.isEmpty()) {
            List<List<Row>> results = db.queryAll(
                    toRead.stream().map(f -> listSelect(model, f, ids)).toList());
            lists.putAll(lists(toRead, results));
        }
        Map<String, Map<Long, JsonNode>> loaded = new HashMap<>();
        for (Field f : snapshottedFields(model)) {
            if (rendered != null) {
                Map<Long, JsonNode> values = new HashMap<>();
                for (int i = 0; i < rows.size(); i++) {
                    JsonNode v = rendered.get(i).get(f.name);
                    values.put(rows.get(i).id(), v == null ? null : v.deepCopy());
                }
                loaded.put(f.name, values);
            } else {
                loaded.put(f.name, load(db, f, rows));
            }
        }
        List<JsonNode> out = new ArrayList<>(rows.size());
        for (Row row : rows) {
            out.add(snapshot(model, row, lists, loaded));
        }
        return out;
    }

    /** A stored row locked for a change, and its change-log snapshot before the change. */
    public record Locked(Row row, JsonNode before) {}

    /**
     * Locks and reads the row with this id and reads its tags and many-to-many targets, all in
     * one round trip (null when there is no such row). The statements run in order on the server,
     * so the lists are read under the row's lock.
     */
    public static Locked lock(Db db, Model model, long id) {
        return lock(db, model, id, model.selectFrom());
    }

    /**
     * As {@link #lock(Db, Model, long)}, reading the row with {@code select} (the model's select,
     * or one that leaves its large values out: {@link org.sourceoftruth.records.engine.store.LargeValues}).
     */
    public static Locked lock(Db db, Model model, long id, String select) {
        List<Field> listed = listFields(model);
        List<Db.Select> selects = new ArrayList<>();
        selects.add(new Db.Select(select + " where t.id = ? for update of t", List.of(id)));
        listed.forEach(f -> selects.add(listSelect(model, f, List.of(id))));
        List<List<Row>> results = db.queryAll(selects);
        if (results.get(0).isEmpty()) {
            return null;
        }
        Row row = results.get(0).get(0);
        Map<String, Map<Long, JsonNode>> loaded = new HashMap<>();
        for (Field f : snapshottedFields(model)) {
            loaded.put(f.name, load(db, f, List.of(row)));
        }
        return new Locked(row, snapshot(model, row, lists(listed, results.subList(1, results.size())), loaded));
    }

    /** The request-only fields the snapshots show ({@link Field#snapshotted()}). */
    private static List<Field> snapshottedFields(Model model) {
        List<Field> out = new ArrayList<>();
        for (Field f : model.fields()) {
            if (f.isSnapshotted()) {
                out.add(f);
            }
        }
        return out;
    }

    /** A snapshotted field's values for these rows, as its loader gives them. */
    private static Map<Long, JsonNode> load(Db db, Field f, List<Row> rows) {
        Map<Long, JsonNode> out = new HashMap<>();
        f.loader().load(db, rows).forEach((id, v) -> out.put(id, org.sourceoftruth.model.Json.MAPPER.valueToTree(v)));
        return out;
    }

    /** The fields whose snapshot is a list read from another table: tags and many-to-many targets. */
    private static List<Field> listFields(Model model) {
        List<Field> out = new ArrayList<>();
        for (Field f : model.fields()) {
            if (f.kind == Kind.TAGS || f.kind == Kind.M2M) {
                out.add(f);
            }
        }
        return out;
    }

    /** The query of a list field's values for these rows: (object_id, v), in snapshot order. */
    private static Db.Select listSelect(Model model, Field f, List<Long> ids) {
        if (f.kind == Kind.TAGS) {
            // Code-point order (COLLATE "C"), as NetBox's sorted() and fromRendered's sort give.
            return new Db.Select(
                    "select ti.object_id, g.name as v from " + SystemTables.EXTRAS_TAGGEDITEM + " ti join "
                            + SystemTables.EXTRAS_TAG + " g"
                            + " on g.id = ti.tag_id where ti.object_type = ? and ti.object_id = any(?) order by g.name collate \"C\"",
                    List.of(model.contentType(), new Db.SqlArray("bigint", ids)));
        }
        return new Db.Select(
                "select " + f.joinOwnColumn() + " as object_id, " + f.joinTargetColumn() + " as v from " + f.joinTable()
                        + " where " + f.joinOwnColumn() + " = any(?) order by 2",
                List.of(new Db.SqlArray("bigint", ids)));
    }

    /** Per list field, per row id, the values its query read. */
    private static Map<String, Map<Long, ArrayNode>> lists(List<Field> fields, List<List<Row>> results) {
        Map<String, Map<Long, ArrayNode>> lists = new HashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            Map<Long, ArrayNode> values = lists.computeIfAbsent(f.name, k -> new HashMap<>());
            results.get(i).forEach(r -> {
                ArrayNode list = values.computeIfAbsent(r.longValue("object_id"), k -> NODES.arrayNode());
                if (f.kind == Kind.TAGS) {
                    list.add(r.str("v"));
                } else {
                    list.add(r.longValue("v"));
                }
            });
        }
        return lists;
    }

    /** Sorted tag names or sorted target ids per row, out of the rows' rendered objects. */
    private static Map<Long, ArrayNode> fromRendered(Field f, List<Row> rows, List<ObjectNode> rendered) {
        Map<Long, ArrayNode> byRow = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            JsonNode listed = rendered.get(i).get(f.name);
            if (listed.isEmpty()) {
                continue; // most rows: no tags, no targets (a missing row snapshots as [])
            }
            ArrayNode out = NODES.arrayNode();
            List<JsonNode> items = new ArrayList<>(listed.size());
            listed.forEach(items::add);
            if (f.kind == Kind.TAGS) {
                items.stream().map(tag -> tag.path("name").asText()).sorted().forEach(out::add);
            } else {
                items.stream()
                        .mapToLong(target -> target.isNumber()
                                ? target.asLong()
                                : target.path("id").asLong())
                        .sorted()
                        .forEach(out::add);
            }
            byRow.put(rows.get(i).id(), out);
        }
        return byRow;
    }

    /** A row's snapshot; {@link Field#isSensitive() sensitive} fields are left out (docs/secrets.md). */
    private static JsonNode snapshot(
            Model model, Row row, Map<String, Map<Long, ArrayNode>> lists, Map<String, Map<Long, JsonNode>> loaded) {
        ObjectNode snap = NODES.objectNode();
        for (Field f : model.fields()) {
            if (f.isSensitive()) {
                continue;
            }
            if (f.isSnapshotted()) {
                JsonNode v = loaded.get(f.name).get(row.id());
                snap.set(f.name, v == null ? NODES.nullNode() : v);
            } else if (!f.name.equals("id") && !f.name.equals("last_updated") && !f.isRequestOnly()) {
                FieldTypes.of(f)
                        .snapshot(f, row, snap, linked -> lists.get(linked.name).get(row.id()));
            }
        }
        return snap;
    }
}
