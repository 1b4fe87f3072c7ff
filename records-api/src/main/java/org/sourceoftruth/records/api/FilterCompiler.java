package org.sourceoftruth.records.api;

import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.db.Db;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.model.ChildFilter;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.RelationFilter;
import org.sourceoftruth.records.model.Row;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Turns list query parameters into one SQL WHERE clause, following NetBox's filtersets:
 * every field is a filter, lookups by field kind ({@code name__ic}, {@code id__gte}, ...),
 * repeated values OR (negated lookups NOR), different parameters AND, tags AND, {@code cf_*}
 * by the custom field's filter logic, {@code q} free text, {@code *_by_request} via the change
 * log. Bad values are 400 naming the parameter. Unknown parameters are ignored as NetBox does,
 * or 400 under STRICT_FILTERING. Filters NetBox declares the same way on many filtersets are
 * derived from the model's relations (see {@link #derived}), not declared per model.
 */
@ApplicationScoped
public class FilterCompiler {
    /** Query parameters that are not filters (NetBox's reserved list). */
    public static final Set<String> RESERVED = Set.of("limit", "offset", "start", "ordering", "brief", "fields", "omit",
            "exclude", "export", "format", "changelog_message");

    static final List<String> STRING_LOOKUPS = List.of("n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie",
            "empty", "regex", "iregex");
    static final List<String> NUMBER_LOOKUPS = List.of("n", "lt", "lte", "gt", "gte", "empty");
    private static final Set<String> ALL_LOOKUPS = new LinkedHashSet<>();

    static {
        ALL_LOOKUPS.addAll(STRING_LOOKUPS);
        ALL_LOOKUPS.addAll(NUMBER_LOOKUPS);
        ALL_LOOKUPS.add("any");
    }

    @Inject
    ModelRegistry registry;
    @Inject
    CustomFields customFields;
    @Inject
    ApiConfig config;
    /** STRICT_FILTERING as configured; tests switch it with {@link #strictFiltering(boolean)}. */
    private volatile Boolean strictFiltering;

    /** Switches STRICT_FILTERING at run time (tests); {@code null} goes back to the configured value. */
    public void strictFiltering(Boolean strict) {
        strictFiltering = strict;
    }

    private boolean strict() {
        Boolean s = strictFiltering;
        return s != null ? s : config.strictFiltering();
    }

    /** A compiled WHERE clause over alias {@code t} ("true" when there is no filter). */
    public record Where(String sql, List<Object> params) {
    }

    public Where compile(Db db, Model model, Map<String, List<String>> query) {
        List<String> clauses = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : query.entrySet()) {
            String param = e.getKey();
            if (RESERVED.contains(param) || (param.equals("exclude"))) {
                continue;
            }
            List<String> values = e.getValue().stream().filter(v -> !v.isEmpty()).toList();
            if (values.isEmpty()) {
                continue; // django-filter ignores empty values
            }
            try {
                ExtraFilter.Sql sql = compileOne(db, model, param, values);
                if (sql == null) {
                    if (strict()) {
                        errors.put(param, List.of("Unknown filter parameter. Set STRICT_FILTERING=false to ignore"
                                + " unknown parameters as NetBox does."));
                    }
                    continue;
                }
                clauses.add("(" + sql.sql() + ")");
                params.addAll(sql.params());
            } catch (FilterError fe) {
                errors.put(param, List.of(fe.getMessage()));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.fields(errors);
        }
        return new Where(clauses.isEmpty() ? "true" : String.join(" and ", clauses), params);
    }

    /** A bad filter value; the message goes into the 400 body under the parameter name. */
    static final class FilterError extends RuntimeException {
        FilterError(String message) {
            super(message, null, false, false);
        }
    }

