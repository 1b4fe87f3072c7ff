package org.sourceoftruth.records.dcim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Kind;

/**
 * Filters for models placed by a location scope (NetBox 4.2+ scope_type/scope_id on prefixes
 * and clusters): {@code region}, {@code site_group}, {@code site}, {@code location} and their
 * {@code _id} forms match objects scoped to that place or to anything inside it (a site's
 * locations, a region's sites), tree filters including descendants.
 */
public final class ScopeFilters {
    /** Content types a location scope may point at (NetBox's LOCATION_SCOPE_TYPES). */
    public static final List<String> LOCATION_SCOPE_TYPES =
            List.of("dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location");

    private ScopeFilters() {}

    /** The ids of the given tree nodes and all their descendants; one array parameter. */
    public static String descendants(String table, String key) {
        return "with recursive d(id) as (select id from " + table + " where " + key + " = any(?)"
                + " union select c.id from " + table + " c join d on c.parent_id = d.id) select id from d";
    }

    /** The ids of one tree node (one id parameter) and all its descendants. */
    public static String descendantsOf(String table) {
        return "with recursive d(id) as (select id from " + table + " where id = ?" + " union select c.id from " + table
                + " c join d on c.parent_id = d.id) select id from d";
    }

    public static List<ExtraFilter> locationScope(String typeColumn, String idColumn) {
        List<ExtraFilter> out = new ArrayList<>();
        for (boolean byId : new boolean[] {false, true}) {
            String suffix = byId ? "_id" : "";
            String key = byId ? "id" : "slug";
            out.add(filter(
                    "region" + suffix, byId, typeColumn, idColumn, Place.REGION, descendants("dcim_region", key)));
            out.add(filter(
                    "site_group" + suffix,
                    byId,
                    typeColumn,
                    idColumn,
                    Place.SITE_GROUP,
                    descendants("dcim_sitegroup", key)));
            out.add(filter(
                    "site" + suffix,
                    byId,
                    typeColumn,
                    idColumn,
                    Place.SITE,
                    "select id from dcim_site where " + key + " = any(?)"));
            out.add(filter(
                    "location" + suffix,
                    byId,
                    typeColumn,
                    idColumn,
                    Place.LOCATION,
                    descendants("dcim_location", key)));
        }
        return out;
    }

    private enum Place {
        REGION,
        SITE_GROUP,
        SITE,
        LOCATION
    }

    private static ExtraFilter filter(
            String name, boolean byId, String typeColumn, String idColumn, Place place, String ids) {
        // NetBox's (TreeNode)ModelMultipleChoiceFilter: a region, site group, site or location
        // that does not exist is a 400
        String table = switch (place) {
            case REGION -> "dcim_region";
            case SITE_GROUP -> "dcim_sitegroup";
            case SITE -> "dcim_site";
            case LOCATION -> "dcim_location";
        };
        return scopeFilter(name, byId, typeColumn, idColumn, place, ids).choicesFrom(table, byId ? "id" : "slug");
    }

    private static ExtraFilter scopeFilter(
            String name, boolean byId, String typeColumn, String idColumn, Place place, String ids) {
        return new ExtraFilter(name, byId ? Kind.INTEGER : Kind.STRING, (alias, values) -> {
            String type = alias + "." + typeColumn;
            String id = alias + "." + idColumn;
            String sql = switch (place) {
                case REGION, SITE_GROUP -> {
                    String ct = place == Place.REGION ? "dcim.region" : "dcim.sitegroup";
                    String siteColumn = place == Place.REGION ? "region_id" : "group_id";
                    yield "(" + type + " = '" + ct + "' and " + id + " in (" + ids + "))"
                            + " or (" + type + " = 'dcim.site' and " + id + " in (select id from dcim_site where "
                            + siteColumn + " in (" + ids + ")))"
                            + " or (" + type + " = 'dcim.location' and " + id + " in (select l.id from dcim_location l"
                            + " join dcim_site s on s.id = l.site_id where s." + siteColumn + " in (" + ids + ")))";
                }
                case SITE ->
                    "(" + type + " = 'dcim.site' and " + id + " in (" + ids + "))"
                            + " or (" + type + " = 'dcim.location' and " + id
                            + " in (select id from dcim_location where"
                            + " site_id in (" + ids + ")))";
                case LOCATION -> type + " = 'dcim.location' and " + id + " in (" + ids + ")";
            };
            int slots = sql.length() - sql.replace("?", "").length();
            Db.SqlArray param = new Db.SqlArray(byId ? "bigint" : "text", values);
            return new ExtraFilter.Sql(sql, new ArrayList<>(Collections.nCopies(slots, param)));
        });
    }
}
