package org.sourceoftruth.records.ipam;

import static org.sourceoftruth.records.ipam.IpamChoices.*;
import static org.sourceoftruth.records.model.Declarations.depth;
import static org.sourceoftruth.records.model.Declarations.organizational;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.dcim.ScopeFilters;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.net.Addresses;
import org.sourceoftruth.records.net.Networks;
import org.sourceoftruth.records.tenancy.TenancyFilters;
import org.sourceoftruth.records.virtualization.VirtualizationTables;

/** ipam: VRFs, RIRs, aggregates, roles, prefixes, IP ranges, IP addresses, VLAN groups, VLANs. */
@ApplicationScoped
public class IpamModels implements ModelDefinition {
    /** Content types an IP address may be assigned to. */
    public static final List<String> IP_ASSIGNMENT_TYPES =
            List.of("dcim.interface", "virtualization.vminterface", "ipam.fhrpgroup");
    /** Content types a VLAN group may be scoped to (NetBox's VLANGROUP_SCOPE_TYPES we serve). */
    public static final List<String> VLAN_GROUP_SCOPE_TYPES = List.of(
            "dcim.region",
            "dcim.sitegroup",
            "dcim.site",
            "dcim.location",
            "dcim.rackgroup",
            "dcim.rack",
            "virtualization.clustergroup",
            "virtualization.cluster");
    /** The nested form NetBox uses for nat_inside / nat_outside. */
    static final String[] NESTED_IP = {"id", "url", "display_url", "display", "family", "address"};

    @Inject
    IpamConfig config;

