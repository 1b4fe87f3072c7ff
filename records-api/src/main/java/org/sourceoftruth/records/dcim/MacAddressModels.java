package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sourceoftruth.records.model.DbValidator;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;

/**
 * dcim MAC addresses (NetBox 4.2+): objects assigned to a device or VM interface; an interface's
 * primary MAC address is one of its own, and its read-only {@code mac_address} is that one's.
 */
@ApplicationScoped
public class MacAddressModels implements ModelDefinition {
    static final String MAC_PATTERN = "^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$";
    /** The interface types a MAC address is assigned to, and the generated column of each (V65). */
    static final List<String> ASSIGNABLE = List.of("dcim.interface", "virtualization.vminterface");

    @Override
    public List<Model> models() {
        Model mac = Model.of("dcim", "mac-addresses", "MAC address")
                .fields(
                        str("mac_address")
                                .required()
                                .max(17)
                                .pattern(MAC_PATTERN, "Enter a valid MAC address.")
                                .onWrite(v -> v == null
                                        ? null
                                        : v.toString().replace('-', ':').toUpperCase(Locale.ROOT)),
                        genericFk("assigned_object", "assigned_object_type", "assigned_object_id", ASSIGNABLE)
                                .cascade(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .check(MacAddressModels::primaryStaysAssigned)
                .filters(assignment("interface", "interface_id", "dcim_interface", "name"))
                .filters(assignment("vminterface", "vminterface_id", "virtualization_vminterface", "name"))
                .filter(ExtraFilters.each(
                        "device_id",
                        Kind.INTEGER,
                        "{t}.interface_id in (select id from dcim_interface where device_id = ?)"))
                .filter(ExtraFilters.each(
                        "device",
                        Kind.STRING,
                        "{t}.interface_id in (select i.id from dcim_interface i"
                                + " join dcim_device d on d.id = i.device_id where d.name = ?)"))
                .filter(
                        ExtraFilters.each(
                                "virtual_machine_id",
                                Kind.INTEGER,
                                "{t}.vminterface_id in (select id from virtualization_vminterface where virtual_machine_id = ?)"))
                .filter(ExtraFilters.each(
                        "virtual_machine",
                        Kind.STRING,
                        "{t}.vminterface_id in (select i.id from"
                                + " virtualization_vminterface i join virtualization_virtualmachine v on v.id = i.virtual_machine_id"
                                + " where v.name = ?)"))
                .filter(ExtraFilters.bool(
                        "assigned", "{t}.assigned_object_id is not null", "{t}.assigned_object_id is null"))
                .filter(ExtraFilters.bool("primary", PRIMARY, "not (" + PRIMARY + ")"))
                .display(r -> r.str("mac_address"))
                .ordering("t.mac_address")
                .search("t.mac_address", "t.description", "t.comments")
                .brief("mac_address", "description");
        return List.of(mac);
    }

    private static final String PRIMARY =
            "exists (select 1 from dcim_interface i where i.primary_mac_address_id = {t}.id)"
                    + " or exists (select 1 from virtualization_vminterface i where i.primary_mac_address_id = {t}.id)";

    /** {@code interface}/{@code interface_id} (and vminterface): by the interface's name or id. */
    private static List<ExtraFilter> assignment(String name, String column, String table, String key) {
        return List.of(
                ExtraFilters.each(name + "_id", Kind.INTEGER, "{t}." + column + " = ?"),
                ExtraFilters.each(
                        name,
                        Kind.STRING,
                        "{t}." + column + " in (select id from " + table + " where " + key + " = ?)"));
    }

    /**
     * An interface's primary_mac_address (one of its own MAC objects) and mac_addresses (all of
     * them); {@code ownColumn} is the MAC table's generated column for the interface's type.
     */
    public static Field[] interfaceMacs(String ownColumn) {
        return new Field[] {
            fk("primary_mac_address", "dcim.macaddress"),
            m2m("mac_addresses", "dcim.macaddress", "dcim_macaddress", ownColumn, "id")
                    .readOnly()
        };
    }

    /** NetBox's interface clean(): the primary MAC address is assigned to the interface itself. */
    public static DbValidator primaryIsOwn(String contentType) {
        return (db, row, selfId, errors) -> {
            Long primary = row.longValue("primary_mac_address_id");
            if (primary == null) {
                return;
            }
            Row mac = db.query(
                            "select mac_address, assigned_object_type, assigned_object_id from dcim_macaddress"
                                    + " where id = ?",
                            primary)
                    .get(0);
            if (selfId == null
                    || !contentType.equals(mac.str("assigned_object_type"))
                    || !selfId.equals(mac.longValue("assigned_object_id"))) {
                errors.computeIfAbsent("primary_mac_address", k -> new ArrayList<>())
                        .add("MAC address " + mac.str("mac_address") + " is not assigned to this interface.");
            }
        };
    }

    /** NetBox's MACAddress.clean(): a primary MAC address stays with its interface. */
    static void primaryStaysAssigned(
            org.sourceoftruth.records.model.Queries db,
            Row row,
            Long selfId,
            java.util.Map<String, List<String>> errors) {
        if (selfId == null) {
            return;
        }
        for (Row owner : db.query(
                "select 'dcim.interface' as type, id from dcim_interface where primary_mac_address_id = ?"
                        + " union all select 'virtualization.vminterface', id from virtualization_vminterface"
                        + " where primary_mac_address_id = ?",
                selfId,
                selfId)) {
            if (row.get("assigned_object_id") == null) {
                errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                        .add("Cannot unassign MAC Address while it is"
                                + " designated as the primary MAC for an object");
            } else if (!owner.str("type").equals(row.str("assigned_object_type"))
                    || !owner.longValue("id").equals(row.longValue("assigned_object_id"))) {
                errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                        .add("Cannot reassign MAC Address while it is"
                                + " designated as the primary MAC for an object");
            }
        }
    }
}
