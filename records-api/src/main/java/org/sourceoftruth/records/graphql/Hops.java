package org.sourceoftruth.records.graphql;

import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * Filters NetBox's filter inputs offer through a foreign key of the model: an object's
 * {@code tenant_group} (its tenant's group, NetBox's TenancyFilterMixin) and a component's
 * {@code site}, {@code location} and {@code rack} (its device's). {@code {tenant_group: {...}}}
 * filters as {@code {tenant: {group: {...}}}}; a model with a field of the filter's name filters
 * by that field.
 */
final class Hops {
    /** A filter's name, the foreign key of the model it goes through and the filter on the model that key reaches. */
    record Hop(String name, String via, String then) {}

    private static final List<Hop> HOPS = List.of(
            new Hop("tenant_group", "tenant", "group"),
            new Hop("tenant_group_id", "tenant", "group_id"),
            new Hop("site", "device", "site"),
            new Hop("location", "device", "location"),
            new Hop("rack", "device", "rack"));

    /** The hops NetBox's component types also show, as {@code _site}, {@code _location}, {@code _rack}. */
    static final java.util.Set<String> PLACEMENTS = java.util.Set.of("site", "location", "rack");

    private Hops() {}

    /** The foreign key a hop of this name goes through, whatever the model (null: none). */
    static String via(String name) {
        for (Hop h : HOPS) {
            if (h.name().equals(name)) {
                return h.via();
            }
        }
        return null;
    }

    /** The hop filter of this name on the model, or null. */
    static Hop of(ModelRegistry registry, Model model, String name) {
        for (Hop h : HOPS) {
            if (h.name().equals(name) && target(registry, model, h) != null) {
                return h;
            }
        }
        return null;
    }

    /** The hops the model's filter offers, with the model the last foreign key reaches. */
    static Map<Hop, Model> of(ModelRegistry registry, Model model) {
        Map<Hop, Model> out = new java.util.LinkedHashMap<>();
        for (Hop h : HOPS) {
            Model target = target(registry, model, h);
            if (target != null) {
                out.put(h, target);
            }
        }
        return out;
    }

    /** The model the hop's last foreign key reaches, or null when the model has no such path (or a field of the hop's name). */
    private static Model target(ModelRegistry registry, Model model, Hop h) {
        if (model.field(h.name()) != null) {
            return null;
        }
        Field via = model.field(h.via());
        if (via == null || via.kind != Kind.FK) {
            return null;
        }
        Model next = registry.require(via.target());
        String last = h.then().endsWith("_id") ? h.then().substring(0, h.then().length() - 3) : h.then();
        Field then = next.field(last);
        if (then == null || then.kind != Kind.FK) {
            return null;
        }
        return registry.require(then.target());
    }
}