    @Override
    public List<Model> models() {
        IpamRules rules = new IpamRules(config.enforceGlobalUnique());

        Model vrf = Model.of("ipam", "vrfs", "VRF")
                .fields(
                        str("name").required().max(100),
                        str("rd").max(21).nullable().dflt(null).unique().label("Route distinguisher"),
                        fk("tenant", "tenancy.tenant").protect(),
                        bool("enforce_unique").dflt(true),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("ipaddress_count", "ipam_ipaddress", "vrf_id"),
                        count("prefix_count", "ipam_prefix", "vrf_id"),
                        m2m(
                                "import_targets",
                                "ipam.routetarget",
                                "ipam_vrf_import_targets",
                                "vrf_id",
                                "routetarget_id"),
                        m2m(
                                "export_targets",
                                "ipam.routetarget",
                                "ipam_vrf_export_targets",
                                "vrf_id",
                                "routetarget_id"))
                .display(r -> r.str("rd") == null ? r.str("name") : r.str("name") + " (" + r.str("rd") + ")")
                .filters(TenancyFilters.tenantGroup())
                .relationFilter("import_target", "import_targets", "name")
                .relationFilter("import_target_id", "import_targets", "id")
                .relationFilter("export_target", "export_targets", "name")
                .relationFilter("export_target_id", "export_targets", "id")
                .ordering("t.name", "t.rd")
                .search("t.name", "t.rd", "t.description")
                .brief("name", "rd", "description", "prefix_count");

        Model rir = organizational("ipam", "rirs", "RIR")
                .fields(bool("is_private").dflt(false), str("description").max(200), str("comments"))
                .standardTail()
                .fields(count("aggregate_count", "ipam_aggregate", "rir_id"))
                .brief("aggregate_count");

        Model aggregate = Model.of("ipam", "aggregates", "aggregate")
                .fields(
                        family("prefix"),
                        cidr("prefix").required(),
                        fk("rir", "ipam.rir").required().protect(),
                        fk("tenant", "tenancy.tenant").protect(),
                        date("date_added").nullable(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .display(r -> r.str("prefix"))
                .filters(IpamFilters.aggregate())
                .filters(TenancyFilters.tenantGroup())
                .check(rules::aggregate)
                .ordering("t.prefix")
                .search("t.prefix", "t.description")
                .brief("family", "prefix", "description");

        Model role = Model.of("ipam", "roles", "role")
                .fields(
                        str("name").required().max(100).unique(),
                        slug("slug").unique(),
                        integer("weight").range(0, 32767).dflt(1000),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("prefix_count", "ipam_prefix", "role_id"),
                        count("vlan_count", "ipam_vlan", "role_id"),
                        count("asn_count", "ipam_asn", "role_id"))
                .ordering("t.weight", "t.name")
                .search("t.name", "t.slug", "t.description")
                .brief("name", "slug", "description", "prefix_count", "vlan_count", "asn_count");

        Model vlanGroup = Model.of("ipam", "vlan-groups", "VLAN group")
                .fields(
                        str("name").required().max(100),
                        slug("slug"),
                        genericFk("scope", "scope_type", "scope_id", VLAN_GROUP_SCOPE_TYPES),
                        json("vid_ranges").dflt(List.of(List.of(1, 4094))).label("VLAN ID ranges"),
                        // kept by V202's trigger from vid_ranges, as NetBox's save() stores it
                        integer("total_vlan_ids").readOnly(),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("vlan_count", "ipam_vlan", "group_id"),
                        computed("utilization", r -> r.str("_utilization")))
                .select(
                        "_utilization",
                        "select round(count(*) * 100.0 / nullif((select sum((x->>1)::int - (x->>0)::int + 1)"
                                + " from jsonb_array_elements(t.vid_ranges) x), 0), 2)::text from ipam_vlan v where v.group_id = t.id")
                .unique(UniqueRule.of(
                                "VLAN group with this Scope type, Scope id and Name already exists.",
                                "scope_type",
                                "scope_id",
                                "name")
                        .skipIfNull("scope_type", "scope_id"))
                .unique(UniqueRule.of(
                                "VLAN group with this Scope type, Scope id and Slug already exists.",
                                "scope_type",
                                "scope_id",
                                "slug")
                        .skipIfNull("scope_type", "scope_id"))
                .validator(IpamRules::vidRanges)
                .filters(vlanGroupScopeFilters())
                .filter(
                        ExtraFilters.each(
                                "contains_vid",
                                Kind.INTEGER,
                                "exists (select 1 from"
                                        + " jsonb_array_elements({t}.vid_ranges) x where (x->>0)::int <= ? and (x->>1)::int >= ?)"))
                .filters(TenancyFilters.tenantGroup())
                .ordering("t.name")
                .search("t.name", "t.slug", "t.description")
                .brief("name", "slug", "description", "vlan_count");

        Model vlan = Model.of("ipam", "vlans", "VLAN")
                .fields(
                        fk("site", "dcim.site").protect(),
                        fk("group", "ipam.vlangroup").protect(),
                        integer("vid").required().range(1, 4094).label("VLAN ID"),
                        str("name").required().max(64),
                        fk("tenant", "tenancy.tenant").protect(),
                        choice("status", VLAN_STATUS).dflt("active"),
                        fk("role", "ipam.role"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("prefix_count", "ipam_prefix", "vlan_id"),
                        choice("qinq_role", VLAN_QINQ_ROLE).nullable().label("Q-in-Q role"),
                        fk("qinq_svlan", "ipam.vlan").protect())
                .display(r -> r.str("name") + " (" + r.str("vid") + ")")
                .unique(UniqueRule.of("VLAN with this Group and VLAN ID already exists.", "group_id", "vid")
                        .skipIfNull("group_id"))
                .unique(UniqueRule.of("VLAN with this Group and Name already exists.", "group_id", "name")
                        .skipIfNull("group_id"))
                .unique(UniqueRule.of("VLAN with this Qinq svlan and VLAN ID already exists.", "qinq_svlan_id", "vid")
                        .skipIfNull("qinq_svlan_id"))
                .unique(UniqueRule.of("VLAN with this Qinq svlan and Name already exists.", "qinq_svlan_id", "name")
                        .skipIfNull("qinq_svlan_id"))
                .validator(IpamRules::vlanQinq)
                .check(rules::vlan)
                .filters(TenancyFilters.tenantGroup())
                .filter(ExtraFilters.each(
                                "region_id",
                                Kind.INTEGER,
                                "{t}.site_id in (select id from " + DcimTables.SITE + " where" + " region_id in ("
                                        + ScopeFilters.descendantsOf(DcimTables.REGION) + "))")
                        .choicesFrom(DcimTables.REGION, "id"))
                .filter(ExtraFilters.each(
                        "interface_id",
                        Kind.INTEGER,
                        "{t}.id in (select untagged_vlan_id from" + " " + DcimTables.INTERFACE
                                + " where id = ? union select vlan_id from " + DcimTables.INTERFACE_TAGGED_VLANS
                                + " where interface_id = ?)"))
                .filter(ExtraFilters.each(
                        "vminterface_id",
                        Kind.INTEGER,
                        "{t}.id in (select untagged_vlan_id from"
                                + " " + VirtualizationTables.VMINTERFACE + " where id = ? union select vlan_id from"
                                + " " + VirtualizationTables.VMINTERFACE_TAGGED_VLANS + " where vminterface_id = ?)"))
                .filters(ExtraFilters.number(
                        "qinq_svlan_vid", "(select s.vid from ipam_vlan s where s.id = {t}.qinq_svlan_id)"))
                .filters(VlanAvailability.filters())
                .ordering(
                        "(select s.name from " + DcimTables.SITE + " s where s.id = t.site_id)",
                        "(select g.name from ipam_vlangroup g where g.id = t.group_id)",
                        "t.vid")
                .search("t.name", "t.vid", "t.description")
                .brief("vid", "name", "description");

        Model prefix = Model.of("ipam", "prefixes", "prefix")
                .fields(
                        family("prefix"),
                        cidr("prefix").required(),
                        fk("vrf", "ipam.vrf").protect(),
                        genericFk("scope", "scope_type", "scope_id", ScopeFilters.LOCATION_SCOPE_TYPES),
                        fk("tenant", "tenancy.tenant").protect(),
                        fk("vlan", "ipam.vlan").protect(),
                        choice("status", PREFIX_STATUS).dflt("active"),
                        fk("role", "ipam.role"),
                        bool("is_pool").dflt(false),
                        bool("mark_utilized").dflt(false),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(computed("children", r -> r.longValue("_children")), depth())
                .select("_depth", PrefixTree.depth("t"))
                .select("_children", PrefixTree.children("t"))
                .display(r -> r.str("prefix"))
                .filters(IpamFilters.prefix())
                .filters(ScopeFilters.locationScope("scope_type", "scope_id"))
                .filters(TenancyFilters.tenantGroup())
                .check(rules::prefix)
                .ordering("t.vrf_id nulls first", "t.prefix")
                .search("t.prefix", "t.description")
                .brief("family", "prefix", "description", "_depth");

        Model ipRange = Model.of("ipam", "ip-ranges", "IP range")
                .fields(
                        family("start_address"),
                        inet("start_address").required(),
                        inet("end_address").required(),
                        integer("size").readOnly(),
                        fk("vrf", "ipam.vrf").protect(),
                        fk("tenant", "tenancy.tenant").protect(),
                        choice("status", IP_RANGE_STATUS).dflt("active"),
                        fk("role", "ipam.role"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        bool("mark_populated").dflt(false),
                        bool("mark_utilized").dflt(false))
                .display(r -> Addresses.rangeName(r.get("start_address"), r.get("end_address")))
                .filters(IpamFilters.ipRange())
                .filters(TenancyFilters.tenantGroup())
                .check(rules::ipRange)
                .ordering("t.vrf_id nulls first", "t.start_address")
                .search("t.start_address", "t.end_address", "t.description")
                .brief("family", "start_address", "end_address", "description");

        Model ipAddress = Model.of("ipam", "ip-addresses", "IP address")
                .fields(
                        family("address"),
                        inet("address").required(),
                        fk("vrf", "ipam.vrf").protect(),
                        fk("tenant", "tenancy.tenant").protect(),
                        choice("status", IP_ADDRESS_STATUS).dflt("active"),
                        choice("role", IP_ADDRESS_ROLE).nullable(),
                        genericFk("assigned_object", "assigned_object_type", "assigned_object_id", IP_ASSIGNMENT_TYPES)
                                .cascade(),
                        fk("nat_inside", "ipam.ipaddress")
                                .nestedFields(NESTED_IP)
                                .label("NAT (inside)"),
                        m2m("nat_outside", "ipam.ipaddress", "ipam_ipaddress", "nat_inside_id", "id")
                                .readOnly()
                                .nestedFields(NESTED_IP),
                        str("dns_name")
                                .max(255)
                                .label("DNS name")
                                .pattern(
                                        "^([0-9A-Za-z_-]+|\\*)(\\.[0-9A-Za-z_-]+)*\\.?$",
                                        "Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed"
                                                + " in DNS names"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .display(r -> Networks.withMask(r.str("address")))
                .filters(IpamFilters.ipAddress())
                .filters(TenancyFilters.tenantGroup())
                // the services bound to the address (NetBox's service_id: services__id)
                .filter(ExtraFilters.each(
                                "service_id",
                                Kind.INTEGER,
                                "{t}.id in (select s.ipaddress_id from"
                                        + " ipam_service_ipaddresses s where s.service_id = ?)")
                        .choicesFrom("ipam_service", "id"))
                .filter(ExtraFilters.each(
                                "fhrpgroup_id",
                                Kind.INTEGER,
                                "{t}.assigned_object_type = 'ipam.fhrpgroup'" + " and {t}.assigned_object_id = ?")
                        .choicesFrom("ipam_fhrpgroup", "id"))
                .check(rules::ipAddress)
                .ordering("host(t.address)::inet")
                .search("t.address", "t.dns_name", "t.description")
                .brief("family", "address", "description");

        org.sourceoftruth.records.dcim.L2vpnTerminations.declare(vlan);
        return List.of(vrf, rir, aggregate, role, vlanGroup, vlan, prefix, ipRange, ipAddress);
    }

    /** family: {value, label} in every representation (NetBox 4.4), computed from an inet/cidr column. */
    static Field family(String column) {
        return computed("family", (Row r) -> r.get(column) == null ? null : Addresses.familyChoice(r.get(column)))
                .rendersChoice(IpamChoices.FAMILY);
    }

    /** VLAN groups: region, site_group, site, location, rack_group, rack, cluster_group, cluster by id of the scope. */
    private static List<org.sourceoftruth.records.model.ExtraFilter> vlanGroupScopeFilters() {
        String[][] scopes = {
            {"region", "dcim.region"},
            {"site_group", "dcim.sitegroup"},
            {"site", "dcim.site"},
            {"location", "dcim.location"},
            {"rack_group", "dcim.rackgroup"},
            {"rack", "dcim.rack"},
            {"cluster_group", "virtualization.clustergroup"},
            {"cluster", "virtualization.cluster"}
        };
        List<org.sourceoftruth.records.model.ExtraFilter> out = new java.util.ArrayList<>();
        for (String[] s : scopes) {
            out.add(ExtraFilters.each(s[0], Kind.INTEGER, "{t}.scope_type = '" + s[1] + "' and {t}.scope_id = ?"));
        }
        return out;
    }
}
