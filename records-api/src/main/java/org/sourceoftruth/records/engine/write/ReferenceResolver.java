package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

/**
 * Finds the objects a write request refers to: by numeric id (checked to exist, looked up for a
 * whole bulk request at once) or by a dict of attributes that must match exactly one object the
 * caller may view, with NetBox's messages when none or several do.
 */
@ApplicationScoped
public class ReferenceResolver {
    /** Digits as Python's int() reads them, up to its 4300-digit bound. */
    private static final java.util.regex.Pattern DIGITS = java.util.regex.Pattern.compile("[0-9]{1,4300}");

    @Inject
    ModelRegistry registry;

    @Inject
    Access access;

    /**
     * Looks up, in one query per related table, the objects that the items of a write request
     * refer to by numeric id (foreign keys and content-type/id pairs), so that reading the items
     * then costs no query per reference. Ids not found are left to {@link PayloadReader#read} to report.
     */
    public void prefetchReferences(Db db, Model model, List<JsonNode> items) {
        if (items.size() < 2) {
            return; // a single item looks its references up as it reads them
        }
        Map<String, Set<Long>> idsByTable = new LinkedHashMap<>();
        for (Field f : model.fields()) {
            if (!f.isWritable() || (f.kind != Kind.FK && f.kind != Kind.GENERIC_FK)) {
                continue;
            }
            for (JsonNode item : items) {
                if (f.kind == Kind.FK) {
                    JsonNode v = item.isObject() ? PayloadReader.value(item, f) : null;
                    Long id = numericId(v);
                    if (id != null) {
                        idsByTable
                                .computeIfAbsent(registry.require(f.target()).table(), t -> new TreeSet<>())
                                .add(id);
                    }
                } else if (item.isObject() && item.path(f.genericTypeColumn()).isTextual()) {
                    Long id = numericId(item.get(f.genericIdColumn()));
                    String type = item.get(f.genericTypeColumn()).asText();
                    if (id != null && f.genericTypes().contains(type)) {
                        registry.byContentType(type)
                                .ifPresent(target -> idsByTable
                                        .computeIfAbsent(target.table(), t -> new TreeSet<>())
                                        .add(id));
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

    /**
     * An object id as a client may give it: a JSON integer or a string of digits (NetBox casts it
     * with int()); null when it is neither. It is not bounded: one beyond 64 bits is an id no
     * object has (see {@link #fitsId}), and messages echo it as given, never wrapped around.
     */
    public static BigInteger givenId(JsonNode v) {
        if (v == null) {
            return null;
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue();
        }
        return v.isTextual() && DIGITS.matcher(v.textValue()).matches() ? new BigInteger(v.textValue()) : null;
    }

    /** Whether a given id fits PostgreSQL's bigint, the type of every id column. */
    public static boolean fitsId(BigInteger id) {
        return id.bitLength() < 64;
    }

    /** Whether the row exists: known from this request's look-ups, else one query. */
    static boolean exists(Db db, String table, long id) {
        if (db.knownToExist(table, id)) {
            return true;
        }
        if (db.query("select 1 from " + table + " where id = ?", id).isEmpty()) {
            return false;
        }
        db.markExisting(table, List.of(id));
        return true;
    }

    /**
     * Resolves a related object given as an id, a numeric string, {"id": n} or a dict of
     * attributes (nested dicts follow relations), to its id. NetBox's messages on failure. An
     * id is never restricted; a dict matches only objects the caller may view.
     */
    public long resolve(Db db, Model target, JsonNode v) {
        BigInteger given = givenId(v);
        if (given != null) {
            if (!fitsId(given) || !exists(db, target.table(), given.longValue())) {
                throw new PayloadReader.FieldError("Related object not found using the provided numeric ID: " + given);
            }
            return given.longValue();
        }
        if (!v.isObject() || v.isEmpty()) {
            throw new PayloadReader.FieldError(
                    "Related objects must be referenced by numeric ID or by dictionary of attributes. "
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
        List<Row> rows = db.query(sql + " limit 2", params);
        String repr = pythonRepr(v, "");
        if (rows.isEmpty()) {
            throw new PayloadReader.FieldError(
                    "Related object not found using the provided attributes: {" + repr + "}");
        }
        if (rows.size() > 1) {
            throw new PayloadReader.FieldError("Multiple objects match the provided attributes: {" + repr + "}");
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
                throw new PayloadReader.FieldError("Cannot resolve keyword '" + e.getKey() + "' into field.");
            }
            JsonNode v = e.getValue();
            if (f.kind == Kind.FK && v.isObject()) {
                Model next = registry.require(f.target());
                String sub = "t" + (depth.length() + 1);
                parts.add(alias + "." + f.column() + " in (select " + sub + ".id from " + next.table() + " " + sub
                        + " where " + attributeWhere(db, next, v, params, depth + "_") + ")");
            } else if (v.isNull()) {
                parts.add(alias + "." + f.column() + " is null");
            } else if (f.kind == Kind.FK || f.name.equals("id")) {
                parts.add(alias + "." + f.column() + " = ?");
                params.add(v.asLong());
            } else if (v.isValueNode()) {
                parts.add(alias + "." + f.column() + "::text = ?");
                params.add(v.isBoolean() ? String.valueOf(v.asBoolean()) : v.asText());
            } else {
                throw new PayloadReader.FieldError(
                        "Related objects must be referenced by numeric ID or by dictionary of attributes. "
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
                String val = v.isTextual()
                        ? "'" + v.asText().replace("'", "\\'") + "'"
                        : v.isNull() ? "None" : v.isBoolean() ? (v.asBoolean() ? "True" : "False") : v.toString();
                items.add("'" + prefix + e.getKey() + "': " + val);
            }
        });
        return String.join(", ", items);
    }
}
