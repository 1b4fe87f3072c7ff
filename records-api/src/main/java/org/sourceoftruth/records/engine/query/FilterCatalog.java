package org.sourceoftruth.records.engine.query;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.sourceoftruth.records.fieldtype.FieldFilter;
import org.sourceoftruth.records.fieldtype.Lookup;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * The filter parameters a model's list accepts, named as {@link FilterCompiler} reads them: what
 * the OpenAPI document lists on each list GET. It follows the compiler's rules (field filters with
 * their lookups by kind, declared extra filters, {@code q}, tags, change-request filters, filters
 * of unbuilt relations, tree ancestors, placement filters through a site, device or virtual
 * machine, a relation's own relations such as {@code tenant_group}, and {@code __n} of the derived
 * ones). The compiler accepts a few more spellings than listed (any filter of a related model
 * behind {@code <relation>_}); the list names the ones NetBox's filtersets declare that way,
 * the related model's relations. Custom-field filters ({@code cf_<name>}) depend on data and are
 * not listed. OpenApiDocumentTest checks that the compiler accepts every listed parameter.
 */
@ApplicationScoped
public class FilterCatalog {

    /**
     * One filter parameter.
     *
     * @param kind     what one value is (STRING, INTEGER, BOOLEAN, DATETIME, CHOICE, ...)
     * @param choices  the allowed values of a CHOICE, else null
     * @param multiple whether the parameter may repeat (values OR, negations NOR)
     * @param format   an OpenAPI format beyond the kind's own (uuid), else null
     */
    public record Parameter(String name, Kind kind, ChoiceSet choices, boolean multiple, String format) {
        static Parameter of(String name, Kind kind) {
            return new Parameter(name, kind, null, kind != Kind.BOOLEAN, null);
        }
    }

    private static final List<String> PLACEMENTS = List.of("region", "site_group", "site", "location", "rack");
    /** What a related object is classified by, for {@link #relationsOfRelations}. */
    private static final Set<String> CLASSIFICATIONS = Set.of("group", "role", "type", "status");

    @Inject
    ModelRegistry registry;

    private final Map<String, List<Parameter>> cache = new ConcurrentHashMap<>();

    /** The model's filter parameters, sorted by name (as NetBox's document lists them). */
    public List<Parameter> parameters(Model model) {
        return cache.computeIfAbsent(
                model.contentType(),
                type -> build(model, new HashSet<>()).values().stream()
                        .sorted(java.util.Comparator.comparing(Parameter::name))
                        .toList());
    }

    private Map<String, Parameter> build(Model model, Set<String> visiting) {
        visiting.add(model.contentType());
        Map<String, Parameter> out = new LinkedHashMap<>();
        Map<String, FieldFilter> declared = FieldFilter.byName(model);
        for (Field f : model.fields()) {
            fieldFilters(declared, f, out);
        }
        if (!model.searchColumns().isEmpty()) {
            out.putIfAbsent("q", new Parameter("q", Kind.STRING, null, false, null));
        }
        if (model.hasTags()) {
            // __any: objects with any of the tags (the plain filter wants all of them)
            for (String name : List.of("tag", "tag__n", "tag__any")) {
                out.putIfAbsent(name, Parameter.of(name, Kind.STRING));
            }
            for (String name : List.of("tag_id", "tag_id__n", "tag_id__any")) {
                out.putIfAbsent(name, Parameter.of(name, Kind.INTEGER));
            }
        }
        if (model.field("last_updated") != null) {
            for (String name : List.of("created_by_request", "updated_by_request", "modified_by_request")) {
                out.putIfAbsent(name, new Parameter(name, Kind.STRING, null, false, "uuid"));
            }
        }
        for (ExtraFilter extra : model.extraFilters().values()) {
            out.put(extra.name(), Parameter.of(extra.name(), extra.valueKind()));
            if (extra.valueKind() != Kind.BOOLEAN && !hasLookup(extra.name())) {
                out.putIfAbsent(extra.name() + "__n", Parameter.of(extra.name() + "__n", extra.valueKind()));
            }
        }
        model.relationFilters()
                .values()
                .forEach(r -> withNegation(r.name(), r.key().equals("id") ? Kind.INTEGER : Kind.STRING, null, out));
        model.childFilters().values().forEach(c -> {
            Field child = registry.require(c.childType()).field(c.name());
            if (child != null) {
                fieldFilters(FieldFilter.byName(registry.require(c.childType())), child, out);
            }
        });
        if (model.treeParent() != null) {
            withNegation("ancestor", Kind.STRING, null, out);
            withNegation("ancestor_id", Kind.INTEGER, null, out);
        }
        relationsOfRelations(model, out);
        placements(model, out, visiting);
        visiting.remove(model.contentType());
        return out;
    }

