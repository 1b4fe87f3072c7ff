package org.sourceoftruth.records.virtualization;

import static org.sourceoftruth.records.model.Declarations.organizational;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.dcim.DcimChoices;
import org.sourceoftruth.records.dcim.DcimModels;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.dcim.InterfaceModels;
import org.sourceoftruth.records.dcim.PrimaryIps;
import org.sourceoftruth.records.dcim.ScopeFilters;
import org.sourceoftruth.records.extras.ConfigContextCache;
import org.sourceoftruth.records.extras.ConfigContexts;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.Declarations;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.tenancy.TenancyFilters;

/** virtualization: cluster types and groups, clusters, virtual machine types, virtual machines and their interfaces. */
@ApplicationScoped
public class VirtualizationModels implements ModelDefinition {
    @Inject
    ConfigContextCache configContexts;

    public static final ChoiceSet CLUSTER_STATUS =
            ChoiceSet.capitalised("planned", "staging", "active", "decommissioning", "offline");
    public static final ChoiceSet VM_STATUS =
            ChoiceSet.capitalised("offline", "active", "planned", "staged", "failed", "decommissioning", "paused");
    public static final ChoiceSet START_ON_BOOT = ChoiceSet.of("on", "On", "off", "Off", "laststate", "Last State");
    /** The legacy nested set of a VM interface's parent and bridge. */
    private static final String[] NESTED_VM_INTERFACE = {
        "id", "url", "display_url", "display", "virtual_machine", "name"
    };

    @Override
    public List<Model> models() {
        Model clusterType = organizational("virtualization", "cluster-types", "cluster type")
                .fields(str("description").max(200), str("comments"))
                .standardTail()
                .fields(count("cluster_count", "virtualization_cluster", "type_id"))
                .brief("cluster_count");

        Model clusterGroup = organizational("virtualization", "cluster-groups", "cluster group")
                .fields(str("description").max(200), str("comments"))
                .standardTail()
                .fields(count("cluster_count", "virtualization_cluster", "group_id"))
                .brief("cluster_count");

        Model cluster = Model.of("virtualization", "clusters", "cluster")
                .fields(
                        str("name").required().max(100),
                        fk("type", "virtualization.clustertype").required().protect(),
                        fk("group", "virtualization.clustergroup").protect(),
                        choice("status", CLUSTER_STATUS).dflt("active"),
                        fk("tenant", "tenancy.tenant").protect(),
                        genericFk("scope", "scope_type", "scope_id", ScopeFilters.LOCATION_SCOPE_TYPES),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("device_count", DcimTables.DEVICE, "cluster_id"),
                        count("virtualmachine_count", "virtualization_virtualmachine", "cluster_id"),
                        computed("allocated_vcpus", r -> r.get("_vcpus")),
                        computed("allocated_memory", r -> r.get("_memory")),
                        computed("allocated_disk", r -> r.get("_disk")))
                .select("_vcpus", "select sum(v.vcpus) from virtualization_virtualmachine v where v.cluster_id = t.id")
                .select(
                        "_memory",
                        "select sum(v.memory) from virtualization_virtualmachine v where v.cluster_id = t.id")
                .select(
                        "_disk",
                        "select sum(" + VirtualDiskModels.effectiveDisk("v")
                                + ")::bigint from virtualization_virtualmachine v where v.cluster_id = t.id")
                .unique(UniqueRule.of("Cluster with this Group and Name already exists.", "group_id", "name")
                        .skipIfNull("group_id"))
                .filters(ScopeFilters.locationScope("scope_type", "scope_id"))
                .filters(TenancyFilters.tenantGroup())
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "description", "virtualmachine_count");

        // defaults for the virtual machines created with the type (V201's trigger applies them)
        Model virtualMachineType = Model.of("virtualization", "virtual-machine-types", "virtual machine type")
                .fields(
                        str("name").required().max(100),
                        slug("slug").unique(),
                        fk("default_platform", "dcim.platform"),
                        decimal("default_vcpus").nullable(),
                        integer("default_memory").range(0, Integer.MAX_VALUE).nullable(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("virtual_machine_count", "virtualization_virtualmachine", "virtual_machine_type_id"))
                .unique(UniqueRule.of("Virtual machine type name must be unique.", "name")
                        .ignoreCase("name"))
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "slug", "description");

