package org.sourceoftruth.records.graphql;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;

/**
 * The names NetBox's GraphQL schema gives a model's parts, derived from its declaration: the
 * object type {@code <ApiName>Type}, the filter input {@code <ApiName>Filter}, the query fields
 * {@code <verbose_name>} and {@code <verbose_name>_list}
 * (see {@link #snake}), a choice field's enum
 * {@code <ApiName><Field>Enum} and its lookup {@code <ApiName><Field>EnumBaseFilterLookup}.
 * Where NetBox's names are irregular (an enum several models share, a lookup of a column type
 * the registry does not know, a union), small tables here say NetBox's.
 */
final class GraphqlNames {
    private GraphqlNames() {}

    static String type(Model model) {
        return model.apiName() + "Type";
    }

    static String filter(Model model) {
        return model.apiName() + "Filter";
    }

    /** "IP address" → {@code ip_address}; NetBox names the query field after the model's class in snake case. */
    static String query(Model model) {
        return model.verboseName().toLowerCase(Locale.ROOT).replace(' ', '_').replace('-', '_');
    }

    /**
     * The API name in snake case ({@code VMInterface} → {@code vm_interface}): the query field of
     * a model whose verbose name another model has (a virtual machine's "interface").
     */
    static String snake(Model model) {
        return model.apiName()
                .replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2")
                .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                .toLowerCase(Locale.ROOT);
    }

    /**
     * NetBox's enum of a choice field where it is not {@code <ApiName><Field>Enum}: the enum of a
     * choice set several models share ({@code <field>} for every model's field of that name, or
     * {@code <ApiName>.<field>}), named after NetBox's choice set; {@link #STR} where NetBox
     * filters the field as text.
     */
    private static final Map<String, String> ENUMS = Map.ofEntries(
            Map.entry("color", "ColorEnum"),
            Map.entry("cable_end", "CableEndEnum"),
            Map.entry("weight_unit", "WeightUnitEnum"),
            Map.entry("distance_unit", "DistanceUnitEnum"),
            Map.entry("outer_unit", "RackDimensionUnitEnum"),
            Map.entry("poe_mode", "InterfacePoEModeEnum"),
            Map.entry("poe_type", "InterfacePoETypeEnum"),
            Map.entry("rf_role", "WirelessRoleEnum"),
            Map.entry("rf_channel", "WirelessChannelEnum"),
            Map.entry("Cable.status", "LinkStatusEnum"),
            Map.entry("Cable.type", "CableTypeEnum"),
            Map.entry("Circuit.status", "status"),
            Map.entry("CircuitGroupAssignment.priority", "CircuitPriorityEnum"),
            Map.entry("CircuitTermination.term_side", "CircuitTerminationSideEnum"),
            Map.entry("ConsolePortTemplate.type", "ConsolePortTypeEnum"),
            Map.entry("ConsoleServerPort.speed", "ConsolePortSpeedEnum"),
            Map.entry("ConsoleServerPort.type", "ConsolePortTypeEnum"),
            Map.entry("ConsoleServerPortTemplate.type", "ConsolePortTypeEnum"),
            Map.entry("ContactAssignment.priority", "ContactPriorityEnum"),
            Map.entry("CustomField.ui_editable", "CustomFieldUIEditableEnum"),
            Map.entry("CustomField.ui_visible", "CustomFieldUIVisibleEnum"),
            Map.entry("CustomFieldChoiceSet.base_choices", "CustomFieldChoiceSetBaseEnum"),
            Map.entry("CustomLink.button_class", "CustomLinkButtonClassEnum"),
            Map.entry("DataSource.type", LookupInputs.STR),
            Map.entry("DeviceType.airflow", "DeviceAirflowEnum"),
            Map.entry("DeviceType.subdevice_role", "SubdeviceRoleEnum"),
            Map.entry("EventRule.action_type", "EventRuleActionEnum"),
            Map.entry("FrontPort.type", "PortTypeEnum"),
            Map.entry("FrontPortTemplate.type", "PortTypeEnum"),
            Map.entry("IKEPolicy.mode", "IKEModeEnum"),
            Map.entry("IKEPolicy.version", "IKEVersionEnum"),
            Map.entry("IKEProposal.authentication_algorithm", "AuthenticationAlgorithmEnum"),
            Map.entry("IKEProposal.authentication_method", "AuthenticationMethodEnum"),
            Map.entry("IKEProposal.encryption_algorithm", "EncryptionAlgorithmEnum"),
            Map.entry("IKEProposal.group", "DHGroupEnum"),
            Map.entry("IPSecPolicy.pfs_group", "DHGroupEnum"),
            Map.entry("IPSecProfile.mode", "IPSecModeEnum"),
            Map.entry("IPSecProposal.authentication_algorithm", "AuthenticationAlgorithmEnum"),
            Map.entry("IPSecProposal.encryption_algorithm", "EncryptionAlgorithmEnum"),
            Map.entry("InterfaceTemplate.type", "InterfaceTypeEnum"),
            Map.entry("ModuleType.airflow", "ModuleAirflowEnum"),
            Map.entry("Notification.event_type", LookupInputs.STR),
            Map.entry("PowerOutletTemplate.feed_leg", "PowerOutletFeedLegEnum"),
            Map.entry("PowerOutletTemplate.type", "PowerOutletTypeEnum"),
            Map.entry("PowerPortTemplate.type", "PowerPortTypeEnum"),
            Map.entry("RackType.form_factor", "RackFormFactorEnum"),
            Map.entry("RackType.width", "RackWidthEnum"),
            Map.entry("RearPort.type", "PortTypeEnum"),
            Map.entry("RearPortTemplate.type", "PortTypeEnum"),
            Map.entry("ServiceTemplate.protocol", "ServiceProtocolEnum"),
            Map.entry("TunnelTermination.termination_type", "TunnelTerminationTypeEnum"),
            Map.entry("VLAN.qinq_role", "VLANQinQRoleEnum"),
            Map.entry("VMInterface.mode", "InterfaceModeEnum"),
            Map.entry("VirtualCircuit.status", "status"),
            Map.entry("Webhook.http_method", "WebhookHttpMethodEnum"),
            Map.entry("WirelessLAN.auth_cipher", "WirelessAuthCipherEnum"),
            Map.entry("WirelessLAN.auth_type", "WirelessAuthTypeEnum"),
            Map.entry("WirelessLink.auth_cipher", "WirelessAuthCipherEnum"),
            Map.entry("WirelessLink.auth_type", "WirelessAuthTypeEnum"),
            Map.entry("WirelessLink.status", "WirelessLANStatusEnum"));