    private ExtraFilter.Sql compileOne(Db db, Model model, String param, List<String> values) {
        String base = param;
        String lookup = null;
        int sep = param.lastIndexOf("__");
        if (sep > 0 && ALL_LOOKUPS.contains(param.substring(sep + 2))) {
            base = param.substring(0, sep);
            lookup = param.substring(sep + 2);
        }
        ExtraFilter extra = model.extraFilters().get(param);
        if (extra != null) {
            List<Object> parsed = new ArrayList<>();
            for (String v : values) {
                parsed.add(parse(extra.valueKind(), v, null));
            }
            if (extra.choices() != null) {
                requireExisting(db, extra.choices().table(), extra.choices().column(), extra.valueKind(), parsed);
            }
            return extra.predicate().build("t", parsed);
        }
        RelationFilter relation = model.relationFilters().get(base);
        if (relation != null) {
            return lookup == null || lookup.equals("n") ? relation(db, model, relation, lookup, values) : null;
        }
        ChildFilter child = model.childFilters().get(base);
        if (child != null) {
            return childFilter(db, child, lookup, values);
        }
        switch (base) {
            case "q" -> {
                return lookup == null ? search(model, values) : null;
            }
            case "tag", "tag_id" -> {
                return model.hasTags() ? tags(db, model, base, lookup, values) : null;
            }
            case "created_by_request", "updated_by_request", "modified_by_request" -> {
                return lookup == null ? byRequest(model, base, values) : null;
            }
            default -> {
            }
        }
        if (base.startsWith("cf_") && model.hasCustomFields()) {
            CustomFieldDef def = customFields.find(db, model.contentType(), base.substring(3));
            return def == null || "disabled".equals(def.filterLogic()) ? null : customField(def, lookup, values);
        }
        Field field = model.field(base);
        if (field != null && field.unsetFilterKind() != null) {
            // a relation or count of a model not built yet: NetBox's filter over the unset value
            return column(field.unsetSql(), field.unsetFilterKind(), field, lookup, values);
        }
        if (field != null && field.kind == Kind.COUNT) {
            // NetBox's counter caches (interface_count, ...) are model fields, hence number filters
            return column(countExpression(field), Kind.INTEGER, null, lookup, values);
        }
        if (field != null && field.isSecret()) {
            return secret(model, field, lookup, values);
        }
        for (Field f : model.fields()) {
            boolean byName = f.kind == Kind.STRING_LIST && base.equals(f.name);
            if (f.hasObjectTypeIds() && (byName || base.equals(objectTypeIdFilter(f)))) {
                return lookup == null || lookup.equals("n") ? objectTypes(f, byName, lookup, values) : null;
            }
        }
        if (field != null && field.isFilterable()) {
            return switch (field.kind) {
                case FK -> lookup == null || lookup.equals("n") ? fkBySlug(db, field, param, lookup, values) : null;
                case STRING_LIST -> lookup == null ? arrayContains(field.column(), values) : null;
                case M2M, TAGS, CUSTOM_FIELDS, COUNT, COMPUTED, JSON, GENERIC_FK -> null;
                default -> column(field.filterExpression(), field.kind, field, lookup, values);
            };
        }
        for (Field f : model.fields()) {
            if (f.kind == Kind.FK && f.isFilterable() && base.equals(f.column())) {
                return lookup == null || lookup.equals("n") ? fkById(db, f, lookup, values) : null;
            }
            if (f.kind == Kind.GENERIC_FK && base.equals(f.genericTypeColumn())) {
                return column("t." + base, Kind.STRING, null, lookup, values);
            }
            if (f.kind == Kind.GENERIC_FK && base.equals(f.genericIdColumn())) {
                return column("t." + base, Kind.INTEGER, null, lookup, values);
            }
            if (f.kind == Kind.STRING_LIST && f.isFilterable() && f.name.endsWith("s")
                    && base.equals(f.name.substring(0, f.name.length() - 1))) {
                return lookup == null ? arrayContains(f.column(), values) : elementLookup(f.column(), lookup, values);
            }
        }
        return derived(db, model, param, base, lookup, values);
    }

    /**
     * A string lookup on the elements of a text array ({@code object_type__ic} on
     * {@code object_types}): some element matches; negated lookups: no element matches.
     */
    private ExtraFilter.Sql elementLookup(String column, String lookup, List<String> values) {
        boolean negated = lookup.equals("n") || (lookup.startsWith("n") && STRING_LOOKUPS.contains(lookup.substring(1)));
        String positive = lookup.equals("n") ? null : negated ? lookup.substring(1) : lookup;
        if ("empty".equals(positive)) {
            return null;
        }
        ExtraFilter.Sql any = column("e.v", Kind.STRING, null, positive, values);
        if (any == null) {
            return null;
        }
        String sql = "exists (select 1 from unnest(t." + column + ") e(v) where " + any.sql() + ")";
        return new ExtraFilter.Sql(negated ? "not " + sql : sql, any.params());
    }

