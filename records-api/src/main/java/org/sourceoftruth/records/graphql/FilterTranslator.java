package org.sourceoftruth.records.graphql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.ConstraintCompiler;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.SystemTables;

/**
 * A GraphQL filter object as a predicate over alias {@code t}, in the terms of Django's lookups
 * that permission constraints use ({@link ConstraintCompiler}, which shares its comparisons with
 * the REST list filters): {@code {name: {i_contains: "x"}}} is {@code name__icontains},
 * {@code {site: {...}}} a subquery on the site's filter, {@code {tags: {...}}} and many-to-many
 * fields an {@code exists} over their join table, a reverse relation ({@code interfaces}) a
 * subquery on the other model. Within one object the terms are ANDed with {@code AND}; then
 * {@code OR} joins the result with its own filter, and {@code NOT} excludes what its filter
 * matches, as strawberry-django combines them.
 */
final class FilterTranslator {
    /** A filter that cannot be applied; the message names the field and goes into the GraphQL error. */
    static final class BadFilter extends RuntimeException {
        BadFilter(String message) {
            super(message, null, false, false);
        }
    }

    private final ModelRegistry registry;
    private final Relations relations;
    private final ConstraintCompiler constraints;

    FilterTranslator(ModelRegistry registry, Relations relations, ConstraintCompiler constraints) {
        this.registry = registry;
        this.relations = relations;
        this.constraints = constraints;
    }

    /** The predicate for the filter object (null or empty: {@code true}). */
    ExtraFilter.Sql translate(Model model, Map<String, Object> filter) {
        List<String> terms = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        if (filter == null) {
            return ExtraFilter.Sql.of("true");
        }
        Map<String, Object> or = null;
        Map<String, Object> not = null;
        for (Map.Entry<String, Object> e : filter.entrySet()) {
            String key = e.getKey();
            Object value = e.getValue();
            if (value == null || key.equals("DISTINCT")) {
                continue;
            }
            switch (key) {
                case "AND" -> add(terms, params, translate(model, object(key, value)));
                case "OR" -> or = object(key, value);
                case "NOT" -> not = object(key, value);
                default -> add(terms, params, term(model, key, value));
            }
        }
        String sql = terms.isEmpty() ? "true" : String.join(" and ", terms);
        if (or != null) {
            ExtraFilter.Sql other = translate(model, or);
            sql = "(" + sql + ") or (" + other.sql() + ")";
            params.addAll(other.params());
        }
        if (not != null) {
            ExtraFilter.Sql excluded = translate(model, not);
            sql = "(" + sql + ") and not coalesce((" + excluded.sql() + "), false)";
            params.addAll(excluded.params());
        }
        return new ExtraFilter.Sql(sql, params);
    }

    /** {@code (a) and (b)} of two predicates. */
    static ExtraFilter.Sql and(ExtraFilter.Sql a, ExtraFilter.Sql b) {
        List<Object> params = new ArrayList<>(a.params());
        params.addAll(b.params());
        return new ExtraFilter.Sql("(" + a.sql() + ") and (" + b.sql() + ")", params);
    }

    /** The objects whose {@code path} (a field, or a field and a lookup) matches: a permission-constraint term. */
    ExtraFilter.Sql lookup(Model model, String path, Object value) {
        checkValue(path, value);
        ObjectNode constraint = Json.MAPPER.createObjectNode();
        constraint.set(path, Json.MAPPER.valueToTree(value));
        return compile(model, constraint);
    }

    ExtraFilter.Sql compile(Model model, JsonNode constraint) {
        try {
            ExtraFilter.Sql sql = constraints.compile(model, constraint, 0);
            return sql == null ? ExtraFilter.Sql.of("true") : sql;
        } catch (ConstraintCompiler.InvalidConstraint e) {
            throw new BadFilter(e.getMessage());
        }
    }

