package org.sourceoftruth.records.ipam;

import java.util.List;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.virtualization.VirtualizationTables;

/**
 * NetBox's VLAN availability filters (VLANQuerySet.get_for_site / get_for_device /
 * get_for_site_group / get_for_virtualmachine): {@code available_at_site},
 * {@code available_at_site_group}, {@code available_on_device} and
 * {@code available_on_virtualmachine} take one object by id (an unknown id is a 400) and match
 * the VLANs of the VLAN groups scoped to where the object is (its site, the site's region and
 * site group and their ancestors, its location and the location's ancestors, its rack, a VM's
 * cluster and cluster group and the cluster's scope), the VLANs of its site, and the global
 * VLANs (no site, and no group or a group without scope).
 */
final class VlanAvailability {
    private VlanAvailability() {}

    static List<ExtraFilter> filters() {
        String device = "(select d.site_id from " + DcimTables.DEVICE + " d where d.id = ?)";
        String vmCluster = "(select v.cluster_id from " + VirtualizationTables.VIRTUALMACHINE + " v where v.id = ?)";
        String clusterScope = "(select c.scope_id from " + VirtualizationTables.CLUSTER + " c where c.id = " + vmCluster
                + " and c.scope_type = '%s')";
        // the VM's site, else the site of its cluster's scope (a site, or a location's site)
        String vmSite =
                "coalesce((select v.site_id from " + VirtualizationTables.VIRTUALMACHINE + " v where v.id = ?), "
                        + String.format(clusterScope, "dcim.site") + ", (select l.site_id from " + DcimTables.LOCATION
                        + " l where l.id = "
                        + String.format(clusterScope, "dcim.location") + "))";
        String deviceScopes = siteScopes(device)
                + " union all "
                + ancestors(
                        "dcim.location",
                        DcimTables.LOCATION,
                        "(select d.location_id from " + DcimTables.DEVICE + " d where d.id = ?)")
                + " union all select 'dcim.rack', d.rack_id from " + DcimTables.DEVICE + " d where d.id = ?";
        String vmScopes = siteScopes(vmSite)
                + " union all select 'virtualization.cluster', " + vmCluster
                + " union all select 'virtualization.clustergroup', c.group_id from " + VirtualizationTables.CLUSTER
                + " c where c.id = "
                + vmCluster
                + " union all select 'dcim.site', " + String.format(clusterScope, "dcim.site")
                + " union all "
                + ancestors("dcim.location", DcimTables.LOCATION, String.format(clusterScope, "dcim.location"))
                + " union all "
                + ancestors("dcim.sitegroup", DcimTables.SITEGROUP, String.format(clusterScope, "dcim.sitegroup"))
                + " union all "
                + ancestors("dcim.region", DcimTables.REGION, String.format(clusterScope, "dcim.region"));
        return List.of(
                ExtraFilters.each("available_at_site", Kind.INTEGER, available(siteScopes("?::bigint"), "?::bigint"))
                        .choicesFrom(DcimTables.SITE, "id"),
                // the groups of the site group and its ancestors, and the global VLANs (no site's own)
                ExtraFilters.each(
                                "available_at_site_group",
                                Kind.INTEGER,
                                available(ancestors("dcim.sitegroup", DcimTables.SITEGROUP, "?::bigint"), "null"))
                        .choicesFrom(DcimTables.SITEGROUP, "id"),
                ExtraFilters.each("available_on_device", Kind.INTEGER, available(deviceScopes, device))
                        .choicesFrom(DcimTables.DEVICE, "id"),
                ExtraFilters.each("available_on_virtualmachine", Kind.INTEGER, available(vmScopes, vmSite))
                        .choicesFrom(VirtualizationTables.VIRTUALMACHINE, "id"));
    }

    /** VLANs of groups with one of the scopes, of the site, and global ones. */
    private static String available(String scopes, String site) {
        return "{t}.group_id in (select g.id from ipam_vlangroup g where (g.scope_type, g.scope_id) in (" + scopes
                + "))"
                + " or {t}.site_id = " + site
                + " or ({t}.site_id is null and ({t}.group_id is null"
                + " or {t}.group_id in (select g.id from ipam_vlangroup g where g.scope_id is null)))";
    }

    /** The site itself, its region and site group, and their ancestors, as (scope_type, scope_id) rows. */
    private static String siteScopes(String site) {
        return "select 'dcim.site'::text, " + site + "::bigint"
                + " union all "
                + ancestors(
                        "dcim.region",
                        DcimTables.REGION,
                        "(select s.region_id from " + DcimTables.SITE + " s where s.id = " + site + ")")
                + " union all "
                + ancestors(
                        "dcim.sitegroup",
                        DcimTables.SITEGROUP,
                        "(select s.group_id from " + DcimTables.SITE + " s where s.id = " + site + ")");
    }

    /** The node and its ancestors in a tree table, as (scope_type, scope_id) rows. */
    private static String ancestors(String type, String table, String node) {
        return "select '" + type + "', a.id from (with recursive up(id, parent_id) as (select id, parent_id from "
                + table
                + " where id = " + node + " union select p.id, p.parent_id from " + table
                + " p join up on p.id = up.parent_id) select id from up) a";
    }
}