    /** Where NetBox names a counted relation's number: the counter column or a count subquery. */
    public static String countExpression(Field f) {
        return f.counterColumn() != null ? "t." + f.counterColumn()
                : "(select count(*) from " + f.countTable() + " c where c." + f.countColumn() + " = t.id"
                + (f.countWhere() == null ? "" : " and (" + f.countWhere() + ")") + ")";
    }

    private static final Set<String> PLACEMENTS = Set.of("region", "site_group", "site", "location", "rack");

    /**
     * Filters NetBox's filtersets declare alike on many models, derived here from the model's
     * relations so that no model has to repeat them:
     * <ul>
     * <li>{@code ancestor}/{@code ancestor_id} on tree models: the nodes below the given ones;</li>
     * <li>{@code <relation>_<filter>} through a foreign key: {@code tenant_group} is the tenant's
     *     {@code group}, {@code site_group} the site's, {@code device_status} the device's
     *     {@code status};</li>
     * <li>placement filters ({@code region}, {@code site_id}, {@code location}, ...) through the
     *     object's site, device or virtual machine (an interface's site is its device's);</li>
     * <li>{@code __n} of all of these and of declared extra filters: the objects the filter
     *     without it does not match, objects without the relation included (Django's exclude()).</li>
     * </ul>
     * Returns null when nothing applies (an unknown filter).
     */
    private ExtraFilter.Sql derived(Db db, Model model, String param, String base, String lookup, List<String> values) {
        if ("n".equals(lookup)) {
            ExtraFilter extra = model.extraFilters().get(base);
            ExtraFilter.Sql positive = extra != null && extra.valueKind() != Kind.BOOLEAN
                    ? compileOne(db, model, base, values)
                    : derived(db, model, base, base, null, values);
            return positive == null ? null
                    : new ExtraFilter.Sql("coalesce(not (" + positive.sql() + "), true)", positive.params());
        }
        ExtraFilter.Sql unbuilt = lookup == null ? UnbuiltRelations.filter(db, model.contentType(), base, values) : null;
        if (unbuilt != null) {
            return unbuilt;
        }
        if (model.treeParent() != null && (base.equals("ancestor") || base.equals("ancestor_id")) && lookup == null) {
            // the parent is the node or below it: TreeNodeMultipleChoiceFilter(field_name="parent")
            Field parent = model.field(model.treeParent());
            return base.equals("ancestor") ? fkBySlug(db, parent, param, null, values) : fkById(db, parent, null, values);
        }
        for (Field hop : model.fields()) {
            if (hop.kind == Kind.FK && hop.isFilterable() && base.startsWith(hop.name + "_")) {
                String rest = param.substring(hop.name.length() + 1);
                ExtraFilter.Sql sql = through(db, hop, rest, values);
                if (sql != null) {
                    return sql;
                }
            }
        }
        String place = base.endsWith("_id") ? base.substring(0, base.length() - 3) : base;
        if (PLACEMENTS.contains(place)) {
            for (String hopName : model.placementHops()) {
                Field hop = model.field(hopName);
                if (hop != null && hop.kind == Kind.FK && !hopName.equals(place)) {
                    ExtraFilter.Sql sql = through(db, hop, param, values);
                    if (sql != null) {
                        return sql;
                    }
                }
            }
        }
        return null;
    }

    /**
     * A secret (a token's key): {@code key=} matches exactly on every object, so a client can
     * find its token by key as in NetBox; NetBox's other lookups ({@code key__isw}, ...) would let
     * a caller guess keys a character at a time, so they only see the objects whose secrets the
     * caller may read anyway ({@link Model#secretsFilterScope}), and match no other object.
     */
    private ExtraFilter.Sql secret(Model model, Field field, String lookup, List<String> values) {
        ExtraFilter.Sql match = column("t." + field.column(), Kind.STRING, null, lookup, values);
        if (lookup == null || match == null) {
            return match;
        }
        ExtraFilter.Sql scope = model.secretsFilterScope().get();
        List<Object> params = new ArrayList<>(scope.params());
        params.addAll(match.params());
        return new ExtraFilter.Sql("(" + scope.sql() + ") and (" + match.sql() + ")", params);
    }