    /** A field's own filters: those its kind declares (as FilterCompiler compiles them), and object-type ids. */
    private void fieldFilters(Map<String, FieldFilter> declared, Field f, Map<String, Parameter> out) {
        if (f.hasObjectTypeIds()) {
            String base = f.name.endsWith("_types")
                    ? f.name.substring(0, f.name.length() - 1)
                    : f.kind == Kind.GENERIC_FK ? f.genericTypeColumn() : f.name;
            withNegation(base + "_id", Kind.INTEGER, null, out);
            if (f.kind == Kind.STRING_LIST) {
                out.putIfAbsent(f.name + "__n", Parameter.of(f.name + "__n", Kind.STRING));
            }
        }
        if (f.isSecret() && f.name.equals("key")) {
            // exact, and the other lookups over the keys the caller may read
            lookups("key", Kind.STRING, null, Lookup.TEXT_FILTERS, out);
            return;
        }
        for (FieldFilter filter : declared.values()) {
            if (filter.owner() != f
                    || (filter.keyedTarget() != null && !hasNaturalKey(registry.require(filter.keyedTarget())))) {
                continue;
            }
            if (filter.lookups().isEmpty()) {
                out.putIfAbsent(filter.name(), Parameter.of(filter.name(), filter.valueKind()));
            } else {
                lookups(filter.name(), filter.valueKind(), filter.choices(), filter.lookups(), out);
            }
        }
    }

    /**
     * {@code <relation>_<its classification>}: a device's {@code tenant_group} and
     * {@code cluster_group}, an interface's {@code device_role} and {@code device_status}, by key
     * and by id, as NetBox's filtersets declare them: through each relation (not one to the model
     * itself) to the related model's group, role or type, and its status. The compiler accepts any
     * filter of the related model this way; only these are NetBox's and listed.
     */
    private void relationsOfRelations(Model model, Map<String, Parameter> out) {
        for (Field hop : model.fields()) {
            if (hop.kind != Kind.FK || !hop.isFilterable() || hop.target().equals(model.contentType())) {
                continue;
            }
            Model target = registry.require(hop.target());
            for (Field inner : target.fields()) {
                String name = hop.name + "_" + inner.name;
                if (inner.isFilterable() && model.extraFilters().containsKey(name)) {
                    // a declared filter on a related field (a prefix's vlan_vid): its other
                    // lookups reach the field through the relation
                    Map<String, Parameter> related = new LinkedHashMap<>();
                    fieldFilters(FieldFilter.byName(target), inner, related);
                    related.forEach((param, p) -> out.putIfAbsent(
                            hop.name + "_" + param,
                            new Parameter(hop.name + "_" + param, p.kind(), p.choices(), p.multiple(), p.format())));
                    continue;
                }
                if (!inner.isFilterable()
                        || !CLASSIFICATIONS.contains(inner.name)
                        || model.field(name) != null
                        || out.containsKey(name)) {
                    continue; // the model's own field of that name wins in the compiler
                }
                if (inner.kind == Kind.FK) {
                    if (hasNaturalKey(registry.require(inner.target()))) {
                        withNegation(name, Kind.STRING, null, out);
                    }
                    withNegation(hop.name + "_" + inner.column(), Kind.INTEGER, null, out);
                } else if (inner.kind == Kind.CHOICE) {
                    lookups(name, Kind.CHOICE, inner.choices(), Lookup.TEXT_FILTERS, out);
                }
            }
        }
    }

    /** region, site_group, site, location, rack (and _id) through the object's site, device or VM ({@link Model#placedThrough}). */
    private void placements(Model model, Map<String, Parameter> out, Set<String> visiting) {
        for (String place : PLACEMENTS) {
            for (String name : List.of(place, place + "_id")) {
                if (out.containsKey(name) || model.field(name) != null) {
                    continue;
                }
                for (String hopName : model.placementHops()) {
                    Field hop = model.field(hopName);
                    if (hop == null
                            || hop.kind != Kind.FK
                            || hopName.equals(place)
                            || visiting.contains(hop.target())) {
                        continue;
                    }
                    Model target = registry.require(hop.target());
                    Map<String, Parameter> targetFilters = build(target, visiting);
                    if (targetFilters.containsKey(name)) {
                        withNegation(name, targetFilters.get(name).kind(), null, out);
                        break;
                    }
                }
            }
        }
    }

    private static void lookups(
            String name, Kind kind, ChoiceSet choices, List<String> lookups, Map<String, Parameter> out) {
        out.putIfAbsent(name, new Parameter(name, kind, choices, true, null));
        for (String lookup : lookups) {
            String param = name + "__" + lookup;
            if (lookup.equals("empty")) {
                out.putIfAbsent(param, Parameter.of(param, Kind.BOOLEAN));
            } else {
                // a negated exact match takes the same values; pattern lookups take free text
                boolean sameValues = lookup.equals("n") || Lookup.NUMBER_FILTERS.contains(lookup);
                Kind valueKind = sameValues ? kind : Kind.STRING;
                out.putIfAbsent(param, new Parameter(param, valueKind, sameValues ? choices : null, true, null));
            }
        }
    }

    private static void withNegation(String name, Kind kind, ChoiceSet choices, Map<String, Parameter> out) {
        out.putIfAbsent(name, new Parameter(name, kind, choices, true, null));
        out.putIfAbsent(name + "__n", new Parameter(name + "__n", kind, choices, true, null));
    }

    private static boolean hasNaturalKey(Model target) {
        return target.field("slug") != null || target.field("name") != null;
    }

    private static boolean hasLookup(String name) {
        int sep = name.lastIndexOf("__");
        if (sep < 0) {
            return false;
        }
        String suffix = name.substring(sep + 2);
        return Lookup.TEXT_FILTERS.contains(suffix) || Lookup.NUMBER_FILTERS.contains(suffix);
    }
}
