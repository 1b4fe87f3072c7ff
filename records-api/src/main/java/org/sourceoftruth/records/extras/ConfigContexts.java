package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.model.BatchLoader;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Fields;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Renders config_context for devices and virtual machines as NetBox does: the data of every
 * active config context whose assignments match the object (an empty assignment dimension
 * matches everything; regions, site groups, locations, roles and platforms match ancestors too),
 * merged in ascending (weight, name) order with deeper keys merged and later values winning,
 * then the object's local_context_data merged on top.
 *
 * <p>The contexts are held in memory ({@link ConfigContextCache}) and matched in Java. A page
 * costs no query when no context is active, else one query for what matching needs to know of
 * its objects (site's region and group, cluster's type and group, tenant's group, and their tags
 * when a context is assigned by tags), index lookups by id. The single SQL
 * query this replaced matched every context in correlated subqueries: ~20 ms of planning per
 * page even without contexts, and seconds once PostgreSQL's JIT compiled it.
 */
public final class ConfigContexts {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * One assignment dimension: its join table, the join column, the tree whose ancestors also
     * match (null: exact match), and where the object's value is (aliases of {@link #factsQuery}).
     */
    enum Dimension {
        REGIONS("regions", "region_id", "dcim_region", "s.region_id"),
        SITE_GROUPS("site_groups", "sitegroup_id", "dcim_sitegroup", "s.group_id"),
        SITES("sites", "site_id", null, "o.site_id"),
        LOCATIONS("locations", "location_id", "dcim_location", "o.location_id"),
        DEVICE_TYPES("device_types", "devicetype_id", null, "o.device_type_id"),
        ROLES("roles", "devicerole_id", "dcim_devicerole", "o.role_id"),
        PLATFORMS("platforms", "platform_id", "dcim_platform", "o.platform_id"),
        CLUSTER_TYPES("cluster_types", "clustertype_id", null, "cl.type_id"),
        CLUSTER_GROUPS("cluster_groups", "clustergroup_id", null, "cl.group_id"),
        CLUSTERS("clusters", "cluster_id", null, "o.cluster_id"),
        TENANT_GROUPS("tenant_groups", "tenantgroup_id", null, "tn.group_id"),
        TENANTS("tenants", "tenant_id", null, "o.tenant_id");

        final String field;
        final String column;
        /** Tree table whose ancestors also match, or null for an exact match. */
        final String tree;

        final String objectValue;

        Dimension(String field, String column, String tree, String objectValue) {
            this.field = field;
            this.column = column;
            this.tree = tree;
            this.objectValue = objectValue;
        }

        String joinTable() {
            return "extras_configcontext_" + field;
        }

        /** Virtual machines have no location and no device type. */
        boolean appliesTo(boolean device) {
            return device || (this != LOCATIONS && this != DEVICE_TYPES);
        }

        static Dimension byField(String field) {
            for (Dimension d : values()) {
                if (d.field.equals(field)) {
                    return d;
                }
            }
            throw new IllegalArgumentException(field);
        }
    }

    private ConfigContexts() {}

    /** config_context: rendered for a whole page by the loader. */
    public static Field field(BatchLoader loader) {
        return Fields.computed("config_context", r -> null).loader(loader);
    }

    /**
     * Everything matching needs of a page of objects of this table, by object id; one query. With
     * tags, each object's tag ids too (column tag_ids; the first parameter is then the content
     * type), in the same round trip rather than a query of its own.
     */
    static String factsQuery(String table, boolean device, boolean tags) {
        StringBuilder sql = new StringBuilder("select o.id as object_id");
        for (Dimension d : Dimension.values()) {
            if (d.appliesTo(device)) {
                sql.append(", ").append(d.objectValue).append(" as ").append(d.field);
            }
        }
        if (tags) {
            sql.append(", array(select t.tag_id from " + SystemTables.EXTRAS_TAGGEDITEM + " t where t.object_type = ?")
                    .append(" and t.object_id = o.id) as tag_ids");
        }
        return sql.append(" from ")
                .append(table)
                .append(" o")
                .append(" left join dcim_site s on s.id = o.site_id")
                .append(" left join tenancy_tenant tn on tn.id = o.tenant_id")
                .append(" left join virtualization_cluster cl on cl.id = o.cluster_id")
                .append(" where o.id = any(?::bigint[])")
                .toString();
    }

