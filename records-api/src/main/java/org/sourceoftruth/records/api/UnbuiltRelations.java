package org.sourceoftruth.records.api;

import org.sourceoftruth.records.model.ExtraFilter;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Filters of NetBox's filtersets on relations to models this service does not serve yet
 * (contacts, cables, L2VPNs, virtual chassis, ...). They are real filters over the data that
 * exists: there are no such objects, so no given object is a valid choice (a 400 as NetBox
 * answers for an unknown object), {@code null} matches every object, {@code cabled=false} /
 * {@code occupied=false} match every object and {@code true} none. When a model lands, its
 * entries here are replaced by real declarations (a foreign key, or an ExtraFilter).
 */
final class UnbuiltRelations {
    private UnbuiltRelations() {
    }

    private static final Set<String> CONTACT_HOLDERS = Set.of("circuits.circuit", "circuits.provider", "dcim.device",
            "dcim.location", "dcim.manufacturer", "dcim.rack", "dcim.region", "dcim.sitegroup", "dcim.site",
            "ipam.aggregate", "ipam.ipaddress", "ipam.iprange", "ipam.prefix", "tenancy.tenant",
            "virtualization.clustergroup", "virtualization.cluster", "virtualization.virtualmachine");
    private static final Set<String> CABLED = Set.of("circuits.circuittermination", "dcim.interface");
    private static final Set<String> INTERFACES = Set.of("dcim.interface", "virtualization.vminterface");

    /** Filter name -> content types whose NetBox filterset has it, the related model being unbuilt. */
    private static final Map<String, Set<String>> RELATIONS = Map.ofEntries(
            Map.entry("contact", CONTACT_HOLDERS), Map.entry("contact_role", CONTACT_HOLDERS),
            Map.entry("contact_group", CONTACT_HOLDERS),
            Map.entry("cable_id", CABLED),
            Map.entry("l2vpn", Set.of("dcim.interface", "ipam.vlan", "virtualization.vminterface")),
            Map.entry("l2vpn_id", Set.of("dcim.interface", "ipam.vlan", "virtualization.vminterface")),
            Map.entry("provider_network_id", Set.of("circuits.circuittermination", "circuits.circuit")),
            Map.entry("provider_account", Set.of("circuits.circuit")),
            Map.entry("provider_account_id", Set.of("circuits.circuit")),
            Map.entry("vlan_translation_policy", INTERFACES), Map.entry("vlan_translation_policy_id", INTERFACES),
            Map.entry("primary_mac_address", INTERFACES), Map.entry("primary_mac_address_id", INTERFACES),
            Map.entry("virtual_chassis_id", Set.of("dcim.device", "dcim.interface")),
            Map.entry("virtual_chassis", Set.of("dcim.interface")),
            Map.entry("config_template_id", Set.of("dcim.devicerole", "dcim.device", "dcim.platform",
                    "virtualization.virtualmachine")),
            Map.entry("vdc", Set.of("dcim.interface")), Map.entry("vdc_id", Set.of("dcim.interface")),
            Map.entry("wireless_lan_id", Set.of("dcim.interface")), Map.entry("wireless_link_id", Set.of("dcim.interface")),
            Map.entry("virtual_circuit_id", Set.of("dcim.interface")),
            Map.entry("virtual_circuit_termination_id", Set.of("dcim.interface")),
            Map.entry("module_id", Set.of("dcim.interface")),
            Map.entry("rack_type", Set.of("dcim.rack")), Map.entry("rack_type_id", Set.of("dcim.rack")),
            Map.entry("parent_bay_id", Set.of("dcim.device")),
            Map.entry("fhrpgroup_id", Set.of("ipam.ipaddress")), Map.entry("service_id", Set.of("ipam.ipaddress")),
            Map.entry("data_source_id", Set.of("extras.configcontext")),
            Map.entry("data_file_id", Set.of("extras.configcontext")),
            Map.entry("profile", Set.of("extras.configcontext")), Map.entry("profile_id", Set.of("extras.configcontext")),
            Map.entry("notification_group_id", Set.of("users.group", "users.user")),
            Map.entry("asn", Set.of("circuits.provider", "dcim.site")),
            Map.entry("asn_id", Set.of("circuits.provider", "dcim.site")),
            Map.entry("export_target", Set.of("ipam.vrf")), Map.entry("export_target_id", Set.of("ipam.vrf")),
            Map.entry("import_target", Set.of("ipam.vrf")), Map.entry("import_target_id", Set.of("ipam.vrf")),
            Map.entry("choice_set", Set.of("extras.customfield")),
            Map.entry("choice_set_id", Set.of("extras.customfield")));

    /** Boolean filters on the same relations: true = "has one" (none has), false = "has none" (all). */
    private static final Map<String, Set<String>> PRESENCE = Map.of("cabled", CABLED, "occupied", CABLED);

    /**
     * These filters on the given content type, sorted by name: name → true for a presence flag
     * (a boolean filter such as {@code cabled}), false for a relation (given by key or id).
     */
    static java.util.SortedMap<String, Boolean> names(String contentType) {
        java.util.SortedMap<String, Boolean> out = new java.util.TreeMap<>();
        RELATIONS.forEach((name, types) -> {
            if (types.contains(contentType)) {
                out.put(name, false);
            }
        });
        PRESENCE.forEach((name, types) -> {
            if (types.contains(contentType)) {
                out.put(name, true);
            }
        });
        return out;
    }

    /** The filter {@code name} (no lookup) of the given content type, or null when it is not one of these. */
    static ExtraFilter.Sql filter(String contentType, String name, List<String> values) {
        if (PRESENCE.getOrDefault(name, Set.of()).contains(contentType)) {
            return ExtraFilter.Sql.of(FilterCompiler.parseBoolean(values.get(values.size() - 1)) ? "false" : "true");
        }
        if (!RELATIONS.getOrDefault(name, Set.of()).contains(contentType)) {
            return null;
        }
        for (String v : values) {
            if (!v.equals("null")) {
                throw new FilterCompiler.FilterError("Select a valid choice. " + v + " is not one of the available choices.");
            }
        }
        return ExtraFilter.Sql.of("true"); // null: no object has the relation
    }
}
