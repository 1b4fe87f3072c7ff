package org.sourceoftruth.records.graphql;

import static graphql.Scalars.GraphQLBoolean;
import static org.sourceoftruth.records.graphql.LookupInputs.field;
import static org.sourceoftruth.records.graphql.LookupInputs.ref;

import graphql.schema.GraphQLInputObjectType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.SystemTables;

/**
 * NetBox's {@code ContentTypeFilter} ({@code {id, app_label, model}} with AND/OR/NOT) on the
 * type column of a generic relation (a prefix's {@code scope_type}, an IP address's
 * {@code assigned_object_type}): the objects whose type is one of the object types
 * ({@code core_objecttype}) the filter matches.
 */
final class ContentTypes {
    static final String FILTER = "ContentTypeFilter";

    private ContentTypes() {}

    static GraphQLInputObjectType filterType() {
        return GraphQLInputObjectType.newInputObject()
                .name(FILTER)
                .field(field("id", ref(LookupInputs.ID)))
                .field(field("app_label", ref(LookupInputs.STR)))
                .field(field("model", ref(LookupInputs.STR)))
                .field(field("AND", ref(FILTER)))
                .field(field("OR", ref(FILTER)))
                .field(field("NOT", ref(FILTER)))
                .field(field("DISTINCT", GraphQLBoolean))
                .build();
    }

    /** The objects whose type column {@code column} names an object type the filter matches. */
    static ExtraFilter.Sql sql(String column, Map<String, Object> filter) {
        ExtraFilter.Sql where = predicate(filter);
        return new ExtraFilter.Sql(
                "t." + column + " in (select o.app_label || '.' || o.model from " + SystemTables.CORE_OBJECTTYPE
                        + " o where " + where.sql() + ")",
                where.params());
    }

    /** The objects whose list of object types ({@code object_types}, a text array) names one the filter matches. */
    static ExtraFilter.Sql anyOf(String column, Map<String, Object> filter) {
        ExtraFilter.Sql where = predicate(filter);
        return new ExtraFilter.Sql(
                "exists (select 1 from unnest(t." + column + ") x where x in (select o.app_label || '.' || o.model"
                        + " from " + SystemTables.CORE_OBJECTTYPE + " o where " + where.sql() + "))",
                where.params());
    }

    /** Whether a field holding object types by name filters by a ContentTypeFilter (a custom field's object_types). */
    static boolean filters(org.sourceoftruth.records.model.Field f) {
        return f.hasObjectTypeIds()
                && (f.kind == org.sourceoftruth.records.model.Kind.STRING
                        || f.kind == org.sourceoftruth.records.model.Kind.STRING_LIST);
    }

    /** The objects whose type column names the object type with this id ({@code assigned_object_type_id}). */
    static ExtraFilter.Sql byId(String column, Object id) {
        return sql(column, Map.of("id", Map.of("exact", id)));
    }

    private static ExtraFilter.Sql predicate(Map<String, Object> filter) {
        List<String> terms = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        Map<String, Object> or = null;
        Map<String, Object> not = null;
        for (Map.Entry<String, Object> e : filter.entrySet()) {
            Object v = e.getValue();
            if (v == null || e.getKey().equals("DISTINCT")) {
                continue;
            }
            switch (e.getKey()) {
                case "id" -> lookups("o.id", true, object(e.getKey(), v), terms, params);
                case "app_label", "model" -> lookups("o." + e.getKey(), false, object(e.getKey(), v), terms, params);
                case "AND" -> add(predicate(object("AND", v)), terms, params);
                case "OR" -> or = object("OR", v);
                case "NOT" -> not = object("NOT", v);
                default ->
                    throw new FilterTranslator.BadFilter("ContentTypeFilter: unknown field '" + e.getKey() + "'.");
            }
        }
        String sql = terms.isEmpty() ? "true" : String.join(" and ", terms);
        if (or != null) {
            ExtraFilter.Sql other = predicate(or);
            sql = "(" + sql + ") or (" + other.sql() + ")";
            params.addAll(other.params());
        }
        if (not != null) {
            ExtraFilter.Sql excluded = predicate(not);
            sql = "(" + sql + ") and not coalesce((" + excluded.sql() + "), false)";
            params.addAll(excluded.params());
        }
        return new ExtraFilter.Sql(sql, params);
    }