    private ExtraFilter.Sql term(Model model, String key, Object value) {
        if (key.equals("custom_field_data") && model.hasCustomFields()) {
            return customField(model, object(key, value));
        }
        ExtraFilter.Sql address = Addresses.sql(model, key, value);
        if (address != null) {
            return address;
        }
        Field field = model.field(key);
        if (field == null) {
            ExtraFilter.Sql generic = generic(model, key, value);
            if (generic != null) {
                return generic;
            }
            Hops.Hop hop = Hops.of(registry, model, key);
            if (hop != null) {
                return term(model, hop.via(), Map.of(hop.then(), value));
            }
        }
        if (field == null && key.endsWith("_id")) {
            Field fk = model.field(key.substring(0, key.length() - 3));
            if (fk != null && fk.kind == Kind.FK) {
                Model target = registry.require(fk.target());
                if (value instanceof Map<?, ?>
                        && target.treeParent() != null
                        && object(key, value).containsKey("match_type")) {
                    return TreeNodes.sql(fk.column(), target, object(key, value));
                }
                if (value instanceof Map<?, ?>) {
                    // a lookup on the id (NetBox's data_source_id: IntFilterLookup)
                    return comparisons(model, fk.name, Kind.FK, object(key, value));
                }
                return lookup(model, fk.name + "__exact", id(value));
            }
        }
        if (field == null) {
            Relations.Reverse reverse = relations.onto(model.contentType()).get(key);
            if (reverse != null) {
                return reverse(model, reverse, object(key, value));
            }
            throw new BadFilter("Unknown filter field '" + key + "'.");
        }
        switch (field.kind) {
            case COUNT -> {
                // a count of related rows (a device's console_port_count): its counter column or a count
                return ContentTypes.compare(
                        org.sourceoftruth.records.engine.query.FilterCompiler.countExpression(field),
                        true,
                        key,
                        object(key, value));
            }
            case FK, M2M, TAGS -> {
                Model target = registry.require(field.kind == Kind.TAGS ? "extras.tag" : field.target());
                ExtraFilter.Sql inner = translate(target, object(key, value));
                return related(model, field, target, inner);
            }
            default -> {
                if (ContentTypes.filters(field) && value instanceof Map<?, ?>) {
                    return field.kind == Kind.STRING_LIST
                            ? ContentTypes.anyOf(field.column(), object(key, value))
                            : ContentTypes.sql(field.column(), object(key, value));
                }
                String netbox = GraphqlNames.lookup(model, field, field.name);
                ExtraFilter.Sql json =
                        netbox == null ? null : JsonLookups.sql(netbox, field.column(), key, object(key, value));
                if (json != null) {
                    return json;
                }
                // an enum NetBox's filter takes bare (a wireless LAN's auth_type: TYPE_OPEN)
                Map<String, Object> lookups = value instanceof Map<?, ?> ? object(key, value) : Map.of("exact", value);
                return comparisons(model, field.name, field.kind, lookups);
            }
        }
    }

    /**
     * A lookup object ({@code {exact: ..., in_list: [...], range: {start, end}}}, or one that wraps
     * another: {@code filter_lookup}, {@code comparison_lookup}, {@code range_lookup}) on one field.
     */
    private ExtraFilter.Sql comparisons(Model model, String path, Kind kind, Map<String, Object> lookups) {
        List<String> terms = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        boolean ids = path.equals("id") || kind == Kind.FK;
        for (Map.Entry<String, Object> e : lookups.entrySet()) {
            Object v = e.getValue();
            if (v == null) {
                continue;
            }
            String lookup = e.getKey();
            switch (lookup) {
                case "filter_lookup",
                        "comparison_lookup",
                        "range_lookup",
                        "string_lookup",
                        "int_range_lookup",
                        "int_comparison_lookup",
                        "float_range_lookup",
                        "float_comparison_lookup",
                        "boolean_lookup",
                        "date_lookup",
                        "datetime_lookup",
                        "time_lookup" -> {
                    Map<String, Object> inner = object(path + "." + lookup, v);
                    if (lookup.endsWith("range_lookup")) {
                        inner = Map.of("range", inner);
                    }
                    add(terms, params, comparisons(model, path, kind, inner));
                }
                case "range" -> {
                    Map<String, Object> range = object(path + ".range", v);
                    if (range.get("start") != null) {
                        add(
                                terms,
                                params,
                                lookup(model, path + "__gte", ids ? id(range.get("start")) : range.get("start")));
                    }
                    if (range.get("end") != null) {
                        add(
                                terms,
                                params,
                                lookup(model, path + "__lte", ids ? id(range.get("end")) : range.get("end")));
                    }
                }
                case "exact", "in_list" -> {
                    if (v instanceof Map<?, ?>
                            || v instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof Map<?, ?>) {
                        // NetBox's lookup of a lookup (an IPsec proposal's authentication_algorithm)
                        List<String> any = new ArrayList<>();
                        List<Object> anyParams = new ArrayList<>();
                        for (Object inner : v instanceof List<?> list ? list : List.of(v)) {
                            ExtraFilter.Sql one = comparisons(model, path, kind, object(path + "." + lookup, inner));
                            any.add("(" + one.sql() + ")");
                            anyParams.addAll(one.params());
                        }
                        terms.add("(" + String.join(" or ", any) + ")");
                        params.addAll(anyParams);
                    } else {
                        add(terms, params, plain(model, path, ids, lookup, v));
                    }
                }
                default -> add(terms, params, plain(model, path, ids, lookup, v));
            }
        }
        return new ExtraFilter.Sql(terms.isEmpty() ? "true" : String.join(" and ", terms), params);
    }

