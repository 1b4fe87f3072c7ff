package org.sourceoftruth.records.api;

import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.db.Db;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.kind.FieldTypes;
import org.sourceoftruth.records.kind.InvalidValue;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON object of a write request into column values, following DRF/NetBox rules:
 * required fields, types, lengths, ranges, choice values, slugs, relations given by id or by
 * an attribute dict that must match exactly one object, many-to-many ids, tags, custom fields,
 * then uniqueness and model rules. All problems are collected as {field: [messages]}.
 */
@ApplicationScoped
public class PayloadReader {
    @Inject
    ModelRegistry registry;
    @Inject
    CustomFields customFields;
    @Inject
    Access access;

    /** What a request wants written. {@code tags}/{@code m2m} entries are present only when sent. */
    public record Changes(Row columns, Map<Field, List<Long>> m2m, List<Long> tags) {
    }

    /**
     * @param existing the stored row on update (locked), null on create
     * @param partial  PATCH semantics: absent required fields are fine
     */
    public Changes read(Db db, Model model, JsonNode body, Row existing, boolean partial,
                        Map<String, List<String>> errors) {
        Row cols = new Row();
        Map<Field, List<Long>> m2m = new LinkedHashMap<>();
        List<Long> tags = null;
        if (!body.isObject()) {
            errors.computeIfAbsent("non_field_errors", k -> new ArrayList<>())
                    .add("Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(body) + ".");
            return new Changes(cols, m2m, null);
        }
        boolean create = existing == null;
        for (Field f : model.fields()) {
            if (!f.isWritable()) {
                continue;
            }
            if (f.kind == Kind.GENERIC_FK) {
                readGeneric(db, f, body, existing, create || !partial, cols, errors);
                continue;
            }
            JsonNode v = value(body, f);
            if (v == null) {
                if (f.isRequired() && (create || !partial)) {
                    add(errors, f.name, "This field is required.");
                } else if (create && f.isColumn() && f.kind != Kind.CUSTOM_FIELDS) {
                    JsonNode d = f.defaultValue();
                    cols.put(f.column(), d == null || d.isNull() ? null : convertDefault(f, d));
                }
                if (create && f.kind == Kind.CUSTOM_FIELDS) {
                    cols.put(f.column(), customFields.merge(model, null, null, true, errors));
                }
                continue;
            }
            try {
                switch (f.kind) {
                    case M2M -> m2m.put(f, readM2m(db, f, v));
                    case TAGS -> tags = readTags(db, f, v);
                    case CUSTOM_FIELDS -> cols.put(f.column(), customFields.merge(model, v,
                            existing == null ? null : (JsonNode) existing.get(f.column()), create, errors));
                    case FK -> cols.put(f.column(), v.isNull() ? nullOrError(f) : resolve(db, registry.require(f.target()), v));
                    default -> cols.put(f.column(), v.isNull() ? nullOrError(f) : transform(f, convert(f, v)));
                }
            } catch (FieldError e) {
                add(errors, f.name, e.getMessage());
            }
        }
        return new Changes(cols, m2m, tags);
    }

    /**
     * Looks up, in one query per related table, the objects that the items of a write request
     * refer to by numeric id (foreign keys and content-type/id pairs), so that reading the items
     * then costs no query per reference. Ids not found are left to {@link #read} to report.
     */
    public void prefetchReferences(Db db, Model model, List<JsonNode> items) {
        if (items.size() < 2) {
            return; // a single item looks its references up as it reads them
        }
        Map<String, java.util.Set<Long>> idsByTable = new LinkedHashMap<>();
        for (Field f : model.fields()) {
            if (!f.isWritable() || (f.kind != Kind.FK && f.kind != Kind.GENERIC_FK)) {
                continue;
            }
            for (JsonNode item : items) {
                if (f.kind == Kind.FK) {
                    JsonNode v = item.isObject() ? value(item, f) : null;
                    Long id = numericId(v);
                    if (id != null) {
                        idsByTable.computeIfAbsent(registry.require(f.target()).table(), t -> new java.util.TreeSet<>()).add(id);
                    }
                } else if (item.isObject() && item.path(f.genericTypeColumn()).isTextual()) {
                    Long id = numericId(item.get(f.genericIdColumn()));
                    String type = item.get(f.genericTypeColumn()).asText();
                    if (id != null && f.genericTypes().contains(type)) {
                        registry.byContentType(type).ifPresent(target ->
                                idsByTable.computeIfAbsent(target.table(), t -> new java.util.TreeSet<>()).add(id));
                    }
                }
            }
        }
        idsByTable.forEach((table, ids) -> {
            List<Long> found = new ArrayList<>();
            db.query("select id from " + table + " where id = any(?)", new Db.SqlArray("bigint", ids))
                    .forEach(r -> found.add(r.id()));
            db.markExisting(table, found);
        });
    }

    private static Long numericId(JsonNode v) {
        if (v == null) {
            return null;
        }
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.asLong();
        }
        return v.isTextual() && v.asText().matches("\\d{1,18}") ? Long.valueOf(v.asText()) : null;
    }