        Model virtualMachine = Model.of("virtualization", "virtual-machines", "virtual machine")
                .fields(
                        str("name").required().max(64),
                        fk("virtual_machine_type", "virtualization.virtualmachinetype")
                                .protect(),
                        fk("role", "dcim.devicerole").protect(),
                        choice("status", VM_STATUS).dflt("active"),
                        choice("start_on_boot", START_ON_BOOT).dflt("off"),
                        fk("site", "dcim.site").protect(),
                        fk("cluster", "virtualization.cluster").protect(),
                        fk("device", "dcim.device").protect(),
                        fk("platform", "dcim.platform"),
                        PrimaryIps.primaryIp(),
                        PrimaryIps.address("primary_ip4"),
                        PrimaryIps.address("primary_ip6"),
                        decimal("vcpus").nullable(),
                        integer("memory").range(0, Integer.MAX_VALUE).nullable(),
                        integer("disk")
                                .range(0, Integer.MAX_VALUE)
                                .nullable()
                                .readAs(VirtualDiskModels.effectiveDisk("t")),
                        str("description").max(200),
                        str("serial").max(50),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("comments"),
                        tags(),
                        json("local_context_data").nullable(),
                        customFields(),
                        datetime("created").readOnly().nullable(),
                        datetime("last_updated").readOnly().nullable(),
                        count("interface_count", "virtualization_vminterface", "virtual_machine_id"),
                        count("virtual_disk_count", "virtualization_virtualdisk", "virtual_machine_id"),
                        fk("config_template", "extras.configtemplate").protect(),
                        ConfigContexts.field(configContexts.forVirtualMachines()))
                .select("_primary_ip_id", PrimaryIps.PRIMARY_IP_SELECT)
                .unique(UniqueRule.of(
                                "Virtual machine name must be unique per cluster and tenant.",
                                "tenant_id",
                                "cluster_id",
                                "name")
                        .topLevel("Virtual machine name must be unique per cluster.")
                        .ignoreCase("name")
                        .skipIfNull("cluster_id"))
                .unique(UniqueRule.of(
                                "Virtual machine name must be unique per device and tenant.",
                                "tenant_id",
                                "device_id",
                                "name")
                        .topLevel("Virtual machine name must be unique per device.")
                        .ignoreCase("name")
                        .skipIfNull("device_id")
                        .onlyIfNull("cluster_id"))
                .validator((row, errors) -> {
                    if (row.get("site_id") == null && row.get("cluster_id") == null && row.get("device_id") == null) {
                        errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                                .add("A virtual machine must be assigned to a site, cluster, or device.");
                    }
                    ConfigContexts.requireObject("local_context_data", row, errors);
                })
                .check(PrimaryIps.forVirtualMachines(), "primary_ip4_id", "primary_ip6_id")
                .check(VirtualDiskModels.diskMatchesVirtualDisks())
                .filter(ExtraFilters.each(
                                "cluster_group_id",
                                Kind.INTEGER,
                                "{t}.cluster_id in (select id from virtualization_cluster where group_id = ?)")
                        .choicesFrom("virtualization_clustergroup", "id"))
                .filter(ExtraFilters.each(
                                "cluster_group",
                                Kind.STRING,
                                "{t}.cluster_id in (select c.id from"
                                        + " virtualization_cluster c join virtualization_clustergroup g on g.id = c.group_id where g.slug = ?)")
                        .choicesFrom("virtualization_clustergroup", "slug"))
                .filter(ExtraFilters.each(
                                "cluster_type_id",
                                Kind.INTEGER,
                                "{t}.cluster_id in (select id from virtualization_cluster where type_id = ?)")
                        .choicesFrom("virtualization_clustertype", "id"))
                .filter(ExtraFilters.each(
                                "cluster_type",
                                Kind.STRING,
                                "{t}.cluster_id in (select c.id from"
                                        + " virtualization_cluster c join virtualization_clustertype y on y.id = c.type_id where y.slug = ?)")
                        .choicesFrom("virtualization_clustertype", "slug"))
                .filter(PrimaryIps.hasPrimaryIp())
                .filter(ExtraFilters.each(
                                "region_id",
                                Kind.INTEGER,
                                "{t}.site_id in (select id from " + DcimTables.SITE + " where" + " region_id in ("
                                        + ScopeFilters.descendantsOf(DcimTables.REGION) + "))")
                        .choicesFrom(DcimTables.REGION, "id"))
                .filters(TenancyFilters.tenantGroup())
                .relationFilter("primary_ip4", "primary_ip4", "address")
                .relationFilter("primary_ip6", "primary_ip6", "address")
                .filter(DcimModels.localContextData())
                .childFilter("mac_address", "virtualization.vminterface", "virtual_machine")
                .ordering("t.name")
                .search("t.name", "t.serial", "t.description", "t.comments")
                .brief("name", "description");