    /** One lookup of a value as Django's ({@code i_contains} is {@code __icontains}). */
    private ExtraFilter.Sql plain(Model model, String path, boolean ids, String lookup, Object v) {
        String django = DJANGO.get(lookup);
        if (django == null) {
            throw new BadFilter("Lookup '" + lookup + "' on '" + path + "' is not supported.");
        }
        Object operand = v;
        if (ids && !django.equals("isnull")) {
            operand = v instanceof List<?> list
                    ? list.stream().map(FilterTranslator::id).toList()
                    : id(v);
        }
        return lookup(model, path + "__" + django, operand);
    }

    /** GraphQL's lookup names and Django's. */
    private static final Map<String, String> DJANGO = Map.ofEntries(
            Map.entry("exact", "exact"),
            Map.entry("i_exact", "iexact"),
            Map.entry("contains", "contains"),
            Map.entry("i_contains", "icontains"),
            Map.entry("starts_with", "startswith"),
            Map.entry("i_starts_with", "istartswith"),
            Map.entry("ends_with", "endswith"),
            Map.entry("i_ends_with", "iendswith"),
            Map.entry("regex", "regex"),
            Map.entry("i_regex", "iregex"),
            Map.entry("in_list", "in"),
            Map.entry("in_", "in"),
            Map.entry("gt", "gt"),
            Map.entry("gte", "gte"),
            Map.entry("lt", "lt"),
            Map.entry("lte", "lte"),
            Map.entry("is_null", "isnull"),
            Map.entry("isnull", "isnull"));

    /** {@code custom_field_data: {path: "<name>", lookup: {string_lookup: {...}}}}. */
    private ExtraFilter.Sql customField(Model model, Map<String, Object> filter) {
        Object path = filter.get("path");
        Object lookup = filter.get("lookup");
        if (!(path instanceof String name) || name.isEmpty()) {
            throw new BadFilter("custom_field_data needs the path of a custom field.");
        }
        Field data = null;
        for (Field f : model.fields()) {
            if (f.kind == Kind.CUSTOM_FIELDS) {
                data = f;
            }
        }
        return comparisons(model, data.name + "__" + name, Kind.JSON, object("custom_field_data.lookup", lookup));
    }