    /** Whether the row exists: known from this request's look-ups, else one query. */
    private static boolean exists(Db db, String table, long id) {
        if (db.knownToExist(table, id)) {
            return true;
        }
        if (db.query("select 1 from " + table + " where id = ?", id).isEmpty()) {
            return false;
        }
        db.markExisting(table, List.of(id));
        return true;
    }

    /** Checks uniqueness and model rules on the row as it would be stored. */
    public void validateRow(Db db, Model model, Row merged, Long selfId, Map<String, List<String>> errors) {
        List<Long> selfIds = new ArrayList<>();
        selfIds.add(selfId);
        validateRows(db, model, List.of(merged), selfIds, List.of(errors));
    }

    /**
     * Checks uniqueness and model rules on rows as they would be stored, all against the stored
     * rows as NetBox validates every item of a bulk request before saving any (callers pass only
     * rows that read without errors). Uniqueness costs one query per rule for all rows, and a row that
     * repeats an earlier row of the same request is reported as if that one were stored.
     *
     * @param selfIds per row, the id of the row being updated (excluded from the checks), or null
     */
    public void validateRows(Db db, Model model, List<Row> rows, List<Long> selfIds,
                             List<Map<String, List<String>>> errors) {
        for (Field f : model.fields()) {
            if (f.isUnique() && f.isColumn()) {
                UniqueRule single = UniqueRule.of(model.verboseName() + " with this " + f.name.replace('_', ' ')
                        + " already exists.", f.column()).skipIfNull(f.column());
                checkUnique(db, model, single, f.name, rows, selfIds, errors);
            }
        }
        // As DRF: a row whose fields failed (a per-field duplicate) gets no object-level checks,
        // which NetBox runs only on valid fields (unique-together validators, then Model.clean)
        List<Row> valid = new ArrayList<>();
        List<Long> validIds = new ArrayList<>();
        List<Map<String, List<String>>> validErrors = new ArrayList<>();
        boolean[] fieldsFailed = new boolean[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            fieldsFailed[i] = !errors.get(i).isEmpty();
            if (!fieldsFailed[i]) {
                valid.add(rows.get(i));
                validIds.add(selfIds.get(i));
                validErrors.add(errors.get(i));
            }
        }
        for (UniqueRule rule : model.uniqueRules()) {
            checkUnique(db, model, rule, "__all__", valid, validIds, validErrors);
        }
        for (int i = 0; i < rows.size(); i++) {
            Row merged = rows.get(i);
            Map<String, List<String>> rowErrors = errors.get(i);
            if (fieldsFailed[i]) {
                continue;
            }
            model.validators().forEach(v -> v.validate(merged, rowErrors));
            if (rowErrors.isEmpty()) {
                Long selfId = selfIds.get(i);
                model.dbValidators().forEach(v -> v.validate(db, merged, selfId, rowErrors));
            }
        }
    }