    /** Values of a filter that must name existing rows (NetBox's ModelChoiceFilter): a 400 for any other. */
    static void requireExisting(Db db, String table, String column, Kind kind, List<Object> values) {
        List<Object> wanted = values.stream().filter(v -> v != null && !"null".equals(v)).toList();
        if (wanted.isEmpty()) {
            return;
        }
        Set<String> found = new LinkedHashSet<>();
        db.query("select " + column + "::text as k from " + table + " where " + column + " = any(?)",
                new Db.SqlArray(kind == Kind.INTEGER ? "bigint" : "text", wanted)).forEach(r -> found.add(r.str("k")));
        for (Object v : wanted) {
            if (!found.contains(v.toString())) {
                throw new FilterError("Select a valid choice. " + v + " is not one of the available choices.");
            }
        }
    }

    /** {@code object_type_id} for {@code object_types}, {@code changed_object_type_id} for a generic relation's type. */
    private static String objectTypeIdFilter(Field f) {
        String names = f.kind == Kind.GENERIC_FK ? f.genericTypeColumn() : f.name;
        return (f.kind == Kind.STRING_LIST && names.endsWith("s") ? names.substring(0, names.length() - 1) : names) + "_id";
    }

    /**
     * NetBox's filters on object types by id ({@code object_type_id}, {@code changed_object_type_id},
     * and {@code object_types} itself on tags and permissions). Object-type ids are the ids of
     * NetBox's core/object-types, which this service does not serve yet: no id names an object
     * type here, so every id is a 400 (as NetBox answers for an unknown id) rather than a guess
     * that could pick the wrong objects; {@code null} matches objects without one. On
     * {@code object_types} a type name ("dcim.site") is also accepted, as this service always did.
     */
    private static ExtraFilter.Sql objectTypes(Field f, boolean byName, String lookup, List<String> values) {
        String col = "t." + (f.kind == Kind.GENERIC_FK ? f.genericTypeColumn() : f.column());
        boolean list = f.kind == Kind.STRING_LIST;
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (String v : values) {
            if (v.equals("null")) {
                parts.add(list ? "coalesce(cardinality(" + col + "), 0) = 0" : col + " is null");
                continue;
            }
            if (!byName || v.trim().matches("\\d+")) {
                Object id = parse(Kind.INTEGER, v, null);
                throw new FilterError("Select a valid choice. " + id + " is not one of the available choices.");
            }
            parts.add(list ? "? = any(" + col + ")" : col + " = ?");
            params.add(v);
        }
        String sql = String.join(" or ", parts);
        return new ExtraFilter.Sql("n".equals(lookup) ? "coalesce(not (" + sql + "), true)" : sql, params);
    }

