package org.sourceoftruth.records.engine.query;

import org.sourceoftruth.records.engine.query.FilterCompiler;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Filters of NetBox's filtersets on relations to models this service does not serve yet
 * (cables, L2VPNs, ...). They are real filters over the data that
 * exists: there are no such objects, so no given object is a valid choice (a 400 as NetBox
 * answers for an unknown object), {@code null} matches every object, and the boolean "has one"
 * filters ({@code cabled}, {@code console_ports}, {@code has_front_image}, ...) match no object
 * for true and every object for false. When a model lands, its entries here are replaced by
 * real declarations (a foreign key, or an ExtraFilter).
 */
final class UnbuiltRelations {
    private UnbuiltRelations() {
    }

    /** Models with NetBox's SyncedDataMixin (data source, data file): none is bound to a data source yet. */
    /** Filter name -> content types whose NetBox filterset has it, the related model being unbuilt. */
    private static final Map<String, Set<String>> RELATIONS = Map.of();

    /**
     * Relations to models that ARE served, reached through one that is not (a device's
     * parent device is its parent bay's, a VLAN's
     * Q-in-Q service VLAN a field not built yet): an existing object is a valid choice that no
     * object is related to; an unknown one is a 400.
     */
    private record Through(Set<String> contentTypes, String table, String key) {
    }

    private static final Map<String, Through> THROUGH_UNBUILT = Map.of();

    /** Boolean "has one" filters on unbuilt relations: true matches no object, false every object. */
    private static final Map<String, Set<String>> ABSENT = Map.ofEntries(
            Map.entry("has_front_image", Set.of("dcim.devicetype")), Map.entry("has_rear_image", Set.of("dcim.devicetype")));

    /**
     * These filters on the given content type, sorted by name: name → true for a presence flag
     * (a boolean filter such as {@code cabled}), false for a relation (given by key or id).
     */
    static java.util.SortedMap<String, Boolean> names(String contentType) {
        java.util.SortedMap<String, Boolean> out = new java.util.TreeMap<>();
        RELATIONS.forEach((name, types) -> {
            if (types.contains(contentType)) {
                out.put(name, false);
            }
        });
        THROUGH_UNBUILT.forEach((name, through) -> {
            if (through.contentTypes().contains(contentType)) {
                out.put(name, false);
            }
        });
        ABSENT.forEach((name, types) -> {
            if (types.contains(contentType)) {
                out.put(name, true);
            }
        });
        return out;
    }

    /** The filter {@code name} (no lookup) of the given content type, or null when it is not one of these. */
    static ExtraFilter.Sql filter(Db db, String contentType, String name, List<String> values) {
        if (ABSENT.getOrDefault(name, Set.of()).contains(contentType)) {
            return ExtraFilter.Sql.of(FilterCompiler.parseBoolean(values.get(values.size() - 1)) ? "false" : "true");
        }
        Through through = THROUGH_UNBUILT.get(name);
        if (through != null && through.contentTypes().contains(contentType)) {
            Kind kind = through.key().equals("id") ? Kind.INTEGER : Kind.STRING;
            List<Object> wanted = new ArrayList<>();
            for (String v : values) {
                if (!v.equals("null")) {
                    wanted.add(FilterCompiler.parse(kind, v, null));
                }
            }
            RelationFilters.requireExisting(db, through.table(), through.key(), kind, wanted);
            return ExtraFilter.Sql.of(values.contains("null") ? "true" : "false");
        }
        if (!RELATIONS.getOrDefault(name, Set.of()).contains(contentType)) {
            return null;
        }
        for (String v : values) {
            if (!v.equals("null")) {
                throw new FilterCompiler.FilterError("Select a valid choice. " + v + " is not one of the available choices.");
            }
        }
        return ExtraFilter.Sql.of("true"); // null: no object has the relation
    }
}