    /**
     * A lookup object on an SQL expression over alias {@code t}: a number ({@code exact},
     * {@code in_list}, comparisons, {@code range}) or text (also the text lookups).
     */
    static ExtraFilter.Sql compare(String expression, boolean number, String name, Map<String, Object> lookups) {
        List<String> terms = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (String key : lookups.keySet()) {
            if (number && lookups.get(key) != null && TEXT.contains(key)) {
                throw new FilterTranslator.BadFilter("Lookup '" + key + "' on '" + name + "' is not supported.");
            }
        }
        lookups(expression, number, lookups, terms, params);
        return new ExtraFilter.Sql(terms.isEmpty() ? "true" : String.join(" and ", terms), params);
    }

    private static final java.util.Set<String> TEXT = java.util.Set.of(
            "i_exact",
            "contains",
            "i_contains",
            "starts_with",
            "i_starts_with",
            "ends_with",
            "i_ends_with",
            "regex",
            "i_regex");

    private static void lookups(
            String column, boolean number, Map<String, Object> lookups, List<String> terms, List<Object> params) {
        for (Map.Entry<String, Object> e : lookups.entrySet()) {
            Object v = e.getValue();
            if (v == null) {
                continue;
            }
            String c = column;
            switch (e.getKey()) {
                case "exact" -> term(c + " = ?", value(v, number), terms, params);
                case "i_exact" -> term("lower(" + c + ") = lower(?)", text(v), terms, params);
                case "contains" -> term("strpos(" + c + ", ?) > 0", text(v), terms, params);
                case "i_contains" -> term("strpos(lower(" + c + "), lower(?)) > 0", text(v), terms, params);
                case "starts_with" -> term("starts_with(" + c + ", ?)", text(v), terms, params);
                case "i_starts_with" -> term("starts_with(lower(" + c + "), lower(?))", text(v), terms, params);
                case "ends_with" -> term("right(" + c + ", length(?)) = ?", List.of(text(v), text(v)), terms, params);
                case "i_ends_with" ->
                    term("lower(right(" + c + ", length(?))) = lower(?)", List.of(text(v), text(v)), terms, params);
                case "regex" -> term(c + " ~ ?", regex(v), terms, params);
                case "i_regex" -> term(c + " ~* ?", regex(v), terms, params);
                case "gt" -> term(c + " > ?", value(v, number), terms, params);
                case "gte" -> term(c + " >= ?", value(v, number), terms, params);
                case "lt" -> term(c + " < ?", value(v, number), terms, params);
                case "lte" -> term(c + " <= ?", value(v, number), terms, params);
                case "is_null" -> terms.add(Boolean.TRUE.equals(v) ? "false" : "true"); // never null
                case "in_list" -> {
                    List<?> list = v instanceof List<?> l ? l : List.of(v);
                    if (list.isEmpty()) {
                        terms.add("false");
                    } else {
                        terms.add(
                                c + " in (" + String.join(", ", java.util.Collections.nCopies(list.size(), "?")) + ")");
                        list.forEach(x -> params.add(value(x, number)));
                    }
                }
                case "range" -> {
                    Map<String, Object> range = object("range", v);
                    if (range.get("start") != null) {
                        term(c + " >= ?", value(range.get("start"), number), terms, params);
                    }
                    if (range.get("end") != null) {
                        term(c + " <= ?", value(range.get("end"), number), terms, params);
                    }
                }
                default ->
                    throw new FilterTranslator.BadFilter(
                            "ContentTypeFilter: lookup '" + e.getKey() + "' is not supported.");
            }
        }
    }

    private static void term(String sql, Object param, List<String> terms, List<Object> params) {
        terms.add("(" + sql + ")");
        if (param instanceof List<?> list) {
            params.addAll(list);
        } else {
            params.add(param);
        }
    }

    private static void add(ExtraFilter.Sql sql, List<String> terms, List<Object> params) {
        terms.add("(" + sql.sql() + ")");
        params.addAll(sql.params());
    }

    private static Object value(Object v, boolean number) {
        if (!number) {
            return text(v);
        }
        Object id = FilterTranslator.id(v);
        if (id instanceof Long || id instanceof Integer) {
            return ((Number) id).longValue();
        }
        if (id instanceof Number n) {
            return n.longValue();
        }
        throw new FilterTranslator.BadFilter("ContentTypeFilter: id must be a number.");
    }

    private static String text(Object v) {
        String s = String.valueOf(v);
        if (s.indexOf('\u0000') >= 0) {
            throw new FilterTranslator.BadFilter("ContentTypeFilter: Null characters are not allowed.");
        }
        return s;
    }

    private static String regex(Object v) {
        String s = text(v);
        try {
            Pattern.compile(s);
        } catch (PatternSyntaxException e) {
            throw new FilterTranslator.BadFilter("ContentTypeFilter: invalid regular expression.");
        }
        return s;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(String key, Object value) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new FilterTranslator.BadFilter("ContentTypeFilter: '" + key + "' takes an input object.");
    }
}