    /**
     * A filter on a generic relation's pair: its type column by a ContentTypeFilter (or an enum
     * lookup of the types), by an object type's id ({@code <type column>_id}), its id column by
     * an ID or a lookup; null when the key is no such column.
     */
    private ExtraFilter.Sql generic(Model model, String key, Object value) {
        for (Field f : model.fields()) {
            if (f.kind != Kind.GENERIC_FK || f.genericTypeColumn() == null) {
                continue;
            }
            if (key.equals(f.genericTypeColumn())) {
                Map<String, Object> filter = object(key, value);
                boolean lookup =
                        filter.containsKey("exact") || filter.containsKey("in_list") || filter.containsKey("is_null");
                return lookup
                        ? comparisons(model, f.genericTypeColumn(), Kind.STRING, filter)
                        : ContentTypes.sql(f.genericTypeColumn(), filter);
            }
            if (key.equals(f.genericTypeColumn() + "_id")) {
                return ContentTypes.byId(f.genericTypeColumn(), value);
            }
            if (key.equals(f.genericIdColumn())) {
                return value instanceof Map<?, ?>
                        ? comparisons(model, f.genericIdColumn(), Kind.INTEGER, object(key, value))
                        : lookup(model, f.genericIdColumn() + "__exact", id(value));
            }
        }
        return null;
    }

    /** Objects whose relation (a foreign key, many-to-many field or tags) reaches one the inner filter matches. */
    private ExtraFilter.Sql related(Model model, Field field, Model target, ExtraFilter.Sql inner) {
        String matching = "select t.id from " + target.table() + " t where " + inner.sql();
        List<Object> params = new ArrayList<>();
        String sql;
        switch (field.kind) {
            case FK -> sql = "t." + field.column() + " in (" + matching + ")";
            case M2M ->
                sql = "exists (select 1 from " + field.joinTable() + " gj where gj." + field.joinOwnColumn()
                        + " = t.id and gj." + field.joinTargetColumn() + " in (" + matching + "))";
            default -> {
                sql = "exists (select 1 from " + SystemTables.EXTRAS_TAGGEDITEM
                        + " gj where gj.object_type = ? and gj.object_id = t.id" + " and gj.tag_id in (" + matching
                        + "))";
                params.add(model.contentType());
            }
        }
        params.addAll(inner.params());
        return new ExtraFilter.Sql(sql, params);
    }

    /** Objects another model's objects, matched by the inner filter, point at. */
    private ExtraFilter.Sql reverse(Model model, Relations.Reverse reverse, Map<String, Object> filter) {
        Field f = reverse.field();
        Model owner = reverse.owner();
        ExtraFilter.Sql inner = translate(owner, filter);
        List<Object> params = new ArrayList<>();
        String sql;
        switch (f.kind) {
            case FK ->
                sql = "t.id in (select t." + f.column() + " from " + owner.table() + " t where " + inner.sql() + ")";
            case M2M ->
                sql = "t.id in (select gj." + f.joinTargetColumn() + " from " + f.joinTable() + " gj where gj."
                        + f.joinOwnColumn() + " in (select t.id from " + owner.table() + " t where " + inner.sql()
                        + "))";
            default -> {
                sql = "t.id in (select t." + f.genericIdColumn() + " from " + owner.table() + " t where t."
                        + f.genericTypeColumn() + " = ? and (" + inner.sql() + "))";
                params.add(model.contentType());
            }
        }
        params.addAll(inner.params());
        return new ExtraFilter.Sql(sql, params);
    }

    /** Values PostgreSQL cannot take, refused as the REST API refuses them. */
    private static void checkValue(String path, Object value) {
        String field = path.contains("__") ? path.substring(0, path.indexOf("__")) : path;
        if (value instanceof String s && s.indexOf('\u0000') >= 0) {
            throw new BadFilter("Filter '" + field + "': Null characters are not allowed.");
        }
        if (value instanceof Double d && (d.isInfinite() || d.isNaN())) {
            throw new BadFilter("Filter '" + field + "': a number out of range.");
        }
        if (value instanceof List<?> list) {
            list.forEach(v -> checkValue(path, v));
        }
    }

    /** An ID as a number where it is one (GraphQL IDs arrive as text). */
    static Object id(Object v) {
        if (v instanceof String s && !s.isEmpty() && s.chars().allMatch(Character::isDigit) && s.length() < 19) {
            return Long.parseLong(s);
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(String key, Object value) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new BadFilter("Filter '" + key + "' takes an input object.");
    }

    private static void add(List<String> terms, List<Object> params, ExtraFilter.Sql sql) {
        terms.add("(" + sql.sql() + ")");
        params.addAll(sql.params());
    }
}