        Model vmInterface = Model.of(
                        "virtualization",
                        "interfaces",
                        "virtualization.vminterface",
                        "virtualization_vminterface",
                        "interface")
                .apiName("VMInterface")
                .fields(
                        fk("virtual_machine", "virtualization.virtualmachine")
                                .required()
                                .cascade(),
                        str("name").required().max(64),
                        bool("enabled").dflt(true),
                        fk("parent", "virtualization.vminterface").protect().nestedFields(NESTED_VM_INTERFACE),
                        fk("bridge", "virtualization.vminterface").nestedFields(NESTED_VM_INTERFACE),
                        integer("mtu").range(1, 65536).nullable(),
                        // the primary MAC object's address, kept in the column by V65's triggers
                        str("mac_address").max(18).nullable().readOnly(),
                        str("description").max(200),
                        choice("mode", DcimChoices.INTERFACE_MODE).nullable(),
                        fk("untagged_vlan", "ipam.vlan"),
                        m2m(
                                "tagged_vlans",
                                "ipam.vlan",
                                "virtualization_vminterface_tagged_vlans",
                                "vminterface_id",
                                "vlan_id"),
                        fk("vrf", "ipam.vrf"))
                .standardTail()
                .fields(count("count_ipaddresses", "ipam_ipaddress", "assigned_object_id")
                        .countWhere("assigned_object_type = 'virtualization.vminterface'"))
                .fields(InterfaceModels.interfaceRelations("virtualization.vminterface"))
                .validator(InterfaceModels::qinqServiceVlan)
                .fields(org.sourceoftruth.records.dcim.MacAddressModels.interfaceMacs("vminterface_id"))
                .check(org.sourceoftruth.records.dcim.MacAddressModels.primaryIsOwn("virtualization.vminterface"))
                .relationFilter("primary_mac_address", "primary_mac_address", "mac_address")
                .unique(UniqueRule.of(
                        "Interface with this Virtual machine and Name already exists.", "virtual_machine_id", "name"))
                .filter(ExtraFilters.each(
                                "cluster_id",
                                Kind.INTEGER,
                                "{t}.virtual_machine_id in (select id from virtualization_virtualmachine where cluster_id = ?)")
                        .choicesFrom("virtualization_cluster", "id"))
                .relationFilter("cluster", "virtual_machine.cluster", "name")
                .filters(InterfaceModels.interfaceVlanFilters(
                        "virtualization_vminterface_tagged_vlans", "vminterface_id"))
                .ordering(interfaceOrder())
                .search("t.name", "t.description")
                .brief("display_url", "virtual_machine", "name", "description");

        org.sourceoftruth.records.dcim.L2vpnTerminations.declare(vmInterface);
        return List.of(clusterType, clusterGroup, cluster, virtualMachineType, virtualMachine, vmInterface);
    }

    private static String[] interfaceOrder() {
        List<String> terms = new ArrayList<>(List.of("t.virtual_machine_id"));
        terms.addAll(List.of(Declarations.naturalOrder("t.name")));
        return terms.toArray(String[]::new);
    }
}