    /**
     * What NetBox's enum names a value after, where it is not the field's name: its choice
     * set's constants ({@code CableEndChoices.SIDE_A}; nothing before the value: {@code KG}).
     */
    private static final Map<String, String> VALUE_PREFIXES = Map.ofEntries(
            Map.entry("ColorEnum", "COLOR"),
            Map.entry("CableEndEnum", "SIDE"),
            Map.entry("WeightUnitEnum", ""),
            Map.entry("DistanceUnitEnum", ""),
            Map.entry("RackDimensionUnitEnum", "UNIT"),
            Map.entry("InterfacePoEModeEnum", "MODE"),
            Map.entry("InterfacePoETypeEnum", ""),
            Map.entry("WirelessRoleEnum", "ROLE"),
            Map.entry("WirelessChannelEnum", "CHANNEL"),
            Map.entry("LinkStatusEnum", "STATUS"),
            Map.entry("CableTypeEnum", "TYPE"),
            Map.entry("status", ""),
            Map.entry("CircuitPriorityEnum", "PRIORITY"),
            Map.entry("CircuitTerminationSideEnum", "SIDE"),
            Map.entry("ConsolePortTypeEnum", "TYPE"),
            Map.entry("ConsolePortSpeedEnum", "SPEED"),
            Map.entry("ContactPriorityEnum", "PRIORITY"),
            Map.entry("CustomFieldUIEditableEnum", ""),
            Map.entry("CustomFieldUIVisibleEnum", ""),
            Map.entry("CustomFieldChoiceSetBaseEnum", ""),
            Map.entry("CustomLinkButtonClassEnum", ""),
            Map.entry("DeviceAirflowEnum", "AIRFLOW"),
            Map.entry("SubdeviceRoleEnum", "ROLE"),
            Map.entry("EventRuleActionEnum", ""),
            Map.entry("PortTypeEnum", "TYPE"),
            Map.entry("IKEModeEnum", ""),
            Map.entry("IKEVersionEnum", "VERSION"),
            Map.entry("AuthenticationAlgorithmEnum", "AUTH"),
            Map.entry("AuthenticationMethodEnum", ""),
            Map.entry("EncryptionAlgorithmEnum", "ENCRYPTION"),
            Map.entry("DHGroupEnum", "GROUP"),
            Map.entry("IPSecModeEnum", ""),
            Map.entry("InterfaceTypeEnum", "TYPE"),
            Map.entry("ModuleAirflowEnum", ""),
            Map.entry("PowerOutletFeedLegEnum", "FEED_LEG"),
            Map.entry("PowerOutletTypeEnum", "TYPE"),
            Map.entry("PowerPortTypeEnum", "TYPE"),
            Map.entry("RackFormFactorEnum", "TYPE"),
            Map.entry("RackWidthEnum", "WIDTH"),
            Map.entry("ServiceProtocolEnum", "ROLE"),
            Map.entry("VLANQinQRoleEnum", "ROLE"),
            Map.entry("InterfaceModeEnum", "MODE"),
            Map.entry("TunnelTerminationTypeEnum", "TYPE"),
            Map.entry("WebhookHttpMethodEnum", ""),
            Map.entry("WirelessAuthCipherEnum", "CIPHER"),
            Map.entry("WirelessAuthTypeEnum", "TYPE"),
            Map.entry("WirelessLANStatusEnum", "STATUS"),
            Map.entry("FHRPGroupProtocolEnum", "PROTOCOL"),
            Map.entry("FHRPGroupAuthTypeEnum", "AUTHENTICATION"));

