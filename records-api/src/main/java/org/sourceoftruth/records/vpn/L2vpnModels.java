package org.sourceoftruth.records.vpn;

import static org.sourceoftruth.records.model.Fields.*;
import static org.sourceoftruth.records.vpn.VpnChoices.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.ipam.IpamTables;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.tenancy.TenancyFilters;
import org.sourceoftruth.records.virtualization.VirtualizationTables;

/** vpn L2VPNs and their terminations on device interfaces, VM interfaces and VLANs. */
@ApplicationScoped
public class L2vpnModels implements ModelDefinition {
    /** What an L2VPN may terminate on (NetBox's L2VPN_ASSIGNMENT_MODELS). */
    static final List<String> ASSIGNMENT_TYPES = List.of("dcim.interface", "ipam.vlan", "virtualization.vminterface");
    /** The terminated object's text (NetBox's str(): an interface's name, a VLAN's "name (vid)"). */
    private static final String ASSIGNED_DISPLAY = "case t.assigned_object_type"
            + " when 'dcim.interface' then (select o.name from " + DcimTables.INTERFACE
            + " o where o.id = t.assigned_object_id)"
            + " when 'virtualization.vminterface' then (select o.name from " + VirtualizationTables.VMINTERFACE + " o"
            + " where o.id = t.assigned_object_id)"
            + " when 'ipam.vlan' then (select o.name || ' (' || o.vid || ')' from " + IpamTables.VLAN + " o"
            + " where o.id = t.assigned_object_id) end";

    private static final String L2VPN_DISPLAY = "select x.name || coalesce(' (' || nullif(x.identifier, 0) || ')', '')"
            + " from vpn_l2vpn x where x.id = t.l2vpn_id";

    @Override
    public List<Model> models() {
        Model l2vpn = Model.of("vpn", "l2vpns", "L2VPN")
                .fields(
                        integer("identifier").nullable(),
                        str("name").required().max(100).unique(),
                        slug("slug").unique(),
                        choice("type", L2VPN_TYPE).required(),
                        choice("status", L2VPN_STATUS).dflt("active"),
                        m2m(
                                "import_targets",
                                "ipam.routetarget",
                                "vpn_l2vpn_import_targets",
                                "l2vpn_id",
                                "routetarget_id"),
                        m2m(
                                "export_targets",
                                "ipam.routetarget",
                                "vpn_l2vpn_export_targets",
                                "l2vpn_id",
                                "routetarget_id"),
                        str("description").max(200),
                        str("comments"),
                        fk("tenant", "tenancy.tenant").protect())
                .standardTail()
                .display(L2vpnModels::display)
                .filters(TenancyFilters.tenantGroup())
                .relationFilter("import_target", "import_targets", "name")
                .relationFilter("import_target_id", "import_targets", "id")
                .relationFilter("export_target", "export_targets", "name")
                .relationFilter("export_target_id", "export_targets", "id")
                .ordering("t.name", "t.identifier")
                .search("t.name", "t.description", "t.identifier::text")
                .brief("identifier", "name", "slug", "type", "description");

        Model termination = Model.of("vpn", "l2vpn-terminations", "L2VPN termination")
                .fields(
                        fk("l2vpn", "vpn.l2vpn").required().cascade().label("L2VPN"),
                        genericFk("assigned_object", "assigned_object_type", "assigned_object_id", ASSIGNMENT_TYPES)
                                .required()
                                .notNull()
                                .cascade()
                                .objectTypeIds())
                .standardTail()
                .select("_assigned", ASSIGNED_DISPLAY)
                .select("_l2vpn", L2VPN_DISPLAY)
                .display(r -> r.str("_assigned") + " <> " + r.str("_l2vpn"))
                .check(L2vpnModels::onePerObject)
                .check(L2vpnModels::pointToPointHasTwo)
                .filters(TerminationFilters.all())
                .ordering("(select x.name from vpn_l2vpn x where x.id = t.l2vpn_id)")
                // NetBox searches the L2VPN's name; the display text is searched too
                .search(
                        "(select x.name from vpn_l2vpn x where x.id = t.l2vpn_id)",
                        "(" + ASSIGNED_DISPLAY + ") || ' <> ' || (" + L2VPN_DISPLAY + ")")
                .brief("l2vpn");
        return List.of(l2vpn, termination);
    }

    /** L2VPN.__str__: the name, and the identifier in brackets when there is one. */
    static String display(Row r) {
        Long identifier = r.longValue("identifier");
        return identifier == null || identifier == 0 ? r.str("name") : r.str("name") + " (" + identifier + ")";
    }