    /**
     * One uniqueness rule over many rows: rows are matched against the table through a VALUES
     * list, one query per pattern of NULL columns (NULLs compare equal here, written as
     * "col is null" rather than IS NOT DISTINCT FROM, which no index can answer).
     */
    private static void checkUnique(Db db, Model model, UniqueRule rule, String errorKey, List<Row> rows,
                                    List<Long> selfIds, List<Map<String, List<String>>> errors) {
        Map<List<Boolean>, List<Integer>> byNullPattern = new LinkedHashMap<>();
        Map<List<Object>, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            Map<String, List<String>> rowErrors = errors.get(i);
            if (skips(rule, row)) {
                continue;
            }
            List<Boolean> nulls = new ArrayList<>();
            List<Object> key = new ArrayList<>();
            for (String c : rule.columns()) {
                Object v = row.get(c);
                nulls.add(v == null);
                key.add(v == null ? null : rule.caseInsensitive().contains(c)
                        ? v.toString().toLowerCase(java.util.Locale.ROOT) : v.toString());
            }
            Integer earlier = seen.putIfAbsent(key, i);
            if (earlier != null && (selfIds.get(i) == null || !selfIds.get(i).equals(selfIds.get(earlier)))) {
                uniqueError(rule, errorKey, row, rowErrors);
                continue;
            }
            byNullPattern.computeIfAbsent(nulls, k -> new ArrayList<>()).add(i);
        }
        byNullPattern.forEach((nulls, indexes) -> {
            int perRow = 2 + (int) nulls.stream().filter(n -> !n).count();
            int chunk = Math.max(1, 30_000 / perRow);
            for (int from = 0; from < indexes.size(); from += chunk) {
                List<Integer> part = indexes.subList(from, Math.min(indexes.size(), from + chunk));
                for (int conflicting : conflicts(db, model, rule, nulls, part, rows, selfIds)) {
                    uniqueError(rule, errorKey, rows.get(conflicting), errors.get(conflicting));
                }
            }
        });
    }

    private static boolean skips(UniqueRule rule, Row row) {
        return rule.skipIfNull().stream().anyMatch(c -> row.get(c) == null);
    }

    /** Indexes (of {@code part}) of the rows that a stored row other than themselves already matches. */
    private static List<Integer> conflicts(Db db, Model model, UniqueRule rule, List<Boolean> nulls, List<Integer> part,
                                           List<Row> rows, List<Long> selfIds) {
        List<String> valueColumns = new ArrayList<>(List.of("i", "self"));
        StringBuilder match = new StringBuilder();
        for (int c = 0; c < rule.columns().size(); c++) {
            String column = rule.columns().get(c);
            if (nulls.get(c)) {
                match.append(" and t.").append(Db.q(column)).append(" is null");
            } else if (rule.caseInsensitive().contains(column)) {
                match.append(" and lower(t.").append(Db.q(column)).append(") = lower(v.c").append(c).append(")");
                valueColumns.add("c" + c);
            } else {
                match.append(" and t.").append(Db.q(column)).append(" = v.c").append(c);
                valueColumns.add("c" + c);
            }
        }
        StringBuilder values = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (int index : part) {
            values.append(values.isEmpty() ? "(?::int, ?::bigint" : ", (?::int, ?::bigint");
            params.add(index);
            params.add(selfIds.get(index));
            for (int c = 0; c < rule.columns().size(); c++) {
                if (!nulls.get(c)) {
                    values.append(", ?");
                    params.add(rows.get(index).get(rule.columns().get(c)));
                }
            }
            values.append(')');
        }
        String sql = "select v.i from (values " + values + ") as v(" + String.join(", ", valueColumns) + ")"
                + " where exists (select 1 from " + model.table() + " t where (v.self is null or t.id <> v.self)"
                + match + ")";
        List<Integer> found = new ArrayList<>();
        db.query(sql, params).forEach(r -> found.add(((Number) r.get("i")).intValue()));
        return found;
    }

    private static void uniqueError(UniqueRule rule, String errorKey, Row row, Map<String, List<String>> rowErrors) {
        boolean topLevel = row.get(rule.columns().get(0)) == null && rule.topLevelMessage() != null;
        add(rowErrors, errorKey, topLevel ? rule.topLevelMessage() : rule.message());
    }

    static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }

    private static JsonNode value(JsonNode body, Field f) {
        JsonNode v = body.get(f.name);
        if (v == null) {
            for (String alias : f.writeAliases()) {
                v = body.get(alias);
                if (v != null) {
                    break;
                }
            }
        }
        return v;
    }

    /** The declaration's write transform (e.g. password hashing); its rejection is a field error. */
    private static Object transform(Field f, Object value) {
        if (f.writeTransform() == null) {
            return value;
        }
        try {
            return f.writeTransform().apply(value);
        } catch (IllegalArgumentException e) {
            throw new FieldError(e.getMessage());
        }
    }

    private static Object nullOrError(Field f) {
        if (!f.isNullable()) {
            throw new FieldError("This field may not be null.");
        }
        return null;
    }

    /** A bad value for one field; the message goes under the field's name. */
    static final class FieldError extends RuntimeException {
        FieldError(String message) {
            super(message, null, false, false);
        }
    }

    /** A declared default, read as if it had been sent. */
    private static Object convertDefault(Field f, JsonNode d) {
        return convert(f, d);
    }

    /** Converts and checks one value as its field's kind reads it, with DRF's messages. */
    static Object convert(Field f, JsonNode v) {
        try {
            return FieldTypes.of(f).read(f, v);
        } catch (InvalidValue e) {
            throw new FieldError(e.getMessage());
        }
    }

    /**
     * Resolves a related object given as an id, a numeric string, {"id": n} or a dict of
     * attributes (nested dicts follow relations), to its id. NetBox's messages on failure. An
     * id is never restricted; a dict matches only objects the caller may view.
     */
    public long resolve(Db db, Model target, JsonNode v) {
        if (v.isIntegralNumber() || (v.isTextual() && v.asText().matches("\\d{1,18}"))) {
            long id = v.asLong();
            if (!exists(db, target.table(), id)) {
                throw new FieldError("Related object not found using the provided numeric ID: " + id);
            }
            return id;
        }
        if (!v.isObject() || v.isEmpty()) {
            throw new FieldError("Related objects must be referenced by numeric ID or by dictionary of attributes. "
                    + "Received an unrecognized value: " + v);
        }
        List<Object> params = new ArrayList<>();
        String sql = "select id from " + target.table() + " t0 where " + attributeWhere(db, target, v, params, "");
        // Since NetBox 4.6.6 a look-up by attributes finds only objects the caller may view.
        ExtraFilter.Sql visible = access.restriction(target, Access.Action.VIEW);
        if (visible != null) {
            sql = "select t.id from " + target.table() + " t where t.id in (" + sql + ") and (" + visible.sql() + ")";
            params.addAll(visible.params());
        }
        List<org.sourceoftruth.records.model.Row> rows = db.query(sql + " limit 2", params);
        String repr = pythonRepr(v, "");
        if (rows.isEmpty()) {
            throw new FieldError("Related object not found using the provided attributes: {" + repr + "}");
        }
        if (rows.size() > 1) {
            throw new FieldError("Multiple objects match the provided attributes: {" + repr + "}");
        }
        return rows.get(0).id();
    }

    private String attributeWhere(Db db, Model target, JsonNode attrs, List<Object> params, String depth) {
        List<String> parts = new ArrayList<>();
        String alias = "t" + depth.length();
        Iterator<Map.Entry<String, JsonNode>> it = attrs.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            Field f = target.field(e.getKey());
            if (f == null && e.getKey().equals("id")) {
                f = target.field("id");
            }
            // Write-only and secret columns are no lookup keys: matching on them would be an oracle.
            if (f == null || !f.isColumn() || f.isWriteOnly() || f.isSecret()) {
                throw new FieldError("Cannot resolve keyword '" + e.getKey() + "' into field.");
            }
            JsonNode v = e.getValue();
            if (f.kind == Kind.FK && v.isObject()) {
                Model next = registry.require(f.target());
                String sub = "t" + (depth.length() + 1);
                parts.add(alias + "." + f.column() + " in (select " + sub + ".id from " + next.table() + " " + sub + " where "
                        + attributeWhere(db, next, v, params, depth + "_") + ")");
            } else if (v.isNull()) {
                parts.add(alias + "." + f.column() + " is null");
            } else if (f.kind == Kind.FK || f.name.equals("id")) {
                parts.add(alias + "." + f.column() + " = ?");
                params.add(v.asLong());
            } else if (v.isValueNode()) {
                parts.add(alias + "." + f.column() + "::text = ?");
                params.add(v.isBoolean() ? String.valueOf(v.asBoolean()) : v.asText());
            } else {
                throw new FieldError("Related objects must be referenced by numeric ID or by dictionary of attributes. "
                        + "Received an unrecognized value: " + v);
            }
        }
        return parts.isEmpty() ? "true" : String.join(" and ", parts);
    }

    /** Python's repr of the flattened lookup dict, as NetBox prints it in its messages. */
    private static String pythonRepr(JsonNode attrs, String prefix) {
        List<String> items = new ArrayList<>();
        attrs.fields().forEachRemaining(e -> {
            if (e.getValue().isObject()) {
                items.add(pythonRepr(e.getValue(), prefix + e.getKey() + "__"));
            } else {
                JsonNode v = e.getValue();
                String val = v.isTextual() ? "'" + v.asText().replace("'", "\\'") + "'"
                        : v.isNull() ? "None" : v.isBoolean() ? (v.asBoolean() ? "True" : "False") : v.toString();
                items.add("'" + prefix + e.getKey() + "': " + val);
            }
        });
        return String.join(", ", items);
    }

    private List<Long> readM2m(Db db, Field f, JsonNode v) {
        if (!v.isArray()) {
            throw new FieldError("Expected a list of items but got type \"" + ErrorMapper.jsonType(v) + "\".");
        }
        Model target = registry.require(f.target());
        List<Long> ids = new ArrayList<>();
        for (JsonNode item : v) {
            if (item.isObject() && item.has("id") && item.get("id").canConvertToLong()) {
                item = item.get("id");
            }
            if (item.isObject() || item.isArray()) {
                throw new FieldError("Incorrect type. Expected pk value, received " + ErrorMapper.jsonType(item) + ".");
            }
            if (!(item.isIntegralNumber() || (item.isTextual() && item.asText().matches("\\d{1,18}")))) {
                throw new FieldError("Incorrect type. Expected pk value, received " + ErrorMapper.jsonType(item) + ".");
            }
            ids.add(item.asLong());
        }
        if (!ids.isEmpty()) {
            java.util.Set<Long> found = new java.util.HashSet<>();
            db.query("select id from " + target.table() + " where id = any(?)", new Db.SqlArray("bigint", ids))
                    .forEach(r -> found.add(r.id()));
            for (Long id : ids) {
                if (!found.contains(id)) {
                    throw new FieldError("Invalid pk \"" + id + "\" - object does not exist.");
                }
            }
        }
        return ids.stream().distinct().toList();
    }

    private List<Long> readTags(Db db, Field f, JsonNode v) {
        if (!v.isArray()) {
            throw new FieldError("Expected a list of items but got type \"" + ErrorMapper.jsonType(v) + "\".");
        }
        Model tag = registry.require("extras.tag");
        List<Long> ids = new ArrayList<>();
        for (JsonNode item : v) {
            if (f.isTagSlugs()) {
                // DRF's SlugRelatedField: each item is a tag slug.
                List<Row> found = item.isTextual()
                        ? db.query("select id from extras_tag where slug = ?", item.asText()) : List.of();
                if (found.isEmpty()) {
                    throw new FieldError(item.isTextual() ? "Object with slug=" + item.asText() + " does not exist."
                            : "Invalid value.");
                }
                ids.add(found.get(0).id());
                continue;
            }
            ids.add(resolve(db, tag, item));
        }
        return ids.stream().distinct().toList();
    }

    /** A content-type/id pair: both columns are written together and must name one object. */
    private void readGeneric(Db db, Field f, JsonNode body, Row existing, boolean whole, Row cols,
                             Map<String, List<String>> errors) {
        JsonNode type = body.get(f.genericTypeColumn());
        JsonNode id = body.get(f.genericIdColumn());
        if (type == null && whole && f.isRequired()) {
            // a required pair (an event rule's action object) must name its content type; the id
            // may stay null where the model allows it, as in NetBox
            add(errors, f.genericTypeColumn(), "This field is required.");
            return;
        }
        if (type == null && id == null) {
            return;
        }
        String newType = type != null ? (type.isNull() ? null : type.asText())
                : existing == null ? null : existing.str(f.genericTypeColumn());
        JsonNode idNode = id != null ? id : existing == null ? null
                : (existing.get(f.genericIdColumn()) == null ? null : com.fasterxml.jackson.databind.node.LongNode
                .valueOf(existing.longValue(f.genericIdColumn())));
        if (newType != null && !f.genericTypes().contains(newType)) {
            add(errors, f.genericTypeColumn(), "Invalid content type: " + newType);
            return;
        }
        boolean idNull = idNode == null || idNode.isNull();
        if (newType == null && !idNull) {
            add(errors, f.genericTypeColumn(), "This field cannot be null.");
            return;
        }
        if (newType != null && idNull) {
            add(errors, f.genericIdColumn(), "This field cannot be null.");
            return;
        }
        if (newType == null) {
            cols.put(f.genericTypeColumn(), null);
            cols.put(f.genericIdColumn(), null);
            return;
        }
        if (!(idNode.isIntegralNumber() || (idNode.isTextual() && idNode.asText().matches("\\d{1,18}")))) {
            add(errors, f.genericIdColumn(), "A valid integer is required.");
            return;
        }
        Model target = registry.require(newType);
        if (!exists(db, target.table(), idNode.asLong())) {
            add(errors, f.genericIdColumn(), "Related object not found using the provided value: " + idNode.asLong() + ".");
            return;
        }
        cols.put(f.genericTypeColumn(), newType);
        cols.put(f.genericIdColumn(), idNode.asLong());
    }

    /** Unused-key check helper for callers that want to reject bodies of the wrong shape. */
    public static boolean isObject(JsonNode n) {
        return n instanceof ObjectNode;
    }
}