    /**
     * The fields whose NetBox lookup is a lookup of the enum's lookup ({@code exact} takes
     * {@code {exact: ...}}), as NetBox 4.6's schema types an IPsec proposal's algorithm.
     */
    private static final Set<String> NESTED = Set.of("IPSecProposal.authentication_algorithm");

    /** The enums NetBox's filters take as the field's value itself ({@code auth_type: TYPE_OPEN}), not in a lookup. */
    private static final Set<String> BARE = Set.of("WirelessAuthTypeEnum", "WirelessAuthCipherEnum");

    /**
     * The values of NetBox's shared choice sets where a field here has none of its own (a
     * colour is any RGB value here; NetBox's filter takes one of ColorChoices).
     */
    private static final Map<String, ChoiceSet> VALUES = Map.of(
            "ColorEnum",
            ChoiceSet.of(
                    "aa1409",
                    "Dark Red",
                    "f44336",
                    "Red",
                    "e91e63",
                    "Pink",
                    "ffe4e1",
                    "Rose",
                    "ff66ff",
                    "Fuchsia",
                    "9c27b0",
                    "Purple",
                    "673ab7",
                    "Dark Purple",
                    "3f51b5",
                    "Indigo",
                    "2196f3",
                    "Blue",
                    "03a9f4",
                    "Light Blue",
                    "00bcd4",
                    "Cyan",
                    "009688",
                    "Teal",
                    "00ffff",
                    "Aqua",
                    "2f6a31",
                    "Dark Green",
                    "4caf50",
                    "Green",
                    "8bc34a",
                    "Light Green",
                    "cddc39",
                    "Lime",
                    "ffeb3b",
                    "Yellow",
                    "ffc107",
                    "Amber",
                    "ff9800",
                    "Orange",
                    "ff5722",
                    "Dark Orange",
                    "795548",
                    "Brown",
                    "c0c0c0",
                    "Light Grey",
                    "9e9e9e",
                    "Grey",
                    "607d8b",
                    "Dark Grey",
                    "111111",
                    "Black",
                    "ffffff",
                    "White"),
            "CableEndEnum",
            ChoiceSet.of("A", "A", "B", "B"));

    static final String STR = LookupInputs.STR;

    /**
     * A choice field's enum in NetBox's schema: its name, its lookup input's name, the prefix of
     * its values' names, its values, and whether the filter takes the value itself ({@code bare}).
     */
    record Choice(String name, String lookup, String prefix, ChoiceSet values, boolean bare, boolean nested) {
        /** A value's name: the prefix and the value in capitals, other characters as underscores. */
        String valueName(String value) {
            String v = (prefix.isEmpty() ? value : prefix + "_" + value)
                    .toUpperCase(Locale.ROOT)
                    .replaceAll("[^A-Z0-9_]", "_");
            return Character.isDigit(v.charAt(0)) ? "_" + v : v;
        }
    }

    /** The field's enum, or null where NetBox filters it as text (or it has no choices). */
    static Choice choice(Model model, Field field) {
        return choice(model, field.name, field.choices(), false);
    }

    /**
     * The enum NetBox's filter takes for a generic relation's type column (a tunnel termination's
     * {@code termination_type}: TunnelTerminationTypeEnum of its types), or null where it takes
     * a ContentTypeFilter.
     */
    static Choice typeChoice(Model model, Field field, List<Model> types) {
        String[] pairs = new String[types.size() * 2];
        for (int i = 0; i < types.size(); i++) {
            pairs[2 * i] = types.get(i).contentType();
            pairs[2 * i + 1] = types.get(i).titleName();
        }
        return choice(model, field.genericTypeColumn(), ChoiceSet.of(pairs), true);
    }

