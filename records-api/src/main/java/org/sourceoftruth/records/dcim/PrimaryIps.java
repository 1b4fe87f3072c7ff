package org.sourceoftruth.records.dcim;

import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.model.DbValidator;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Fields;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.net.Addresses;
import org.sourceoftruth.records.net.Networks;

/**
 * The rule NetBox's Device.clean() and VirtualMachine.clean() apply to primary_ip4,
 * primary_ip6 (and a device's oob_ip): the address has the right family and is assigned to one
 * of the object's own interfaces, or is the NAT outside address of one that is.
 */
public final class PrimaryIps {
    /** The nested form of a device's or VM's primary and OOB addresses (4.6). */
    static final String[] PRIMARY_IP = {
        "id", "url", "display", "family", "address", "nat_inside", "nat_outside", "dns_name", "description"
    };

    private PrimaryIps() {}

    /**
     * primary_ip: the IPv6 primary if set, else the IPv4 one (NetBox with PREFER_IPV4 off),
     * read from the model's {@code _primary_ip_id} select (see {@link #PRIMARY_IP_SELECT}).
     */
    public static Field primaryIp() {
        return Fields.fk("primary_ip", "ipam.ipaddress")
                .column("_primary_ip_id")
                .readOnly()
                .noFilter()
                .noOrder()
                .nestedFields(PRIMARY_IP);
    }

    /** The extra select behind {@link #primaryIp()}. */
    public static final String PRIMARY_IP_SELECT = "coalesce(t.primary_ip6_id, t.primary_ip4_id)";

    /** primary_ip4 / primary_ip6 / oob_ip: one object per address, shown in NetBox's primary-IP form. */
    public static Field address(String name) {
        return Fields.fk(name, "ipam.ipaddress").unique().nestedFields(PRIMARY_IP);
    }

    /** NetBox's has_primary_ip: an IPv4 or IPv6 primary address is set. */
    public static ExtraFilter hasPrimaryIp() {
        return ExtraFilters.bool(
                "has_primary_ip",
                "({t}.primary_ip4_id is not null or {t}.primary_ip6_id is not null)",
                "({t}.primary_ip4_id is null and {t}.primary_ip6_id is null)");
    }

    /**
     * Virtual device contexts (VirtualDeviceContext.clean()): each primary address of its family,
     * assigned to an interface of the context's device.
     */
    public static DbValidator forVirtualDeviceContexts() {
        return (Queries db, Row row, Long selfId, java.util.Map<String, List<String>> errors) -> {
            for (String field : new String[] {"primary_ip4", "primary_ip6"}) {
                Long ipId = row.longValue(field + "_id");
                if (ipId == null) {
                    continue;
                }
                Row ip = db.query(
                                "select address, assigned_object_type, assigned_object_id from ipam_ipaddress"
                                        + " where id = ?",
                                ipId)
                        .get(0);
                int wanted = field.equals("primary_ip4") ? 4 : 6;
                if (Addresses.family(ip.get("address")) != wanted) {
                    errors.computeIfAbsent(field, k -> new ArrayList<>())
                            .add(Networks.withMask(ip.str("address")) + " is not an IPv" + wanted + " address.");
                } else if (!ownedBy(
                        db,
                        ip.get("assigned_object_type"),
                        ip.get("assigned_object_id"),
                        "dcim.interface",
                        "dcim_interface",
                        "device_id",
                        row.longValue("device_id"))) {
                    errors.computeIfAbsent(field, k -> new ArrayList<>())
                            .add("Primary IP address must belong to an interface on the assigned device.");
                }
            }
        };
    }

    /** Devices: interfaces are dcim.interface rows with device_id = the device. */
    public static DbValidator forDevices() {
        return rule("dcim.interface", "dcim_interface", "device_id", true, "device");
    }

    /** Virtual machines: interfaces are virtualization.vminterface rows with virtual_machine_id = the VM. */
    public static DbValidator forVirtualMachines() {
        return rule("virtualization.vminterface", "virtualization_vminterface", "virtual_machine_id", false, "VM");
    }

    private static DbValidator rule(
            String interfaceType, String interfaceTable, String ownerColumn, boolean device, String noun) {
        return (Queries db, Row row, Long selfId, java.util.Map<String, List<String>> errors) -> {
            String[] fields = device
                    ? new String[] {"primary_ip4", "primary_ip6", "oob_ip"}
                    : new String[] {"primary_ip4", "primary_ip6"};
            for (String field : fields) {
                Long ipId = row.longValue(field + "_id");
                if (ipId == null) {
                    continue;
                }
                Row ip = db.query(
                                "select i.address, i.assigned_object_type, i.assigned_object_id,"
                                        + " n.assigned_object_type as nat_type, n.assigned_object_id as nat_id"
                                        + " from ipam_ipaddress i left join ipam_ipaddress n on n.id = i.nat_inside_id where i.id = ?",
                                ipId)
                        .get(0);
                String text = Networks.withMask(ip.str("address"));
                int family = Addresses.family(ip.get("address"));
                if (!field.equals("oob_ip")) {
                    int wanted = field.equals("primary_ip4") ? 4 : 6;
                    if (family != wanted) {
                        errors.computeIfAbsent(field, k -> new ArrayList<>())
                                .add(
                                        device
                                                ? text + " is not an IPv" + wanted + " address."
                                                : "Must be an IPv" + wanted + " address. (" + text + " is an IPv"
                                                        + family + " address.)");
                        continue;
                    }
                }
                // a device in a virtual chassis may also take an address of another member's
                // interface that is not management-only (NetBox's Device.vc_interfaces(if_master=False))
                Long chassis = device ? row.longValue("virtual_chassis_id") : null;
                boolean own = selfId != null
                        && (ownedBy(
                                        db,
                                        ip.get("assigned_object_type"),
                                        ip.get("assigned_object_id"),
                                        interfaceType,
                                        interfaceTable,
                                        ownerColumn,
                                        selfId,
                                        chassis)
                                || ownedBy(
                                        db,
                                        ip.get("nat_type"),
                                        ip.get("nat_id"),
                                        interfaceType,
                                        interfaceTable,
                                        ownerColumn,
                                        selfId,
                                        chassis));
                if (!own) {
                    errors.computeIfAbsent(field, k -> new ArrayList<>())
                            .add("The specified IP address (" + text + ") is not assigned to this " + noun + ".");
                }
            }
        };
    }

    private static boolean ownedBy(
            Queries db,
            Object type,
            Object id,
            String interfaceType,
            String interfaceTable,
            String ownerColumn,
            long owner) {
        return ownedBy(db, type, id, interfaceType, interfaceTable, ownerColumn, owner, null);
    }

    /** The interface is the owner's, or (with {@code chassis}) a non-management interface of a device in that chassis. */
    private static boolean ownedBy(
            Queries db,
            Object type,
            Object id,
            String interfaceType,
            String interfaceTable,
            String ownerColumn,
            long owner,
            Long chassis) {
        if (!interfaceType.equals(type) || id == null) {
            return false;
        }
        if (chassis != null) {
            return !db.query(
                            "select 1 from dcim_interface i where i.id = ? and (i.device_id = ? or (not i.mgmt_only"
                                    + " and i.device_id in (select d.id from dcim_device d where d.virtual_chassis_id = ?)))",
                            ((Number) id).longValue(),
                            owner,
                            chassis)
                    .isEmpty();
        }
        return !db.query(
                        "select 1 from " + interfaceTable + " where id = ? and " + ownerColumn + " = ?",
                        ((Number) id).longValue(),
                        owner)
                .isEmpty();
    }
}
