package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.sourceoftruth.records.model.BatchLoader;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Fields;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Renders config_context for devices and virtual machines as NetBox does: the data of every
 * active config context whose assignments match the object (an empty assignment dimension
 * matches everything; regions, site groups, locations, roles and platforms match ancestors too),
 * merged in ascending (weight, name) order with deeper keys merged and later values winning,
 * then the object's local_context_data merged on top. Matching runs in SQL, one query for a
 * whole page of objects.
 */
public final class ConfigContexts {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** One assignment dimension: its join table, the join column, and how the object's value is found. */
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

        /** The config context either has no assignment here, or one matching the object (alias o). */
        String matches(boolean applies) {
            String none = "not exists (select 1 from " + joinTable() + " x where x.configcontext_id = c.id)";
            if (!applies) {
                return none;
            }
            String values = tree == null ? "select " + objectValue
                    : "with recursive a(id) as (select " + objectValue + " union all select p.parent_id from " + tree
                    + " p join a on p.id = a.id where p.parent_id is not null) select id from a";
            return "(" + none + " or exists (select 1 from " + joinTable() + " x where x.configcontext_id = c.id and x."
                    + column + " in (" + values + ")))";
        }
    }

    private ConfigContexts() {
    }

    /** config_context: rendered for a whole page by one query. */
    public static Field field(BatchLoader loader) {
        return Fields.computed("config_context", r -> null).loader(loader);
    }

    /** config_context of devices (every dimension applies). */
    public static BatchLoader forDevices() {
        return loader("dcim_device", "dcim.device", true);
    }

    /** config_context of virtual machines (locations and device types must be unassigned). */
    public static BatchLoader forVirtualMachines() {
        return loader("virtualization_virtualmachine", "virtualization.virtualmachine", false);
    }

    private static BatchLoader loader(String table, String contentType, boolean device) {
        StringBuilder sql = new StringBuilder("select o.id as object_id, c.data from " + table + " o"
                + " left join dcim_site s on s.id = o.site_id"
                + " left join tenancy_tenant tn on tn.id = o.tenant_id"
                + " left join virtualization_cluster cl on cl.id = o.cluster_id"
                + " join extras_configcontext c on c.is_active"
                + " where o.id = any(?::bigint[])");
        for (Dimension d : Dimension.values()) {
            boolean applies = device || (d != Dimension.LOCATIONS && d != Dimension.DEVICE_TYPES);
            sql.append(" and ").append(d.matches(applies));
        }
        sql.append(" and (not exists (select 1 from extras_taggeditem ct where ct.object_type = 'extras.configcontext'"
                + " and ct.object_id = c.id) or exists (select 1 from extras_taggeditem ct join extras_taggeditem ot"
                + " on ot.tag_id = ct.tag_id where ct.object_type = 'extras.configcontext' and ct.object_id = c.id"
                + " and ot.object_type = '" + contentType + "' and ot.object_id = o.id))");
        sql.append(" order by o.id, c.weight, c.name");
        String query = sql.toString();
        return (Queries db, List<Row> rows) -> render(db, query, rows);
    }

    private static Map<Long, Object> render(Queries db, String query, List<Row> rows) {
        List<Long> ids = new ArrayList<>();
        rows.forEach(r -> ids.add(r.id()));
        Map<Long, ObjectNode> merged = new HashMap<>();
        for (Row r : db.query(query, ids)) {
            ObjectNode target = merged.computeIfAbsent(r.longValue("object_id"), k -> NODES.objectNode());
            deepMerge(target, (JsonNode) r.get("data"));
        }
        Map<Long, Object> out = new HashMap<>();
        for (Row r : rows) {
            ObjectNode data = merged.getOrDefault(r.id(), NODES.objectNode());
            if (r.get("local_context_data") instanceof JsonNode local && local.isObject() && !local.isEmpty()) {
                deepMerge(data, local);
            }
            out.put(r.id(), data);
        }
        return out;
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