    private static Choice choice(Model model, String fieldName, ChoiceSet own, boolean declaredOnly) {
        String name = ENUMS.get(model.apiName() + "." + fieldName);
        if (name == null && !declaredOnly) {
            name = ENUMS.get(fieldName);
        }
        if (STR.equals(name) || name == null && declaredOnly) {
            return null;
        }
        ChoiceSet values = own;
        if (values == null || values.values().isEmpty()) {
            values = name == null ? null : VALUES.get(name);
        }
        if (values == null || values.values().isEmpty()) {
            return null;
        }
        if (name == null) {
            name = model.apiName() + camel(fieldName) + "Enum";
        }
        String prefix = VALUE_PREFIXES.getOrDefault(name, fieldName.toUpperCase(Locale.ROOT));
        String lookup = BARE.contains(name)
                ? name
                : Character.toUpperCase(name.charAt(0)) + name.substring(1) + "BaseFilterLookup";
        return new Choice(
                name, lookup, prefix, values, BARE.contains(name), NESTED.contains(model.apiName() + "." + fieldName));
    }

    /**
     * NetBox's lookup of a field where it is not its kind's ({@link LookupInputs#of}): a whole
     * number NetBox keeps in a 32-bit column although nothing bounds it here, decimals it
     * filters as floats, the synced-data references it filters by number.
     */
    private static final Map<String, String> LOOKUPS = Map.ofEntries(
            Map.entry("CustomField.search_weight", LookupInputs.INTEGER),
            Map.entry("CustomField.weight", LookupInputs.INTEGER),
            Map.entry("DataFile.size", LookupInputs.INTEGER),
            Map.entry("IPRange.size", LookupInputs.INTEGER),
            Map.entry("ImageAttachment.image_height", LookupInputs.INTEGER),
            Map.entry("ImageAttachment.image_width", LookupInputs.INTEGER),
            Map.entry("VLANGroup.total_vlan_ids", "IntComparisonFilterLookup"),
            Map.entry("DeviceType.device_count", "IntComparisonFilterLookup"),
            Map.entry("ModuleType.module_count", "IntComparisonFilterLookup"),
            Map.entry("RackType.rack_count", "IntComparisonFilterLookup"),
            Map.entry("VirtualMachineType.virtual_machine_count", "IntComparisonFilterLookup"),
            Map.entry("Circuit.distance", "FloatFilterLookup"),
            Map.entry("WirelessLink.distance", "FloatFilterLookup"),
            Map.entry("DeviceType.weight", "FloatFilterLookup"),
            Map.entry("ModuleType.weight", "FloatFilterLookup"),
            Map.entry("Rack.weight", "FloatFilterLookup"),
            Map.entry("RackType.weight", "FloatFilterLookup"),
            Map.entry("L2VPNTermination.assigned_object_id", LookupInputs.INTEGER),
            Map.entry("FHRPGroupAssignment.interface_id", LookupInputs.STR),
            Map.entry("VLANGroup.vid_ranges", JsonLookups.RANGES),
            Map.entry("CustomFieldChoiceSet.extra_choices", JsonLookups.CHOICES),
            Map.entry("data_source_id", LookupInputs.INT_FILTER),
            Map.entry("data_file_id", LookupInputs.INT_FILTER));

    /** The lookup input a filter field takes (a foreign key's {@code <name>_id} too), or null when NetBox offers none. */
    static String lookup(Model model, Field field, String name) {
        String lookup = LOOKUPS.get(model.apiName() + "." + name);
        if (lookup == null) {
            lookup = LOOKUPS.get(name);
        }
        return lookup != null ? lookup : name.equals(field.name) ? LookupInputs.of(field) : null;
    }

    /**
     * NetBox's unions where they are not named after the model and field: the objects at a
     * cable's far end ({@code link_peers}) and at the end of its path
     * ({@code connected_endpoints}), which every cabled model shares.
     */
    private static final Map<String, String> UNIONS = Map.of(
            "FHRPGroupAssignment.interface", "FHRPGroupInterfaceType",
            "L2VPNTermination.assigned_object", "L2VPNAssignmentType",
            "link_peers", "LinkPeerType",
            "connected_endpoints", "ConnectedEndpointType");

    /** The union of a generic relation's targets: {@code <ApiName><Field>Type} (a prefix's scope: PrefixScopeType). */
    static String union(Model model, Field field) {
        String name = UNIONS.get(model.apiName() + "." + field.name);
        if (name != null) {
            return name;
        }
        String base = field.name.equals("assigned_object") ? "Assignment" : camel(field.name);
        return model.apiName() + base + "Type";
    }

    /** The union of the objects a list of objects of one type ({@code link_peers} beside {@code link_peers_type}) holds, or null. */
    static String typedList(Model model, Field field) {
        return field.kind == org.sourceoftruth.records.model.Kind.COMPUTED && model.field(field.name + "_type") != null
                ? UNIONS.get(field.name)
                : null;
    }

    /** {@code cable_end} → {@code CableEnd}. */
    static String camel(String snake) {
        StringBuilder sb = new StringBuilder();
        for (String part : snake.split("_")) {
            if (!part.isEmpty()) {
                sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return sb.toString();
    }
}
