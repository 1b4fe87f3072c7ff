package org.sourceoftruth.records.ipam;

import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.virtualization.VirtualizationTables;

/**
 * NetBox's IPAM method filters (ipam/filtersets.py) as SQL over inet/cidr columns:
 * containment with {@code << <<= >> >>=}, {@code family()}, {@code masklen()}, host matches with
 * {@code host(x)::inet}. Values are parsed strictly: a bad address is a 400 naming the filter.
 */
final class IpamFilters {
    private IpamFilters() {}

    /** The filter value as the network it names (host bits cleared), e.g. for within=. */
    private static Object network(Object parsed) {
        return ((Cidr.Parsed) parsed).network().text();
    }

    private static Object address(Object parsed) {
        return ((Cidr.Parsed) parsed).text();
    }

    /** family and mask_length (+ lookups) of an inet/cidr column. */
    static List<ExtraFilter> familyAndMask(String column) {
        List<ExtraFilter> out = new ArrayList<>();
        out.add(ExtraFilters.each("family", Kind.INTEGER, "family({t}." + column + ") = ?"));
        out.addAll(ExtraFilters.number("mask_length", "masklen({t}." + column + ")"));
        return out;
    }

    /** vrf / present_in_vrf by route distinguisher, present_in_vrf_id by id (no route targets yet). */
    static List<ExtraFilter> vrf() {
        return List.of(
                new ExtraFilter(
                        "vrf",
                        Kind.STRING,
                        (alias, values) -> ExtraFilter.Sql.of(
                                alias + ".vrf_id in (select id from ipam_vrf where rd = any(?))",
                                new Db.SqlArray("text", values))),
                new ExtraFilter(
                        "present_in_vrf",
                        Kind.STRING,
                        (alias, values) -> ExtraFilter.Sql.of(
                                alias + ".vrf_id in (select id from ipam_vrf where rd = any(?))",
                                new Db.SqlArray("text", values))),
                ExtraFilters.each("present_in_vrf_id", Kind.INTEGER, "{t}.vrf_id = ?"));
    }

    static List<ExtraFilter> prefix() {
        List<ExtraFilter> out = new ArrayList<>(familyAndMask("prefix"));
        out.addAll(vrf());
        out.add(ExtraFilters.each("within", Kind.INET, "{t}.prefix << ?::cidr", IpamFilters::network));
        out.add(ExtraFilters.each("within_include", Kind.INET, "{t}.prefix <<= ?::cidr", IpamFilters::network));
        // A prefix value matches prefixes containing or equal to it; a bare address, prefixes containing it.
        out.add(new ExtraFilter("contains", Kind.INET, (alias, values) -> {
            List<String> parts = new ArrayList<>();
            List<Object> params = new ArrayList<>();
            for (Object v : values) {
                Cidr.Parsed p = (Cidr.Parsed) v;
                parts.add(alias + ".prefix " + (p.hasMask() ? ">>= ?::cidr" : ">> ?::inet"));
                params.add(p.hasMask() ? p.network().text() : p.text());
            }
            return new ExtraFilter.Sql(String.join(" or ", parts), params);
        }));
        out.addAll(ExtraFilters.number("depth", "(" + PrefixTree.depth("{t}") + ")"));
        out.addAll(ExtraFilters.number("children", "(" + PrefixTree.children("{t}") + ")"));
        out.add(ExtraFilters.each("vlan_vid", Kind.INTEGER, "{t}.vlan_id in (select id from ipam_vlan where vid = ?)"));
        out.add(ExtraFilters.each(
                        "vlan_group_id", Kind.INTEGER, "{t}.vlan_id in (select id from ipam_vlan where group_id = ?)")
                .choicesFrom("ipam_vlangroup", "id"));
        out.add(ExtraFilters.each(
                        "vlan_group",
                        Kind.STRING,
                        "{t}.vlan_id in (select v.id from ipam_vlan v join ipam_vlangroup g on g.id = v.group_id where g.slug = ?)")
                .choicesFrom("ipam_vlangroup", "slug"));
        return out;
    }

    static List<ExtraFilter> aggregate() {
        return new ArrayList<>(List.of(ExtraFilters.each("family", Kind.INTEGER, "family({t}.prefix) = ?")));
    }

