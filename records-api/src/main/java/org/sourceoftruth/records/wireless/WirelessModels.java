package org.sourceoftruth.records.wireless;

import static org.sourceoftruth.records.model.Declarations.nestedGroup;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.circuits.CircuitsModels;
import org.sourceoftruth.records.dcim.DcimChoices;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.dcim.InterfaceModels;
import org.sourceoftruth.records.dcim.ScopeFilters;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.tenancy.TenancyFilters;

/** wireless: wireless LAN groups, wireless LANs and wireless links between wireless interfaces. */
@ApplicationScoped
public class WirelessModels implements ModelDefinition {
    public static final ChoiceSet LAN_STATUS = ChoiceSet.capitalised("active", "reserved", "disabled", "deprecated");
    public static final ChoiceSet AUTH_TYPE = ChoiceSet.of(
            "open", "Open", "wep", "WEP", "wpa-personal", "WPA Personal (PSK)", "wpa-enterprise", "WPA Enterprise");
    public static final ChoiceSet AUTH_CIPHER = ChoiceSet.of("auto", "Auto", "tkip", "TKIP", "aes", "AES");
    /** dcim's LinkStatusChoices. */
    public static final ChoiceSet LINK_STATUS = ChoiceSet.capitalised("connected", "planned", "decommissioning");
    /** NetBox's SSID_MAX_LENGTH and PSK_MAX_LENGTH. */
    private static final int SSID_MAX = 32;

    private static final int PSK_MAX = 64;

    @Override
    public List<Model> models() {
        Model group = nestedGroup(
                        "wireless",
                        "wireless-lan-groups",
                        "wireless LAN group",
                        count("wirelesslan_count", "wireless_wirelesslan", "group_id"))
                .apiName("WirelessLANGroup");
        // NetBox's names and slugs are unique across the whole tree, not only among siblings
        group.field("name").unique();
        group.field("slug").unique();

        Model lan = Model.of("wireless", "wireless-lans", "wireless LAN")
                .apiName("WirelessLAN")
                .fields(
                        str("ssid").required().max(SSID_MAX).label("SSID"),
                        str("description").max(200),
                        fk("group", "wireless.wirelesslangroup"),
                        choice("status", LAN_STATUS).dflt("active"),
                        fk("vlan", "ipam.vlan").protect().label("VLAN"),
                        genericFk("scope", "scope_type", "scope_id", ScopeFilters.LOCATION_SCOPE_TYPES),
                        fk("tenant", "tenancy.tenant").protect())
                .fields(authentication())
                .fields(str("comments"))
                .standardTail()
                .display(r -> r.str("ssid"))
                .filters(ScopeFilters.locationScope("scope_type", "scope_id"))
                .filters(TenancyFilters.tenantGroup())
                .filter(ExtraFilters.each(
                                "interface_id",
                                Kind.INTEGER,
                                "{t}.id in (select wirelesslan_id from" + " " + DcimTables.INTERFACE_WIRELESS_LANS
                                        + " where interface_id = ?)")
                        .choicesFrom(DcimTables.INTERFACE, "id"))
                .ordering("t.ssid")
                .search("t.ssid", "t.description", "t.comments")
                .brief("ssid", "description");

        Model link = Model.of("wireless", "wireless-links", "wireless link")
                .apiName("WirelessLink")
                .fields(
                        fk("interface_a", "dcim.interface").required().protect().label("Interface A"),
                        fk("interface_b", "dcim.interface").required().protect().label("Interface B"),
                        str("ssid").max(SSID_MAX).label("SSID"),
                        choice("status", LINK_STATUS).dflt("connected"),
                        fk("tenant", "tenancy.tenant").protect())
                .fields(authentication())
                .fields(
                        decimal("distance").nullable().range(-999999, 999999),
                        choice("distance_unit", CircuitsModels.DISTANCE_UNIT).nullable(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .display(r -> r.str("ssid") == null || r.str("ssid").isEmpty() ? "#" + r.id() : r.str("ssid"))
                .unique(UniqueRule.of(
                        "Wireless link with this Interface A and Interface B already exists.",
                        "interface_a_id",
                        "interface_b_id"))
                .validator(WirelessModels::distanceHasUnit)
                .check(WirelessModels::wirelessEnds)
                .hook(org.sourceoftruth.records.dcim.PathRetraceHooks.wirelessLink())
                .filters(TenancyFilters.tenantGroup())
                .ordering("t.id")
                .search("t.ssid", "t.description")
                .brief("display_url", "ssid");
        return List.of(group, lan, link);
    }

    /** NetBox's WirelessAuthenticationBase: auth_type, auth_cipher, auth_psk. */
    private static Field[] authentication() {
        return new Field[] {
            choice("auth_type", AUTH_TYPE).nullable().label("Authentication type"),
            choice("auth_cipher", AUTH_CIPHER).nullable().label("Authentication cipher"),
            str("auth_psk").max(PSK_MAX).label("Pre-shared key")
        };
    }

    /** DistanceMixin.clean: a distance needs its unit. */
    static void distanceHasUnit(Row row, Map<String, List<String>> errors) {
        if (row.get("distance") != null
                && (row.str("distance_unit") == null || row.str("distance_unit").isEmpty())) {
            errors.computeIfAbsent("distance_unit", k -> new ArrayList<>())
                    .add("Must specify a unit when setting a distance");
        }
    }

    /**
     * WirelessLink.clean: both ends are wireless interfaces; and an interface is an end of one
     * wireless link at most (NetBox keeps one {@code wireless_link} per interface).
     */
    static void wirelessEnds(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        for (String end : List.of("interface_a", "interface_b")) {
            Long id = row.longValue(end + "_id");
            if (id == null) {
                continue;
            }
            List<Row> iface = db.query("select type from " + DcimTables.INTERFACE + " where id = ?", id);
            if (iface.isEmpty()) {
                continue;
            }
            String type = iface.get(0).str("type");
            if (!InterfaceModels.WIRELESS_INTERFACE_TYPES.contains(type)) {
                errors.computeIfAbsent(end, k -> new ArrayList<>())
                        .add(DcimChoices.INTERFACE_TYPE.label(type) + " is not a wireless interface.");
                continue;
            }
            // a link with the same two ends is a duplicate, the unique rule's to answer (also when
            // it commits between that check and this one, as under concurrent writers)
            if (!db.query(
                            "select 1 from wireless_wirelesslink where (interface_a_id = ? or interface_b_id = ?)"
                                    + " and id <> ? and not (interface_a_id = ? and interface_b_id = ?)",
                            id,
                            id,
                            selfId == null ? -1L : selfId,
                            orNone(row.longValue("interface_a_id")),
                            orNone(row.longValue("interface_b_id")))
                    .isEmpty()) {
                errors.computeIfAbsent(end, k -> new ArrayList<>())
                        .add("This interface is already an end of another wireless link.");
            }
        }
        Long a = row.longValue("interface_a_id");
        if (a != null && a.equals(row.longValue("interface_b_id")) && !errors.containsKey("interface_b")) {
            errors.computeIfAbsent("interface_b", k -> new ArrayList<>())
                    .add("A wireless link cannot connect an interface to itself.");
        }
    }

    private static long orNone(Long id) {
        return id == null ? -1L : id;
    }
}