    /** L2VPNTermination.clean: an object is terminated to one L2VPN at most. */
    static void onePerObject(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        String type = row.str("assigned_object_type");
        Long id = row.longValue("assigned_object_id");
        if (type == null || id == null) {
            return;
        }
        List<Row> other = db.query(
                "select (" + ASSIGNED_DISPLAY + ") as assigned from vpn_l2vpntermination t"
                        + " where t.assigned_object_type = ? and t.assigned_object_id = ? and t.id <> ?",
                type,
                id,
                selfId == null ? -1L : selfId);
        if (!other.isEmpty()) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add("L2VPN Termination already assigned (" + other.get(0).str("assigned") + ")");
        }
    }

    /**
     * L2VPNTermination.clean: a point-to-point L2VPN (VPWS, EPL, EP-LAN, EP-Tree) has two
     * terminations at most. The L2VPN's row is locked so that two concurrent terminations cannot
     * both see room for one more.
     */
    static void pointToPointHasTwo(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long l2vpn = row.longValue("l2vpn_id");
        if (l2vpn == null) {
            return;
        }
        List<Row> vpn = db.query("select type from vpn_l2vpn where id = ? for update", l2vpn);
        if (vpn.isEmpty() || !L2VPN_POINT_TO_POINT.contains(vpn.get(0).str("type"))) {
            return;
        }
        long others = ((Number) db.query(
                                "select count(*) as n from vpn_l2vpntermination where l2vpn_id = ? and id <> ?",
                                l2vpn,
                                selfId == null ? -1L : selfId)
                        .get(0)
                        .get("n"))
                .longValue();
        if (others >= 2) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add(L2VPN_TYPE.label(vpn.get(0).str("type"))
                            + " L2VPNs cannot have more than two terminations; found " + others + " already defined.");
        }
    }

    /** NetBox's L2VPNTerminationFilterSet beyond the fields' own filters. */
    static final class TerminationFilters {
        private TerminationFilters() {}

        static List<ExtraFilter> all() {
            List<ExtraFilter> out = new ArrayList<>();
            out.addAll(placement("site_id", Kind.INTEGER, "?"));
            out.addAll(placement("site", Kind.STRING, "(select id from " + DcimTables.SITE + " where slug = ?)"));
            out.addAll(placement(
                    "region_id", Kind.INTEGER, "(select id from " + DcimTables.SITE + " where region_id = ?)"));
            out.addAll(placement(
                    "region",
                    Kind.STRING,
                    "(select s.id from " + DcimTables.SITE + " s join " + DcimTables.REGION + " r"
                            + " on r.id = s.region_id where r.slug = ?)"));
            out.addAll(assigned("interface", "dcim.interface", DcimTables.INTERFACE));
            out.addAll(assigned("vminterface", "virtualization.vminterface", VirtualizationTables.VMINTERFACE));
            out.add(ExtraFilters.each(
                            "vlan",
                            Kind.STRING,
                            typed("ipam.vlan") + " in (select id from " + IpamTables.VLAN + " where name = ?)")
                    .choicesFrom(IpamTables.VLAN, "name"));
            out.add(ExtraFilters.each("vlan_id", Kind.INTEGER, typed("ipam.vlan") + " = ?")
                    .choicesFrom(IpamTables.VLAN, "id"));
            out.addAll(ExtraFilters.number(
                    "vlan_vid",
                    "(select v.vid from " + IpamTables.VLAN + " v where {t}.assigned_object_type"
                            + " = 'ipam.vlan' and v.id = {t}.assigned_object_id)"));
            out.add(ExtraFilters.each(
                            "device",
                            Kind.STRING,
                            typed("dcim.interface") + " in (select i.id from" + " " + DcimTables.INTERFACE + " i join "
                                    + DcimTables.DEVICE + " d on d.id = i.device_id where d.name = ?)")
                    .choicesFrom(DcimTables.DEVICE, "name"));
            out.add(ExtraFilters.each(
                            "device_id",
                            Kind.INTEGER,
                            typed("dcim.interface") + " in (select id from" + " " + DcimTables.INTERFACE
                                    + " where device_id = ?)")
                    .choicesFrom(DcimTables.DEVICE, "id"));
            out.add(ExtraFilters.each(
                            "virtual_machine",
                            Kind.STRING,
                            typed("virtualization.vminterface")
                                    + " in (select i.id from " + VirtualizationTables.VMINTERFACE + " i join "
                                    + VirtualizationTables.VIRTUALMACHINE + " m"
                                    + " on m.id = i.virtual_machine_id where m.name = ?)")
                    .choicesFrom(VirtualizationTables.VIRTUALMACHINE, "name"));
            out.add(ExtraFilters.each(
                            "virtual_machine_id",
                            Kind.INTEGER,
                            typed("virtualization.vminterface") + " in (select id from "
                                    + VirtualizationTables.VMINTERFACE + " where virtual_machine_id = ?)")
                    .choicesFrom(VirtualizationTables.VIRTUALMACHINE, "id"));
            return out;
        }

        private static String typed(String contentType) {
            return "{t}.assigned_object_type = '" + contentType + "' and {t}.assigned_object_id";
        }

        private static List<ExtraFilter> assigned(String name, String contentType, String table) {
            return List.of(
                    ExtraFilters.each(
                                    name,
                                    Kind.STRING,
                                    typed(contentType) + " in (select id from " + table + " where name = ?)")
                            .choicesFrom(table, "name"),
                    ExtraFilters.each(name + "_id", Kind.INTEGER, typed(contentType) + " = ?")
                            .choicesFrom(table, "id"));
        }

        /** By the site of the VLAN, of the interface's device or of the VM interface's VM ({sites}: site ids). */
        private static List<ExtraFilter> placement(String name, Kind kind, String sites) {
            String in = " in " + (sites.equals("?") ? "(?)" : sites);
            return List.of(ExtraFilters.each(
                    name,
                    kind,
                    "(" + typed("ipam.vlan") + " in (select id from " + IpamTables.VLAN
                            + " where site_id" + in + ")) or (" + typed("dcim.interface")
                            + " in (select i.id from " + DcimTables.INTERFACE + " i"
                            + " join " + DcimTables.DEVICE + " d on d.id = i.device_id where d.site_id" + in + ")) or ("
                            + typed("virtualization.vminterface")
                            + " in (select i.id from " + VirtualizationTables.VMINTERFACE + " i join"
                            + " " + VirtualizationTables.VIRTUALMACHINE
                            + " m on m.id = i.virtual_machine_id where m.site_id" + in
                            + "))"));
        }
    }
}
