package org.sourceoftruth.records.ipam;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.dcim.L2vpnTerminations;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.tenancy.TenancyFilters;

/** ipam: route targets, which VRFs and L2VPNs import and export ({@code import_targets}, {@code export_targets}). */
@ApplicationScoped
public class RouteTargetModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model routeTarget = Model.of("ipam", "route-targets", "route target")
                .fields(
                        str("name").required().max(21).unique(),
                                fk("tenant", "tenancy.tenant").protect(),
                        str("description").max(200), str("comments"))
                .standardTail()
                .filters(TenancyFilters.tenantGroup())
                .filters(byVrf("importing_vrf", "ipam_vrf_import_targets"))
                .filters(byVrf("exporting_vrf", "ipam_vrf_export_targets"))
                .filters(byL2vpn("importing_l2vpn", "vpn_l2vpn_import_targets"))
                .filters(byL2vpn("exporting_l2vpn", "vpn_l2vpn_export_targets"))
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "description");
        return List.of(routeTarget);
    }

    /** {@code <name>} by the L2VPN's identifier (NetBox's; or its slug) and {@code <name>_id}. */
    private static List<ExtraFilter> byL2vpn(String name, String joinTable) {
        return List.of(
                ExtraFilters.each(
                                name,
                                Kind.STRING,
                                "{t}.id in (select routetarget_id from " + joinTable + " where l2vpn_id in ("
                                        + L2vpnTerminations.L2VPN_BY_KEY + "))")
                        .choicesFrom(L2vpnTerminations.L2VPN_KEYS, "k"),
                ExtraFilters.each(
                                name + "_id",
                                Kind.INTEGER,
                                "{t}.id in (select routetarget_id from " + joinTable + " where l2vpn_id = ?)")
                        .choicesFrom("vpn_l2vpn", "id"));
    }

    /** {@code <name>} by the VRF's route distinguisher and {@code <name>_id}: a VRF that imports or exports it. */
    private static List<ExtraFilter> byVrf(String name, String joinTable) {
        return List.of(
                ExtraFilters.each(
                                name,
                                Kind.STRING,
                                "{t}.id in (select j.routetarget_id from " + joinTable
                                        + " j join ipam_vrf v on v.id = j.vrf_id where v.rd = ?)")
                        .choicesFrom("ipam_vrf", "rd"),
                ExtraFilters.each(
                                name + "_id",
                                Kind.INTEGER,
                                "{t}.id in (select routetarget_id from " + joinTable + " where vrf_id = ?)")
                        .choicesFrom("ipam_vrf", "id"));
    }
}
