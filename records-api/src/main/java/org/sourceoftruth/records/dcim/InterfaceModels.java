package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.DcimChoices.*;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;

/** dcim interfaces: a device's network interfaces, with NetBox's interface rules and filters. */
@ApplicationScoped
public class InterfaceModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model iface = ComponentShapes.cabled(
                        ComponentShapes.component(
                                "interfaces",
                                "dcim.interface",
                                "interface",
                                true,
                                choice("type", INTERFACE_TYPE).required(),
                                bool("enabled").dflt(true),
                                fk("parent", "dcim.interface").protect(),
                                fk("bridge", "dcim.interface"),
                                // the interfaces bridged to this one: the reverse of their bridge
                                m2m("bridge_interfaces", "dcim.interface", "dcim_interface", "bridge_id", "id")
                                        .readOnly(),
                                fk("lag", "dcim.interface"),
                                integer("mtu").range(1, 65536).nullable(),
                                // the primary MAC object's address, kept in the column by V65's triggers
                                str("mac_address").max(18).nullable().readOnly(),
                                integer("speed").min(0).nullable(),
                                choice("duplex", DUPLEX).nullable(),
                                str("wwn").max(23).nullable().dflt(null),
                                bool("mgmt_only").dflt(false),
                                choice("mode", INTERFACE_MODE).nullable(),
                                fk("untagged_vlan", "ipam.vlan"),
                                m2m(
                                        "tagged_vlans",
                                        "ipam.vlan",
                                        "dcim_interface_tagged_vlans",
                                        "interface_id",
                                        "vlan_id"),
                                fk("vrf", "ipam.vrf"),
                                choice("poe_mode", POE_MODE).nullable(),
                                choice("poe_type", POE_TYPE).nullable(),
                                choice("rf_role", RF_ROLE).nullable(),
                                choice("rf_channel", RF_CHANNEL).nullable(),
                                decimal("rf_channel_frequency").nullable().range(-99999, 99999),
                                decimal("rf_channel_width").nullable().range(-9999, 9999),
                                integer("tx_power").nullable().range(-40, 127)),
                        true)
                .fields(
                        countOf("count_ipaddresses", "ipam.ipaddress", "assigned_object_id")
                                .countWhere("assigned_object_type = 'dcim.interface'"),
                        m2m(
                                "vdcs",
                                "dcim.virtualdevicecontext",
                                "dcim_interface_vdcs",
                                "interface_id",
                                "virtualdevicecontext_id"),
                        // the link this interface is an end of (one at most), read through the select below
                        fk("wireless_link", "wireless.wirelesslink")
                                .column("_wireless_link_id")
                                .readOnly()
                                .noFilter()
                                .noOrder(),
                        m2m(
                                        "wireless_lans",
                                        "wireless.wirelesslan",
                                        "dcim_interface_wireless_lans",
                                        "interface_id",
                                        "wirelesslan_id")
                                .label("Wireless LANs"))
                .fields(interfaceRelations("dcim.interface"))
                .validator(InterfaceModels::qinqServiceVlan)
                .fields(MacAddressModels.interfaceMacs("interface_id"))
                .check(MacAddressModels.primaryIsOwn("dcim.interface"))
                .validator(InterfaceModels::poeNeedsMode)
                .validator(InterfaceModels::wirelessRules)
                .hook(new ChannelFrequencyAndWidth())
                .relationFilter("primary_mac_address", "primary_mac_address", "mac_address")
                .select(
                        "_wireless_link_id",
                        "select w.id from wireless_wirelesslink w where w.interface_a_id = t.id"
                                + " or w.interface_b_id = t.id order by w.id limit 1")
                .filter(ExtraFilters.each(
                                "wireless_link_id",
                                Kind.INTEGER,
                                "{t}.id in (select interface_a_id from"
                                        + " wireless_wirelesslink where id = ? union all select interface_b_id from wireless_wirelesslink"
                                        + " where id = ?)")
                        .choicesFrom("wireless_wirelesslink", "id"))
                .relationFilter("wireless_lan_id", "wireless_lans", "id")
                .relationFilter("vdc", "vdcs", "name")
                .relationFilter("vdc_id", "vdcs", "id")
                .relationFilter("vdc_identifier", "vdcs", "identifier")
                .filter(interfaceKind())
                .filters(virtualChassisMembers())
                .filters(interfaceVlanFilters("dcim_interface_tagged_vlans", "interface_id"))
                // the interface's virtual circuit termination (circuits, which builds on dcim)
                .filter(ExtraFilters.each(
                                "virtual_circuit_termination_id",
                                Kind.INTEGER,
                                "{t}.id in (select"
                                        + " interface_id from circuits_virtualcircuittermination where id = ?)")
                        .choicesFrom("circuits_virtualcircuittermination", "id"))
                .filter(ExtraFilters.each(
                                "virtual_circuit_id",
                                Kind.INTEGER,
                                "{t}.id in (select interface_id from"
                                        + " circuits_virtualcircuittermination where virtual_circuit_id = ?)")
                        .choicesFrom("circuits_virtualcircuit", "id"))
                .search("t.mac_address");
        L2vpnTerminations.declare(iface);
        return List.of(iface);
    }

    /**
     * Relations every interface (device or VM, of content type {@code contentType}) has in
     * NetBox 4.4: its Q-in-Q service VLAN, its VLAN translation policy and the number of FHRP
     * groups it is assigned to.
     */
    public static Field[] interfaceRelations(String contentType) {
        return new Field[] {
            fk("qinq_svlan", "ipam.vlan"),
            fk("vlan_translation_policy", "ipam.vlantranslationpolicy"),
            countOf("count_fhrp_groups", "ipam.fhrpgroupassignment", "interface_id")
                    .countWhere("interface_type = '" + contentType + "'")
        };
    }

    /** NetBox's BaseInterface.clean(): a service VLAN only on a Q-in-Q interface. */
    public static void qinqServiceVlan(
            org.sourceoftruth.records.model.Row row, java.util.Map<String, List<String>> errors) {
        if (row.get("qinq_svlan_id") != null && !"q-in-q".equals(row.get("mode"))) {
            errors.computeIfAbsent("qinq_svlan", k -> new java.util.ArrayList<>())
                    .add("Only Q-in-Q interfaces may specify a service VLAN.");
        }
    }

    /**
     * vlan_id (a VLAN's id) and vlan (a VID) of NetBox's CommonInterfaceFilterSet, device and VM
     * interfaces alike: filter_vlan_id / filter_vlan match the untagged VLAN, one of the tagged
     * ones or the Q-in-Q service VLAN ({@code untagged_vlan_id__vid=v | tagged_vlans__vid=v |
     * qinq_svlan__vid=v}). Both are CharFilters with a method: one value (the last when
     * repeated), no existence check (an id or VID no VLAN has matches nothing), no lookups.
     */
    public static List<ExtraFilter> interfaceVlanFilters(String taggedTable, String taggedOwnColumn) {
        String tagged = "{t}.id in (select x." + taggedOwnColumn + " from " + taggedTable + " x where x.vlan_id";
        return List.of(
                ExtraFilters.single(
                        "vlan_id",
                        Kind.INTEGER,
                        "{t}.untagged_vlan_id = ? or " + tagged + " = ?)" + " or {t}.qinq_svlan_id = ?"),
                // a value that is no VID matches nothing (NetBox: a 500 from the vid lookup)
                ExtraFilters.single(
                        "vlan",
                        Kind.STRING,
                        "{t}.untagged_vlan_id in (select id from ipam_vlan where"
                                + " vid::text = trim(?)) or " + tagged
                                + " in (select id from ipam_vlan where vid::text = trim(?)))"
                                + " or {t}.qinq_svlan_id in (select id from ipam_vlan where vid::text = trim(?))"));
    }

    /** Interface types NetBox counts as virtual and as wireless (dcim/constants.py). */
    public static final List<String> VIRTUAL_INTERFACE_TYPES = List.of("virtual", "lag", "bridge");

    public static final List<String> WIRELESS_INTERFACE_TYPES = List.of(
            "ieee802.11a",
            "ieee802.11g",
            "ieee802.11n",
            "ieee802.11ac",
            "ieee802.11ad",
            "ieee802.11ax",
            "ieee802.11ay",
            "ieee802.11be",
            "ieee802.15.1",
            "ieee802.15.4",
            "other-wireless",
            "gsm",
            "cdma",
            "lte",
            "4g",
            "5g");

    /** kind=physical|virtual|wireless (NetBox's filter_kind): anything else matches nothing. */
    private static ExtraFilter interfaceKind() {
        return new ExtraFilter("kind", Kind.STRING, (alias, values) -> {
            String kind = values.get(values.size() - 1).toString().trim().toLowerCase(java.util.Locale.ROOT);
            List<String> nonConnectable = new java.util.ArrayList<>(VIRTUAL_INTERFACE_TYPES);
            nonConnectable.addAll(WIRELESS_INTERFACE_TYPES);
            return switch (kind) {
                case "physical" ->
                    ExtraFilter.Sql.of(
                            "not (" + alias + ".type = any(?))",
                            new org.sourceoftruth.records.db.Db.SqlArray("text", nonConnectable));
                case "virtual" ->
                    ExtraFilter.Sql.of(
                            alias + ".type = any(?)",
                            new org.sourceoftruth.records.db.Db.SqlArray("text", VIRTUAL_INTERFACE_TYPES));
                case "wireless" ->
                    ExtraFilter.Sql.of(
                            alias + ".type = any(?)",
                            new org.sourceoftruth.records.db.Db.SqlArray("text", WIRELESS_INTERFACE_TYPES));
                default -> ExtraFilter.Sql.of("false");
            };
        });
    }

    /**
     * virtual_chassis_member(_id) and virtual_chassis_member_or_master(_id) (NetBox's
     * Device.vc_interfaces): the named devices' interfaces and their chassis members' non-management
     * ones, the latter for _or_master only when the device is its chassis's master. No device by
     * that name or id matches nothing (no 400: NetBox declares them as plain value filters).
     */
    private static List<ExtraFilter> virtualChassisMembers() {
        List<ExtraFilter> out = new java.util.ArrayList<>();
        for (String name : List.of("virtual_chassis_member", "virtual_chassis_member_or_master")) {
            String masterOnly = name.endsWith("master")
                    ? " and exists (select 1 from dcim_virtualchassis vc where vc.id = d.virtual_chassis_id and vc.master_id = d.id)"
                    : "";
            for (String key : List.of("name", "id")) {
                String sql =
                        "{t}.device_id in (select id from dcim_device d where d." + key + " = ?) or (not {t}.mgmt_only"
                                + " and {t}.device_id in (select m.id from dcim_device m join dcim_device d on d.virtual_chassis_id"
                                + " = m.virtual_chassis_id where d." + key + " = ?" + masterOnly + "))";
                out.add(ExtraFilters.each(
                        key.equals("id") ? name + "_id" : name, key.equals("id") ? Kind.INTEGER : Kind.STRING, sql));
            }
        }
        return out;
    }

    /**
     * NetBox's wireless checks (Interface.clean): role, channel, frequency and width only on
     * wireless interfaces, and no frequency or width other than the chosen channel's.
     */
    static void wirelessRules(org.sourceoftruth.records.model.Row row, java.util.Map<String, List<String>> errors) {
        boolean wireless = WIRELESS_INTERFACE_TYPES.contains(row.str("type"));
        String channel = row.str("rf_channel");
        java.math.BigDecimal frequency = row.decimal("rf_channel_frequency");
        java.math.BigDecimal width = row.decimal("rf_channel_width");
        java.util.function.BiConsumer<String, String> error = (field, message) ->
                errors.computeIfAbsent(field, k -> new java.util.ArrayList<>()).add(message);
        if (row.get("rf_role") != null && !wireless) {
            error.accept("rf_role", "Wireless role may be set only on wireless interfaces.");
        }
        if (channel != null && !wireless) {
            error.accept("rf_channel", "Channel may be set only on wireless interfaces.");
        }
        if (frequency != null && frequency.signum() != 0) {
            if (!wireless) {
                error.accept("rf_channel_frequency", "Channel frequency may be set only on wireless interfaces.");
            } else if (channel != null && frequency.compareTo(WirelessChannels.frequency(channel)) != 0) {
                error.accept("rf_channel_frequency", "Cannot specify custom frequency with channel selected.");
            }
        }
        if (width != null && width.signum() != 0) {
            if (!wireless) {
                error.accept("rf_channel_width", "Channel width may be set only on wireless interfaces.");
            } else if (channel != null && width.compareTo(WirelessChannels.width(channel)) != 0) {
                error.accept("rf_channel_width", "Cannot specify custom width with channel selected.");
            }
        }
    }

    /** A chosen channel fills in its frequency and width when they are not given (NetBox's Interface.save). */
    static final class ChannelFrequencyAndWidth implements org.sourceoftruth.records.model.WriteHook {
        @Override
        public void beforeWrite(
                org.sourceoftruth.records.model.Row changes,
                org.sourceoftruth.records.model.Row existing,
                java.util.Map<String, List<String>> errors) {
            String channel = (String) current("rf_channel", changes, existing);
            if (channel == null) {
                return;
            }
            if (current("rf_channel_frequency", changes, existing) == null) {
                changes.put("rf_channel_frequency", WirelessChannels.frequency(channel));
            }
            if (current("rf_channel_width", changes, existing) == null) {
                changes.put("rf_channel_width", WirelessChannels.width(channel));
            }
        }

        private static Object current(
                String column,
                org.sourceoftruth.records.model.Row changes,
                org.sourceoftruth.records.model.Row existing) {
            return changes.containsKey(column) ? changes.get(column) : existing == null ? null : existing.get(column);
        }
    }

    /** A PoE type needs a PoE mode, as NetBox's Interface.clean says. */
    static void poeNeedsMode(org.sourceoftruth.records.model.Row row, java.util.Map<String, List<String>> errors) {
        if (row.get("poe_type") != null && row.get("poe_mode") == null) {
            errors.computeIfAbsent("poe_type", k -> new java.util.ArrayList<>())
                    .add("Must specify PoE mode when designating a PoE type.");
        }
    }
}