    static List<ExtraFilter> ipRange() {
        List<ExtraFilter> out = new ArrayList<>();
        out.add(ExtraFilters.each("family", Kind.INTEGER, "family({t}.start_address) = ?"));
        out.addAll(vrf());
        out.add(hostOrAddress("start_address"));
        out.add(hostOrAddress("end_address"));
        out.add(ExtraFilters.each(
                "parent",
                Kind.INET,
                "host({t}.start_address)::inet <<= ?::cidr" + " and host({t}.end_address)::inet <<= ?::cidr",
                IpamFilters::network));
        // contains: the range covers the address, or the whole prefix.
        out.add(ExtraFilters.each(
                "contains",
                Kind.INET,
                "host({t}.start_address)::inet <= host(?::cidr)::inet"
                        + " and host({t}.end_address)::inet >= host(broadcast(?::cidr))::inet",
                IpamFilters::network));
        return out;
    }

    static List<ExtraFilter> ipAddress() {
        List<ExtraFilter> out = new ArrayList<>(familyAndMask("address"));
        out.addAll(vrf());
        out.add(ExtraFilters.each("parent", Kind.INET, "host({t}.address)::inet <<= ?::cidr", IpamFilters::network));
        out.add(hostOrAddress("address"));
        String onInterface = "{t}.assigned_object_type = 'dcim.interface' and {t}.assigned_object_id in ";
        String onVmInterface = "{t}.assigned_object_type = 'virtualization.vminterface' and {t}.assigned_object_id in ";
        out.add(ExtraFilters.each(
                "device",
                Kind.STRING,
                onInterface + "(select i.id from " + DcimTables.INTERFACE + " i join " + DcimTables.DEVICE
                        + " d on d.id = i.device_id where d.name = ?)"));
        out.add(ExtraFilters.each(
                "device_id",
                Kind.INTEGER,
                onInterface + "(select id from " + DcimTables.INTERFACE + " where device_id = ?)"));
        out.add(ExtraFilters.each(
                "virtual_machine",
                Kind.STRING,
                onVmInterface + "(select i.id from"
                        + " " + VirtualizationTables.VMINTERFACE + " i join " + VirtualizationTables.VIRTUALMACHINE
                        + " v on v.id = i.virtual_machine_id"
                        + " where v.name = ?)"));
        out.add(ExtraFilters.each(
                "virtual_machine_id",
                Kind.INTEGER,
                onVmInterface + "(select id from " + VirtualizationTables.VMINTERFACE
                        + " where virtual_machine_id = ?)"));
        // ModelMultipleChoiceFilters in NetBox (unknown interfaces are a 400); device_id and
        // virtual_machine_id above are number filters there (an unknown one matches nothing)
        out.add(ExtraFilters.each(
                        "interface",
                        Kind.STRING,
                        onInterface + "(select id from " + DcimTables.INTERFACE + " where name = ?)")
                .choicesFrom(DcimTables.INTERFACE, "name"));
        out.add(ExtraFilters.each("interface_id", Kind.INTEGER, onInterface + "(?)")
                .choicesFrom(DcimTables.INTERFACE, "id"));
        out.add(ExtraFilters.each(
                        "vminterface",
                        Kind.STRING,
                        onVmInterface + "(select id from " + VirtualizationTables.VMINTERFACE + " where name = ?)")
                .choicesFrom(VirtualizationTables.VMINTERFACE, "name"));
        out.add(ExtraFilters.each("vminterface_id", Kind.INTEGER, onVmInterface + "(?)")
                .choicesFrom(VirtualizationTables.VMINTERFACE, "id"));
        String toInterface = "{t}.assigned_object_type in ('dcim.interface', 'virtualization.vminterface')"
                + " and {t}.assigned_object_id is not null";
        out.add(ExtraFilters.bool("assigned_to_interface", toInterface, "not (" + toInterface + ")"));
        String assigned = "{t}.assigned_object_type is not null or {t}.assigned_object_id is not null";
        out.add(ExtraFilters.bool("assigned", "(" + assigned + ")", "not (" + assigned + ")"));
        return out;
    }

    /**
     * NetBox's address filters: a value with a mask matches exactly, a bare address matches the
     * host whatever the mask.
     */
    private static ExtraFilter hostOrAddress(String column) {
        return new ExtraFilter(column, Kind.INET, (alias, values) -> {
            List<String> parts = new ArrayList<>();
            List<Object> params = new ArrayList<>();
            for (Object v : values) {
                Cidr.Parsed p = (Cidr.Parsed) v;
                parts.add(
                        p.hasMask()
                                ? alias + "." + column + " = ?::inet"
                                : "host(" + alias + "." + column + ")::inet = ?::inet");
                params.add(address(p));
            }
            return new ExtraFilter.Sql(String.join(" or ", parts), params);
        });
    }
}
