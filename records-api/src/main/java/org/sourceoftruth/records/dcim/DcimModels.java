package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.DcimChoices.*;
import static org.sourceoftruth.records.model.Declarations.*;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.sourceoftruth.records.extras.ConfigContextCache;
import org.sourceoftruth.records.extras.ConfigContexts;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;

/** dcim: regions, site groups, sites, locations, manufacturers, roles, platforms, device types, devices. */
@ApplicationScoped
public class DcimModels implements ModelDefinition {
    @Inject
    ConfigContextCache configContexts;

    @Override
    public List<Model> models() {
        Model region = nestedGroup("dcim", "regions", "region", count("site_count", "dcim_site", "region_id"))
                .fields(scopedPrefixCount("dcim.region"));

        Model siteGroup = nestedGroup("dcim", "site-groups", "site group", count("site_count", "dcim_site", "group_id"))
                .fields(scopedPrefixCount("dcim.sitegroup"));

        Model site = organizational("dcim", "sites", "site")
                .fields(
                        choice("status", SITE_STATUS).dflt("active"),
                        fk("region", "dcim.region"),
                        fk("group", "dcim.sitegroup"),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("facility").max(50),
                        str("time_zone").max(63).nullable().dflt(null),
                        str("description").max(200),
                        str("physical_address").max(200),
                        str("shipping_address").max(200),
                        decimal("latitude").nullable().range("-90.0", "90.0"),
                        decimal("longitude").nullable().range("-180.0", "180.0"),
                        str("comments"))
                .standardTail()
                .fields(
                        count("device_count", "dcim_device", "site_id"),
                        count("rack_count", "dcim_rack", "site_id"),
                        scopedPrefixCount("dcim.site"),
                        countOf("vlan_count", "ipam.vlan", "site_id"),
                        countOf("virtualmachine_count", "virtualization.virtualmachine", "site_id"),
                        countOf("circuit_count", "circuits.circuittermination", "termination_id")
                                .countWhere("termination_type = 'dcim.site'"),
                        m2m("asns", "ipam.asn", "dcim_site_asns", "site_id", "asn_id"))
                .relationFilter("asn", "asns", "asn")
                .relationFilter("asn_id", "asns", "id")
                .search("t.facility", "t.physical_address", "t.shipping_address", "t.comments");

        Model location = Model.of("dcim", "locations", "location")
                .fields(
                        str("name").required().max(100),
                        slug("slug"),
                        fk("site", "dcim.site").required().cascade(),
                        fk("parent", "dcim.location").cascade(),
                        choice("status", LOCATION_STATUS).dflt("active"),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("facility").max(50),
                        str("description").max(200))
                .standardTail()
                .fields(
                        count("rack_count", "dcim_rack", "location_id").nestedCount(Field.NestedCount.ZERO),
                        count("device_count", "dcim_device", "location_id"),
                        scopedPrefixCount("dcim.location"),
                        str("comments"),
                        depth())
                .tree("parent")
                .select(
                        "_depth",
                        "with recursive a(pid) as (select t.parent_id union all select p.parent_id from"
                                + " dcim_location p join a on p.id = a.pid) select count(*) from a where pid is not null")
                // parent first: its top-level message is for a location of no parent
                .unique(UniqueRule.of(
                                "Location with this Site, Parent and Name already exists.",
                                "parent_id",
                                "site_id",
                                "name")
                        .topLevel("A location with this name already exists within the specified site."))
                .unique(UniqueRule.of(
                                "Location with this Site, Parent and Slug already exists.",
                                "parent_id",
                                "site_id",
                                "slug")
                        .topLevel("A location with this slug already exists within the specified site."))
                .ordering("t.name")
                .search("t.name", "t.slug", "t.description", "t.comments")
                .brief("name", "slug", "description", "rack_count", "_depth");

        Model manufacturer = organizational("dcim", "manufacturers", "manufacturer")
                .fields(str("description").max(200), str("comments"))
                .standardTail()
                .fields(
                        count("devicetype_count", "dcim_devicetype", "manufacturer_id"),
                        count("moduletype_count", "dcim_moduletype", "manufacturer_id"),
                        count("inventoryitem_count", "dcim_inventoryitem", "manufacturer_id"),
                        count("platform_count", "dcim_platform", "manufacturer_id"));

        Model deviceRole = tree("dcim", "device-roles", "device role")
                .fields(
                        str("color").max(6).dflt("9e9e9e").pattern(COLOR, COLOR_MESSAGE),
                        bool("vm_role").dflt(true),
                        str("description").max(200))
                .standardTail()
                .fields(
                        count("device_count", "dcim_device", "role_id").nestedCount(Field.NestedCount.ZERO),
                        countOf("virtualmachine_count", "virtualization.virtualmachine", "role_id")
                                .nestedCount(Field.NestedCount.ZERO),
                        fk("config_template", "extras.configtemplate").protect(),
                        str("comments"),
                        depth())
                .brief("device_count", "virtualmachine_count");

        Model platform = treeShape("dcim", "platforms", "platform")
                .fields(
                        fk("manufacturer", "dcim.manufacturer").protect(),
                        str("description").max(200))
                // unique per manufacturer, as NetBox's constraints (not among siblings)
                .unique(UniqueRule.of(
                                "Platform with this Manufacturer and Name already exists.", "manufacturer_id", "name")
                        .topLevel("Platform name must be unique."))
                .unique(UniqueRule.of(
                                "Platform with this Manufacturer and Slug already exists.", "manufacturer_id", "slug")
                        .topLevel("Platform slug must be unique."))
                .standardTail()
                .fields(
                        count("device_count", "dcim_device", "platform_id").nestedCount(Field.NestedCount.ZERO),
                        countOf("virtualmachine_count", "virtualization.virtualmachine", "platform_id")
                                .nestedCount(Field.NestedCount.ZERO),
                        fk("config_template", "extras.configtemplate").protect(),
                        str("comments"),
                        depth())
                // NetBox's get_for_device_type: platforms of the device type's manufacturer, or of none
                .filter(ExtraFilters.each(
                                "available_for_device_type",
                                Kind.INTEGER,
                                "{t}.manufacturer_id is null"
                                        + " or {t}.manufacturer_id in (select manufacturer_id from dcim_devicetype where id = ?)")
                        .choicesFrom("dcim_devicetype", "id"))
                .brief("device_count", "virtualmachine_count");

        Model deviceType = Model.of("dcim", "device-types", "device type")
                .fields(
                        fk("manufacturer", "dcim.manufacturer").required().protect(),
                        fk("default_platform", "dcim.platform"),
                        str("model").required().max(100),
                        slug("slug"),
                        str("part_number").max(50),
                        decimal("u_height").dflt(1.0),
                        bool("exclude_from_utilization").dflt(false),
                        bool("is_full_depth").dflt(true),
                        choice("subdevice_role", SUBDEVICE_ROLE).nullable(),
                        choice("airflow", AIRFLOW).nullable(),
                        decimal("weight").nullable(),
                        choice("weight_unit", WEIGHT_UNIT).nullable(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("device_count", "dcim_device", "device_type_id")
                                .counterCache()
                                .nestedCount(Field.NestedCount.REAL),
                        // NetBox's upload_to='devicetype-images'; null clears (its serializer's allow_null)
                        image("front_image", (row, file) -> "devicetype-images/" + file)
                                .nullable(),
                        image("rear_image", (row, file) -> "devicetype-images/" + file)
                                .nullable())
                .fields(ComponentCounts.deviceTypeCounts())
                .fields(count("module_bay_template_count", "dcim_modulebaytemplate", "device_type_id")
                        .counterCache())
                .filters(ComponentCounts.deviceTypeFilters())
                .filter(ExtraFilters.bool("has_front_image", "{t}.front_image <> ''", "{t}.front_image = ''"))
                .filter(ExtraFilters.bool("has_rear_image", "{t}.rear_image <> ''", "{t}.rear_image = ''"))
                .filter(ExtraFilters.bool(
                        "module_bays",
                        "exists (select 1 from dcim_modulebaytemplate x where x.device_type_id = {t}.id)",
                        "not exists (select 1 from dcim_modulebaytemplate x where x.device_type_id = {t}.id)"))
                .display(r -> r.str("model"))
                .unique(UniqueRule.of(
                        "Device type with this Manufacturer and Model already exists.", "manufacturer_id", "model"))
                .unique(UniqueRule.of(
                        "Device type with this Manufacturer and Slug already exists.", "manufacturer_id", "slug"))
                .ordering("t.manufacturer_id", "t.model")
                .search("t.model", "t.part_number", "t.description", "t.comments")
                .brief("manufacturer", "model", "slug", "description", "device_count");

        Model device = Model.of("dcim", "devices", "device")
                .fields(
                        str("name").max(64).nullable().dflt(null),
                        computed("display_name", DcimModels::deviceDisplay),
                        fk("device_type", "dcim.devicetype").required().protect(),
                        fk("role", "dcim.devicerole").required().protect().alias("device_role"),
                        fk("tenant", "tenancy.tenant").protect(),
                        fk("platform", "dcim.platform"),
                        str("serial").max(50),
                        str("asset_tag").max(50).nullable().unique().dflt(null),
                        fk("site", "dcim.site").required().protect(),
                        fk("location", "dcim.location").protect(),
                        fk("rack", "dcim.rack").protect(),
                        decimal("position").nullable(),
                        choice("face", FACE).nullable(),
                        decimal("latitude").nullable().range("-90.0", "90.0"),
                        decimal("longitude").nullable().range("-180.0", "180.0"),
                        choice("status", DEVICE_STATUS).dflt("active"),
                        choice("airflow", AIRFLOW).nullable(),
                        PrimaryIps.primaryIp(),
                        PrimaryIps.address("primary_ip4"),
                        PrimaryIps.address("primary_ip6"),
                        PrimaryIps.address("oob_ip"),
                        fk("cluster", "virtualization.cluster"),
                        str("description").max(200),
                        str("comments"),
                        ConfigContexts.field(configContexts.forDevices()),
                        json("local_context_data").nullable())
                .standardTail()
                .fields(
                        count("interface_count", "dcim_interface", "device_id").counterCache(),
                        fk("virtual_chassis", "dcim.virtualchassis")
                                .onDelete(Field.OnDelete.SET_NULL)
                                .clearsWith("vc_position", "vc_priority"),
                        integer("vc_position").nullable().range(0, 255),
                        integer("vc_priority").nullable().range(0, 255),
                        fk("config_template", "extras.configtemplate").protect())
                .fields(ComponentCounts.deviceCounts())
                .fields(count("module_bay_count", "dcim_modulebay", "device_id").counterCache())
                .filters(ComponentCounts.deviceFilters())
                .componentsFrom("device_type", org.sourceoftruth.records.model.ComponentNames.AS_GIVEN, false)
                .filter(ExtraFilters.bool(
                        "module_bays",
                        "exists (select 1 from dcim_modulebay x where x.device_id = {t}.id)",
                        "not exists (select 1 from dcim_modulebay x where x.device_id = {t}.id)"))
                .select("_primary_ip_id", PrimaryIps.PRIMARY_IP_SELECT)
                .check(PrimaryIps.forDevices(), "primary_ip4_id", "primary_ip6_id", "oob_ip_id")
                .check(RackSpace::devicePlacement, "rack_id", "position", "face", "device_type_id")
                .check(VirtualChassisModels::memberRules, "virtual_chassis_id", "vc_position")
                .unique(UniqueRule.of(
                                "Device with this Virtual chassis and VC position already exists.",
                                "virtual_chassis_id",
                                "vc_position")
                        .skipIfNull("virtual_chassis_id", "vc_position"))
                .filter(ExtraFilters.bool(
                        "virtual_chassis_member",
                        "{t}.virtual_chassis_id is not null",
                        "{t}.virtual_chassis_id is null"))
                .validator((row, errors) -> ConfigContexts.requireObject("local_context_data", row, errors))
                .filter(PrimaryIps.hasPrimaryIp())
                .filter(ExtraFilters.bool("has_oob_ip", "{t}.oob_ip_id is not null", "{t}.oob_ip_id is null"))
                .filter(ExtraFilters.bool(
                        "has_virtual_device_context",
                        "exists (select 1 from dcim_virtualdevicecontext v where v.device_id = {t}.id)",
                        "not exists (select 1 from dcim_virtualdevicecontext v where v.device_id = {t}.id)"))
                .relationFilter("manufacturer", "device_type.manufacturer", "slug")
                .relationFilter("manufacturer_id", "device_type.manufacturer", "id")
                .relationFilter("model", "device_type", "slug")
                .relationFilter("primary_ip4", "primary_ip4", "address")
                .relationFilter("primary_ip6", "primary_ip6", "address")
                .filter(ExtraFilters.bool(
                        "is_full_depth",
                        "{t}.device_type_id in (select id from dcim_devicetype" + " where is_full_depth)",
                        "{t}.device_type_id in (select id from dcim_devicetype where not is_full_depth)"))
                .filter(ExtraFilters.bool(
                        "interfaces",
                        "exists (select 1 from dcim_interface i where i.device_id = {t}.id)",
                        "not exists (select 1 from dcim_interface i where i.device_id = {t}.id)"))
                .filter(localContextData())
                .childFilter("mac_address", "dcim.interface", "device")
                // what the display of a device without a name shows; PostgreSQL runs a subquery
                // inside CASE only for the rows that reach it, so named devices cost nothing here
                .select(
                        "_unnamed",
                        "case when t.name is null then (select m.name || ' ' || dt.model"
                                + " from dcim_devicetype dt join dcim_manufacturer m on m.id = dt.manufacturer_id"
                                + " where dt.id = t.device_type_id) end")
                .select(
                        "_vc_label",
                        "case when t.name is null and t.virtual_chassis_id is not null then"
                                + " (select vc.name || ':' || t.vc_position from dcim_virtualchassis vc"
                                + " where vc.id = t.virtual_chassis_id) end")
                .display(DcimModels::deviceDisplay)
                .unique(UniqueRule.of(
                                "Constraint \u201cdcim_device_unique_name_site_tenant\u201d is violated.",
                                "tenant_id",
                                "site_id",
                                "name")
                        .topLevel("Device name must be unique per site.")
                        .ignoreCase("name")
                        .skipIfNull("name"))
                .ordering("t.name nulls first")
                .search("t.name", "t.serial", "t.asset_tag", "t.description", "t.comments")
                .brief("display_name", "name", "description");

        ComponentCounts.parentDevice(device);
        deviceType.check(RackSpace.typeHeightFitsItsDevices(device), "u_height");
        return List.of(region, siteGroup, site, location, manufacturer, deviceRole, platform, deviceType, device);
    }

    /**
     * Prefixes scoped directly to this region, site group, site or location (NetBox counts its
     * cached _region/_site_group/_site/_location, which also take prefixes scoped below).
     */
    private static Field scopedPrefixCount(String scopeType) {
        return countOf("prefix_count", "ipam.prefix", "scope_id").countWhere("scope_type = '" + scopeType + "'");
    }

    /** NetBox's local_context_data filter on devices and VMs: true when it is set. */
    public static ExtraFilter localContextData() {
        return ExtraFilters.bool(
                "local_context_data", "{t}.local_context_data is not null", "{t}.local_context_data is null");
    }

    /** NetBox shows an unnamed device as "<manufacturer> <model> (<id>)". */
    static String deviceDisplay(org.sourceoftruth.records.model.Row r) {
        String name = r.str("name") != null ? r.str("name") : r.str("_vc_label");
        return name != null ? name : r.str("_unnamed") + " (" + r.id() + ")";
    }
}