    /**
     * A {@link RelationFilter}: the path's fields are followed from the object (each foreign key
     * or many-to-many a subquery over the next model, alias t shadowing the outer one), the last
     * one compared with the ids of the target objects having one of the given keys.
     */
    private ExtraFilter.Sql relation(Db db, Model model, RelationFilter relation, String lookup, List<String> values) {
        List<Field> hops = new ArrayList<>();
        List<Model> owners = new ArrayList<>();
        Model current = model;
        for (String name : relation.path()) {
            Field hop = current.field(name);
            if (hop == null || (hop.kind != Kind.FK && hop.kind != Kind.M2M)) {
                throw new IllegalStateException(model.contentType() + ": relation filter " + relation.name()
                        + " does not follow a relation at " + name);
            }
            owners.add(current);
            hops.add(hop);
            current = registry.require(hop.target());
        }
        Model target = current;
        String key = relation.key();
        Kind keyKind = key.equals("id") ? Kind.INTEGER : target.field(key).kind;
        List<Object> wanted = new ArrayList<>();
        for (String v : values) {
            if (!v.equals("null")) {
                Object parsed = parse(keyKind, v, null);
                wanted.add(parsed instanceof Cidr.Parsed p ? p.text() : parsed);
            }
        }
        boolean network = keyKind == Kind.INET || keyKind == Kind.CIDR;
        String keyIn = network ? key + " = any(?::" + keyKind.name().toLowerCase(Locale.ROOT) + "[])" : key + " = any(?)";
        Db.SqlArray keys = new Db.SqlArray(keyKind == Kind.INTEGER ? "bigint" : "text", wanted);
        if (!wanted.isEmpty()) {
            Set<String> found = new LinkedHashSet<>();
            db.query("select " + key + "::text as k from " + target.table() + " where " + keyIn, keys)
                    .forEach(r -> found.add(r.str("k")));
            for (int i = 0; i < wanted.size(); i++) {
                if (!found.contains(wanted.get(i).toString())) {
                    throw new FilterError("Select a valid choice. " + values.stream().filter(v -> !v.equals("null"))
                            .toList().get(i) + " is not one of the available choices.");
                }
            }
        }
        Field last = hops.get(hops.size() - 1);
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        String ids = "select id from " + target.table() + " where " + keyIn;
        if (!wanted.isEmpty()) {
            parts.add(last.kind == Kind.FK ? "t." + last.column() + " in (" + ids + ")"
                    : "t.id in (select " + last.joinOwnColumn() + " from " + last.joinTable() + " where "
                    + last.joinTargetColumn() + " in (" + ids + "))");
            params.add(keys);
        }
        if (values.contains("null")) {
            parts.add(last.kind == Kind.FK ? "t." + last.column() + " is null"
                    : "not exists (select 1 from " + last.joinTable() + " j where j." + last.joinOwnColumn() + " = t.id)");
        }
        String sql = String.join(" or ", parts);
        for (int i = hops.size() - 2; i >= 0; i--) {
            Field hop = hops.get(i);
            String next = registry.require(hop.target()).table();
            sql = hop.kind == Kind.FK
                    ? "t." + hop.column() + " in (select t.id from " + next + " t where " + sql + ")"
                    : "t.id in (select j." + hop.joinOwnColumn() + " from " + hop.joinTable() + " j where j."
                    + hop.joinTargetColumn() + " in (select t.id from " + next + " t where " + sql + "))";
        }
        return new ExtraFilter.Sql("n".equals(lookup) ? "coalesce(not (" + sql + "), true)" : sql, params);
    }

    /** A {@link ChildFilter}: some related object matches the filter; negated lookups: none does. */
    private ExtraFilter.Sql childFilter(Db db, ChildFilter filter, String lookup, List<String> values) {
        Model child = registry.require(filter.childType());
        boolean negated = lookup != null
                && (lookup.equals("n") || (lookup.startsWith("n") && STRING_LOOKUPS.contains(lookup.substring(1))));
        String positive = negated ? (lookup.equals("n") ? null : lookup.substring(1)) : lookup;
        ExtraFilter.Sql inner = compileOne(db, child, positive == null ? filter.name() : filter.name() + "__" + positive,
                values);
        if (inner == null) {
            return null;
        }
        String fk = child.field(filter.childFk()).column();
        String sql = "t.id in (select t." + fk + " from " + child.table() + " t where t." + fk + " is not null and ("
                + inner.sql() + "))";
        return new ExtraFilter.Sql(negated ? "not (" + sql + ")" : sql, inner.params());
    }

    /** The filter {@code param} of the related model, applied to the objects related by {@code hop}. */
    private ExtraFilter.Sql through(Db db, Field hop, String param, List<String> values) {
        Model target = registry.require(hop.target());
        ExtraFilter.Sql inner = compileOne(db, target, param, values);
        if (inner == null) {
            return null;
        }
        // the subquery's alias t shadows the outer one: the inner filter sees the related row
        return new ExtraFilter.Sql("t." + hop.column() + " in (select t.id from " + target.table() + " t where "
                + inner.sql() + ")", inner.params());
    }