    /**
     * The objects whose config_context is rendered (devices or virtual machines): their content
     * type, and both forms of their facts query, built once rather than for every page.
     */
    record Target(String contentType, boolean device, String factsQuery, String factsQueryWithTags) {
        static Target of(String table, String contentType, boolean device) {
            return new Target(
                    contentType,
                    device,
                    ConfigContexts.factsQuery(table, device, false),
                    ConfigContexts.factsQuery(table, device, true));
        }
    }

    /** The rendered config_context of each row of a page, by row id. */
    static Map<Long, Object> render(ConfigContextSnapshot snapshot, Queries db, List<Row> rows, Target target) {
        boolean device = target.device();
        Map<Long, ConfigContextSnapshot.Facts> facts =
                snapshot.isEmpty() ? Map.of() : facts(snapshot, db, rows, target);
        Map<Long, Object> out = new HashMap<>();
        for (Row r : rows) {
            ObjectNode data = NODES.objectNode();
            ConfigContextSnapshot.Facts f = facts.get(r.id());
            if (f != null) {
                snapshot.matching(f, device).forEach(context -> deepMerge(data, context));
            }
            if (r.get("local_context_data") instanceof JsonNode local && local.isObject() && !local.isEmpty()) {
                deepMerge(data, local);
            }
            out.put(r.id(), data);
        }
        return out;
    }

    private static Map<Long, ConfigContextSnapshot.Facts> facts(
            ConfigContextSnapshot snapshot, Queries db, List<Row> rows, Target target) {
        List<Long> ids = rows.stream().map(Row::id).toList();
        boolean device = target.device();
        boolean tags = snapshot.usesTags();
        Map<Long, ConfigContextSnapshot.Facts> out = new HashMap<>();
        for (Row r : tags
                ? db.query(target.factsQueryWithTags(), target.contentType(), ids)
                : db.query(target.factsQuery(), ids)) {
            long id = r.longValue("object_id");
            Map<Dimension, Long> values = new EnumMap<>(Dimension.class);
            for (Dimension d : Dimension.values()) {
                Long v = d.appliesTo(device) ? r.longValue(d.field) : null;
                if (v != null) {
                    values.put(d, v);
                }
            }
            out.put(id, new ConfigContextSnapshot.Facts(values, tags ? tagIds(r.get("tag_ids")) : Set.of()));
        }
        return out;
    }

    private static Set<Long> tagIds(Object array) {
        if (!(array instanceof List<?> list) || list.isEmpty()) {
            return Set.of();
        }
        Set<Long> ids = new HashSet<>();
        for (Object id : list) {
            ids.add(((Number) id).longValue());
        }
        return ids;
    }

    /**
     * NetBox's deepmerge: a key whose old and new values are both (non-empty new) objects is
     * merged recursively; any other new value replaces the old one in place.
     */
    static void deepMerge(ObjectNode target, JsonNode source) {
        if (source == null || !source.isObject()) {
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> it = source.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode old = target.get(e.getKey());
            JsonNode val = e.getValue();
            if (old instanceof ObjectNode oldObject && val.isObject() && !val.isEmpty()) {
                ObjectNode copy = oldObject.deepCopy();
                deepMerge(copy, val);
                target.set(e.getKey(), copy);
            } else {
                target.set(e.getKey(), val.deepCopy());
            }
        }
    }

    /** local_context_data and config context data must be JSON objects (or null where allowed). */
    public static void requireObject(String column, Row row, Map<String, List<String>> errors) {
        Object v = row.get(column);
        if (v instanceof JsonNode node && !node.isNull() && !node.isObject()) {
            errors.computeIfAbsent(column, k -> new ArrayList<>())
                    .add("JSON data must be in object form. Example: {\"foo\": 123}");
        }
    }
}
