package org.sourceoftruth.records.engine.query;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.customfields.CustomFieldDef;
import org.sourceoftruth.records.engine.customfields.CustomFields;
import org.sourceoftruth.records.fieldtype.BooleanType;
import org.sourceoftruth.records.fieldtype.CountType;
import org.sourceoftruth.records.fieldtype.FieldFilter;
import org.sourceoftruth.records.fieldtype.FieldTypes;
import org.sourceoftruth.records.fieldtype.InvalidValue;
import org.sourceoftruth.records.fieldtype.Lookup;
import org.sourceoftruth.records.fieldtype.LookupCompiler;
import org.sourceoftruth.records.model.ChildFilter;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.RelationFilter;
import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.ApiException;

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
    public static final Set<String> RESERVED = Set.of(
            "limit",
            "offset",
            "start",
            "ordering",
            "brief",
            "fields",
            "omit",
            "exclude",
            "export",
            "format",
            "changelog_message");
    /**
     * NetBox 4.6's cursor parameter ({@code ?start=<pk>}). It was no reserved word in NetBox 4.4,
     * whose API this service follows, and one filterset has a filter of that name: an ASN range's
     * {@code start}. NetBox 4.6's paginator reads {@code start} on every list, so there
     * {@code ?start=64512} on asn-ranges both filters and pages (pk >= 64512): a collision, not a
     * rule to copy. The rule here, for every model alike: when the model has a filter named
     * {@code start}, the parameter is that filter, as in 4.4, and the list pages by offset;
     * everywhere else it is the cursor. The other reserved words were reserved in 4.4 already.
     */
    public static final String CURSOR = "start";

    private static final Set<String> ALL_LOOKUPS = new LinkedHashSet<>();

    static {
        ALL_LOOKUPS.addAll(Lookup.TEXT_FILTERS);
        ALL_LOOKUPS.addAll(Lookup.NUMBER_FILTERS);
        ALL_LOOKUPS.add("any");
    }

    @Inject
    ModelRegistry registry;

    @Inject
    CustomFields customFields;

    @Inject
    ApiConfig config;

    @Inject
    RelationFilters relations;

    private final Map<String, Map<String, FieldFilter>> fieldFilters = new ConcurrentHashMap<>();
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
    public record Where(String sql, List<Object> params) {}

    public Where compile(Db db, Model model, Map<String, List<String>> request) {
        Map<String, List<String>> query = SavedFilterParameters.merge(db, request, strict());
        List<String> clauses = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        Map<String, List<String>> errors = new LinkedHashMap<>();
        // In name order, whatever order the request's parameters arrive in: the same filters
        // then make the same statement text, which the driver keeps prepared on the server.
        for (Map.Entry<String, List<String>> e : new TreeMap<>(query).entrySet()) {
            String param = e.getKey();
            if (RESERVED.contains(param) && !cursorIsFilter(model, param)) {
                continue;
            }
            List<String> values =
                    e.getValue().stream().filter(v -> !v.isEmpty()).toList();
            if (values.isEmpty()) {
                continue; // django-filter ignores empty values
            }
            try {
                ExtraFilter.Sql sql = compileOne(db, model, param, values);
                if (sql == null) {
                    if (strict()) {
                        errors.put(
                                param,
                                List.of("Unknown filter parameter. Set STRICT_FILTERING=false to ignore"
                                        + " unknown parameters as NetBox does."));
                    }
                    continue;
                }
                clauses.add("(" + sql.sql() + ")");
                params.addAll(sql.params());
            } catch (FilterError | InvalidValue fe) {
                errors.put(param, List.of(fe.getMessage()));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.fields(errors);
        }
        return new Where(clauses.isEmpty() ? "true" : String.join(" and ", clauses), params);
    }

    /** Whether {@code param} is the cursor parameter and a filter of the model's own (see {@link #CURSOR}). */
    public boolean cursorIsFilter(Model model, String param) {
        return CURSOR.equals(param) && declares(model, param);
    }

    /** Whether the model declares a filter of exactly this name (a field's, a relation's or an extra one). */
    private boolean declares(Model model, String param) {
        return model.extraFilters().containsKey(param)
                || model.relationFilters().containsKey(param)
                || model.childFilters().containsKey(param)
                || fieldFilters(model).containsKey(param);
    }

    /** A bad filter value; the message goes into the 400 body under the parameter name. */
    static final class FilterError extends RuntimeException {
        FilterError(String message) {
            super(message, null, false, false);
        }

        /** NetBox's answer for a value that names no choice (or no existing object). */
        static FilterError notAChoice(Object value) {
            return new FilterError("Select a valid choice. " + value + " is not one of the available choices.");
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
                RelationFilters.requireExisting(
                        db, extra.choices().table(), extra.choices().column(), extra.valueKind(), parsed);
            }
            return extra.predicate().build("t", parsed);
        }
        ExtraFilter replacing = "n".equals(lookup) ? model.extraFilters().get(base) : null;
        if (replacing != null && replacing.valueKind() != Kind.BOOLEAN) {
            // a declared filter that takes a field's name (a template's grouped type) answers its
            // negation too, not the field's own filter
            return derived(db, model, param, base, lookup, values);
        }
        RelationFilter relation = model.relationFilters().get(base);
        if (relation != null) {
            return lookup == null || lookup.equals("n")
                    ? relations.relation(db, model, relation, lookup, values)
                    : null;
        }
        ChildFilter child = model.childFilters().get(base);
        if (child != null) {
            return childFilter(db, child, lookup, values);
        }
        switch (base) {
            case "q" -> {
                return lookup == null ? NetBoxModelFilters.search(model, values) : null;
            }
            case "tag", "tag_id" -> {
                // a model without tags may have a field of that name (a tag assignment's tag)
                if (model.hasTags()) {
                    return NetBoxModelFilters.tags(db, model, base, lookup, values);
                }
            }
            case "created_by_request", "updated_by_request", "modified_by_request" -> {
                return lookup == null ? NetBoxModelFilters.byRequest(model, base, values) : null;
            }
            default -> {}
        }
        if (base.startsWith("cf_") && model.hasCustomFields()) {
            CustomFieldDef def = customFields.find(db, model.contentType(), base.substring(3));
            return def == null || "disabled".equals(def.filterLogic())
                    ? null
                    : NetBoxModelFilters.customField(def, lookup, values);
        }
        Field field = model.field(base);
        if (field != null && field.isSecret()) {
            return secret(model, field, lookup, values);
        }
        for (Field f : model.fields()) {
            boolean byName = f.kind == Kind.STRING_LIST && base.equals(f.name);
            if (f.hasObjectTypeIds() && (byName || base.equals(RelationFilters.objectTypeIdFilter(f)))) {
                return lookup == null || lookup.equals("n")
                        ? RelationFilters.objectTypes(db, f, byName, lookup, values)
                        : null;
            }
        }
        FieldFilter own = fieldFilters(model).get(base);
        if (own != null) {
            return own.compiler().compile(db, relations, lookup, values);
        }
        if (field != null && field.isFilterable()) {
            return null; // a field's name is no other filter
        }
        return derived(db, model, param, base, lookup, values);
    }

    /** Where NetBox names a counted relation's number: the counter column or a count subquery. */
    public static String countExpression(Field f) {
        return CountType.expression(f);
    }

    /** The filters the model's fields declare through their kinds, by parameter name. */
    private Map<String, FieldFilter> fieldFilters(Model model) {
        return fieldFilters.computeIfAbsent(model.contentType(), type -> FieldFilter.byName(model));
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
            return positive == null
                    ? null
                    : new ExtraFilter.Sql("coalesce(not (" + positive.sql() + "), true)", positive.params());
        }
        if (model.treeParent() != null && (base.equals("ancestor") || base.equals("ancestor_id")) && lookup == null) {
            // the parent is the node or below it: TreeNodeMultipleChoiceFilter(field_name="parent")
            Field parent = model.field(model.treeParent());
            return base.equals("ancestor")
                    ? relations.byKey(db, parent, null, values)
                    : relations.byId(db, parent, null, values);
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

    /** A {@link ChildFilter}: some related object matches the filter; negated lookups: none does. */
    private ExtraFilter.Sql childFilter(Db db, ChildFilter filter, String lookup, List<String> values) {
        Model child = registry.require(filter.childType());
        boolean negated = lookup != null
                && (lookup.equals("n")
                        || (lookup.startsWith("n") && Lookup.TEXT_FILTERS.contains(lookup.substring(1))));
        String positive = negated ? (lookup.equals("n") ? null : lookup.substring(1)) : lookup;
        ExtraFilter.Sql inner =
                compileOne(db, child, positive == null ? filter.name() : filter.name() + "__" + positive, values);
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
        return new ExtraFilter.Sql(
                "t." + hop.column() + " in (select t.id from " + target.table() + " t where " + inner.sql() + ")",
                inner.params());
    }

    /** Plain column filter with NetBox's lookup semantics (see {@link LookupCompiler#filter}). */
    static ExtraFilter.Sql column(String col, Kind kind, Field field, String lookup, List<String> values) {
        return LookupCompiler.filter(col, FieldTypes.of(kind), field, lookup, values);
    }

    /** Parses one filter value of the given kind, or throws its NetBox-worded {@link InvalidValue}. */
    static Object parse(Kind kind, String raw, Field field) {
        return FieldTypes.of(kind).parse(raw, field);
    }

    static boolean parseBoolean(String raw) {
        return BooleanType.parseFilter(raw);
    }
}