    /** Plain column filter with NetBox's lookup semantics. */
    private ExtraFilter.Sql column(String col, Kind kind, Field field, String lookup, List<String> values) {
        boolean stringy = kind == Kind.STRING || kind == Kind.SLUG || kind == Kind.CHOICE;
        boolean numeric = kind == Kind.INTEGER || kind == Kind.DECIMAL || kind == Kind.DATE || kind == Kind.DATETIME;
        if (lookup != null) {
            boolean allowed = (stringy && STRING_LOOKUPS.contains(lookup)) || (numeric && NUMBER_LOOKUPS.contains(lookup))
                    || ((kind == Kind.INET || kind == Kind.CIDR) && lookup.equals("n"));
            if (!allowed) {
                return null;
            }
        } else if (kind == Kind.BOOLEAN || stringy || numeric || kind == Kind.INET || kind == Kind.CIDR) {
            lookup = "exact";
        } else {
            return null;
        }
        if (lookup.equals("empty")) {
            boolean empty = parseBoolean(values.get(values.size() - 1));
            String isEmpty = stringy ? "(" + col + " is null or " + col + " = '')" : col + " is null";
            return ExtraFilter.Sql.of(empty ? isEmpty : "not " + isEmpty);
        }
        boolean negated = lookup.startsWith("n") && !lookup.equals("n") || lookup.equals("n");
        String positive = negated ? (lookup.equals("n") ? "exact" : lookup.substring(1)) : lookup;
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (String raw : values) {
            if (raw.equals("null") && (positive.equals("exact"))) {
                parts.add(col + " is null");
                continue;
            }
            String textValue = raw;
            switch (positive) {
                case "exact" -> {
                    Object v = parse(kind, raw, field);
                    if (kind == Kind.INET || kind == Kind.CIDR) {
                        parts.add(col + " = ?::" + kind.name().toLowerCase(Locale.ROOT));
                        params.add(v.toString());
                    } else {
                        parts.add(col + " = ?");
                        params.add(v);
                    }
                }
                case "ie" -> {
                    parts.add("lower(" + col + ") = lower(?)");
                    params.add(textValue);
                }
                case "ic" -> {
                    parts.add(col + " ilike ?");
                    params.add("%" + like(textValue) + "%");
                }
                case "isw" -> {
                    parts.add(col + " ilike ?");
                    params.add(like(textValue) + "%");
                }
                case "iew" -> {
                    parts.add(col + " ilike ?");
                    params.add("%" + like(textValue));
                }
                case "regex", "iregex" -> {
                    checkRegex(textValue);
                    parts.add(col + (positive.equals("regex") ? " ~ ?" : " ~* ?"));
                    params.add(textValue);
                }
                case "lt", "lte", "gt", "gte" -> {
                    String op = switch (positive) {
                        case "lt" -> "<";
                        case "lte" -> "<=";
                        case "gt" -> ">";
                        default -> ">=";
                    };
                    parts.add(col + " " + op + " ?");
                    params.add(parse(kind, raw, field));
                }
                default -> {
                    return null;
                }
            }
        }
        if (negated) {
            // Django's exclude(): rows whose value is NULL are kept, and every value is excluded.
            List<String> neg = parts.stream().map(p -> "coalesce(not (" + p + "), true)").toList();
            return new ExtraFilter.Sql(String.join(" and ", neg), params);
        }
        return new ExtraFilter.Sql(String.join(" or ", parts), params);
    }

    private static void checkRegex(String value) {
        try {
            java.util.regex.Pattern.compile(value);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new FilterError("Invalid regular expression: " + e.getDescription());
        }
    }

    private static String like(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    /** Parses one filter value of the given kind, or throws a NetBox-worded FilterError. */
    static Object parse(Kind kind, String raw, Field field) {
        switch (kind) {
            case INTEGER -> {
                try {
                    return Long.parseLong(raw.trim());
                } catch (NumberFormatException e) {
                    throw new FilterError("Enter a whole number.");
                }
            }
            case DECIMAL -> {
                try {
                    return new BigDecimal(raw.trim());
                } catch (NumberFormatException e) {
                    throw new FilterError("Enter a number.");
                }
            }
            case BOOLEAN -> {
                return parseBoolean(raw);
            }
            case DATE -> {
                try {
                    return LocalDate.parse(raw.trim());
                } catch (DateTimeParseException e) {
                    throw new FilterError("Enter a valid date.");
                }
            }
            case DATETIME -> {
                return parseDateTime(raw);
            }
            case CHOICE -> {
                if (field != null && !field.choices().contains(raw)) {
                    throw new FilterError("Select a valid choice. " + raw + " is not one of the available choices.");
                }
                return raw;
            }
            case INET, CIDR -> {
                Cidr.Parsed p = Cidr.parse(raw, kind == Kind.CIDR).orElseThrow(() -> new FilterError(
                        (kind == Kind.CIDR ? "Invalid IP prefix format: " : "Invalid IP address format: ") + raw));
                return kind == Kind.CIDR ? p.network() : p;
            }
            default -> {
                return raw;
            }
        }
    }

    static boolean parseBoolean(String raw) {
        return switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new FilterError("Select a valid choice. " + raw + " is not one of the available choices.");
        };
    }

    static OffsetDateTime parseDateTime(String raw) {
        String s = raw.trim().replace(' ', 'T');
        try {
            return OffsetDateTime.parse(s);
        } catch (DateTimeParseException e) {
            try {
                if (s.length() == 10) {
                    return LocalDate.parse(s).atStartOfDay().atOffset(ZoneOffset.UTC);
                }
                return java.time.LocalDateTime.parse(s).atOffset(ZoneOffset.UTC);
            } catch (DateTimeParseException e2) {
                throw new FilterError("Enter a valid date/time.");
            }
        }
    }

    private ExtraFilter.Sql search(Model model, List<String> values) {
        if (model.searchColumns().isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (String v : values) {
            for (String col : model.searchColumns()) {
                parts.add(col + "::text ilike ?");
                params.add("%" + like(v.trim()) + "%");
            }
        }
        return new ExtraFilter.Sql(String.join(" or ", parts), params);
    }

    /** FK given by slug (or name for models without slugs); tree targets match descendants. */
    private ExtraFilter.Sql fkBySlug(Db db, Field field, String param, String lookup, List<String> values) {
        Model target = registry.require(field.target());
        if (target.field("slug") == null && target.field("name") == null) {
            return null; // no natural key (e.g. IP addresses): only the _id form filters
        }
        String key = target.field("slug") != null ? "slug" : "name";
        List<String> wanted = values.stream().filter(v -> !v.equals("null")).toList();
        if (!wanted.isEmpty()) {
            Set<String> found = new LinkedHashSet<>();
            for (Row r : db.query("select " + key + " as k from " + target.table() + " where " + key + " = any(?)",
                    new Db.SqlArray("text", wanted))) {
                found.add(r.str("k"));
            }
            for (String v : wanted) {
                if (!found.contains(v)) {
                    throw new FilterError("Select a valid choice. " + v + " is not one of the available choices.");
                }
            }
        }
        String ids = target.treeParent() == null
                ? "select id from " + target.table() + " where " + key + " = any(?)"
                : descendants(target, key);
        return fkPredicate(field, lookup, values, ids, new Db.SqlArray("text", wanted));
    }

    private ExtraFilter.Sql fkById(Db db, Field field, String lookup, List<String> values) {
        Model target = registry.require(field.target());
        List<Long> wanted = new ArrayList<>();
        for (String v : values) {
            if (!v.equals("null")) {
                wanted.add((Long) parse(Kind.INTEGER, v, null));
            }
        }
        if (!wanted.isEmpty()) {
            Set<Long> found = new LinkedHashSet<>();
            db.query("select id from " + target.table() + " where id = any(?)", new Db.SqlArray("bigint", wanted))
                    .forEach(r -> found.add(r.id()));
            for (Long v : wanted) {
                if (!found.contains(v)) {
                    throw new FilterError("Select a valid choice. " + v + " is not one of the available choices.");
                }
            }
        }
        String ids = target.treeParent() == null
                ? "select id from " + target.table() + " where id = any(?)"
                : descendants(target, "id");
        return fkPredicate(field, lookup, values, ids, new Db.SqlArray("bigint", wanted));
    }

    private static String descendants(Model tree, String key) {
        String parentCol = tree.field(tree.treeParent()).column();
        return "with recursive d(id) as (select id from " + tree.table() + " where " + key + " = any(?)"
                + " union select c.id from " + tree.table() + " c join d on c." + parentCol + " = d.id) select id from d";
    }

    private static ExtraFilter.Sql fkPredicate(Field field, String lookup, List<String> values, String idsSql,
                                               Object param) {
        boolean wantsNull = values.contains("null");
        boolean hasValues = values.stream().anyMatch(v -> !v.equals("null"));
        String col = "t." + field.column();
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        if (hasValues) {
            parts.add(col + " in (" + idsSql + ")");
            params.add(param);
        }
        if (wantsNull) {
            parts.add(col + " is null");
        }
        String sql = String.join(" or ", parts);
        if ("n".equals(lookup)) {
            sql = "coalesce(not (" + sql + "), true)";
        }
        return new ExtraFilter.Sql(sql, params);
    }

    private static ExtraFilter.Sql arrayContains(String column, List<String> values) {
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (String v : values) {
            parts.add("? = any(t." + column + ")");
            params.add(v);
        }
        return new ExtraFilter.Sql(String.join(" or ", parts), params);
    }

    /** tag / tag_id: AND over repeated values; tag__any: OR; tag__n: carries none of them. */
    private ExtraFilter.Sql tags(Db db, Model model, String base, String lookup, List<String> values) {
        if (lookup != null && !lookup.equals("n") && !lookup.equals("any")) {
            return null;
        }
        boolean bySlug = base.equals("tag");
        List<Object> keys = new ArrayList<>();
        for (String v : values) {
            keys.add(bySlug ? v : parse(Kind.INTEGER, v, null));
        }
        String col = bySlug ? "slug" : "id";
        Set<Object> found = new LinkedHashSet<>();
        db.query("select " + col + " as k from extras_tag where " + col + " = any(?)",
                new Db.SqlArray(bySlug ? "text" : "bigint", keys)).forEach(r -> found.add(r.get("k")));
        for (Object k : keys) {
            if (!found.contains(k)) {
                throw new FilterError("Select a valid choice. " + k + " is not one of the available choices.");
            }
        }
        String one = "exists (select 1 from extras_taggeditem ti join extras_tag g on g.id = ti.tag_id"
                + " where ti.object_type = ? and ti.object_id = t.id and g." + col + " = ?)";
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (Object k : keys) {
            parts.add(one);
            params.add(model.contentType());
            params.add(k);
        }
        if ("n".equals(lookup)) {
            return new ExtraFilter.Sql(String.join(" and ", parts.stream().map(p -> "not " + p).toList()), params);
        }
        return new ExtraFilter.Sql(String.join("any".equals(lookup) ? " or " : " and ", parts), params);
    }

    private static ExtraFilter.Sql byRequest(Model model, String base, List<String> values) {
        String actions = switch (base) {
            case "created_by_request" -> "'create'";
            case "updated_by_request" -> "'update'";
            default -> "'create','update'";
        };
        List<Object> params = new ArrayList<>();
        params.add(model.contentType());
        List<UUID> ids = new ArrayList<>();
        for (String v : values) {
            try {
                ids.add(UUID.fromString(v.trim()));
            } catch (IllegalArgumentException e) {
                throw new FilterError("Enter a valid UUID.");
            }
        }
        params.add(new Db.SqlArray("uuid", ids));
        return new ExtraFilter.Sql("t.id in (select changed_object_id from core_objectchange where changed_object_type = ?"
                + " and request_id = any(?) and action in (" + actions + "))", params);
    }

    /** cf_<name>: typed comparison on custom_field_data; loose text filters are case-insensitive contains. */
    private ExtraFilter.Sql customField(CustomFieldDef def, String lookup, List<String> values) {
        String key = def.name().replace("'", "''");
        String text = "(t.custom_field_data->>'" + key + "')";
        switch (def.type()) {
            case "text", "longtext", "url", "select" -> {
                if (lookup == null && "loose".equals(def.filterLogic()) && !def.type().equals("select")) {
                    lookup = "ic";
                }
                return column(text, Kind.STRING, null, lookup, values);
            }
            case "integer" -> {
                return column("(" + text + ")::bigint", Kind.INTEGER, null, lookup, values);
            }
            case "decimal" -> {
                return column("(" + text + ")::numeric", Kind.DECIMAL, null, lookup, values);
            }
            case "boolean" -> {
                return column("(" + text + ")::boolean", Kind.BOOLEAN, null, lookup, values);
            }
            case "date" -> {
                return column("(" + text + ")::date", Kind.DATE, null, lookup, values);
            }
            case "object" -> {
                return column("(" + text + ")::bigint", Kind.INTEGER, null, lookup, values);
            }
            case "multiselect" -> {
                if (lookup != null && !lookup.equals("n")) {
                    return null;
                }
                List<String> parts = new ArrayList<>();
                List<Object> params = new ArrayList<>();
                for (String v : values) {
                    parts.add("coalesce(jsonb_exists(t.custom_field_data->'" + key + "', ?), false)");
                    params.add(v);
                }
                String sql = String.join(" or ", parts);
                return new ExtraFilter.Sql(lookup == null ? sql : "not (" + sql + ")", params);
            }
            default -> {
                return null;
            }
        }
    }
}
