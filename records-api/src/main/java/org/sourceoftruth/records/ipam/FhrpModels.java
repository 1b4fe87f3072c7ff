package org.sourceoftruth.records.ipam;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.virtualization.VirtualizationTables;

/**
 * ipam: FHRP groups (a virtual address shared by routers through VRRP, HSRP, CARP...) and their
 * assignments to device or VM interfaces with a priority.
 */
@ApplicationScoped
public class FhrpModels implements ModelDefinition {
    public static final ChoiceSet PROTOCOL = ChoiceSet.of(
            "vrrp2",
            "VRRPv2",
            "vrrp3",
            "VRRPv3",
            "carp",
            "CARP",
            "clusterxl",
            "ClusterXL",
            "hsrp",
            "HSRP",
            "glbp",
            "GLBP",
            "other",
            "Other");
    public static final ChoiceSet AUTH_TYPE = ChoiceSet.of("plaintext", "Plaintext", "md5", "MD5");
    /** What an FHRP group may be assigned to (NetBox's FHRPGROUPASSIGNMENT_INTERFACE_MODELS). */
    public static final List<String> INTERFACE_TYPES = List.of("dcim.interface", "virtualization.vminterface");

    @Override
    public List<Model> models() {
        Model group = Model.of("ipam", "fhrp-groups", "FHRP group")
                .apiName("FHRPGroup")
                // protocol and auth_type are plain DRF choices: rendered as the bare value
                .fields(
                        str("name").max(100),
                        plainChoice("protocol", PROTOCOL).required().dflt(null),
                        integer("group_id").required().range(0, 32767).label("Group ID"),
                        plainChoice("auth_type", AUTH_TYPE)
                                .nullable()
                                .dflt(null)
                                .label("Authentication type"),
                        str("auth_key").max(255).label("Authentication key"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(m2m("ip_addresses", "ipam.ipaddress", "ipam_fhrpgroup_addresses", "group_id", "id")
                        .readOnly()
                        .noFilter())
                .select("_first_ip", firstAddress("t.id"))
                .display(r -> text(r.str("name"), r.str("protocol"), r.str("group_id"), r.str("_first_ip")))
                // groups with an address in the same network and VRF as one of the given addresses
                .filter(ExtraFilters.each(
                                "related_ip",
                                Kind.INTEGER,
                                "{t}.id in (select a.assigned_object_id from"
                                        + " ipam_ipaddress a join ipam_ipaddress r on r.id = ? where a.assigned_object_type ="
                                        + " 'ipam.fhrpgroup' and a.address <<= r.address and a.vrf_id is not distinct from r.vrf_id)")
                        .choicesFrom("ipam_ipaddress", "id"))
                .ordering("t.protocol", "t.group_id")
                .search("t.name", "t.description", "t.comments")
                .brief("protocol", "group_id", "description");

        String interfaceOf = "{t}.interface_type = '%s' and {t}.interface_id in (select i.id from %s i where i.%s in"
                + " (select p.id from %s p where p.%s = ?))";
        Model assignment = Model.of("ipam", "fhrp-group-assignments", "FHRP group assignment")
                .apiName("FHRPGroupAssignment")
                .noDisplayUrl()
                .fields(
                        fk("group", "ipam.fhrpgroup").required().cascade(),
                        genericFk("interface", "interface_type", "interface_id", INTERFACE_TYPES)
                                .required()
                                .notNull()
                                .cascade(),
                        integer("priority").required().range(0, 255))
                .timestamps()
                .select(
                        "_interface",
                        "select coalesce((select i.name from " + DcimTables.INTERFACE + " i where t.interface_type ="
                                + " 'dcim.interface' and i.id = t.interface_id), (select v.name from "
                                + VirtualizationTables.VMINTERFACE + " v"
                                + " where t.interface_type = 'virtualization.vminterface' and v.id = t.interface_id))")
                .select("_group_name", "select g.name from ipam_fhrpgroup g where g.id = t.group_id")
                .select("_group_protocol", "select g.protocol from ipam_fhrpgroup g where g.id = t.group_id")
                .select("_group_vid", "select g.group_id from ipam_fhrpgroup g where g.id = t.group_id")
                .select("_group_ip", firstAddress("t.group_id"))
                .display(r -> r.str("_interface") + ": "
                        + text(r.str("_group_name"), r.str("_group_protocol"), r.str("_group_vid"), r.str("_group_ip"))
                        + " (" + r.str("priority") + ")")
                .unique(UniqueRule.of(
                        "FHRP group assignment with this Interface type, Interface id and Group already" + " exists.",
                        "interface_type",
                        "interface_id",
                        "group_id"))
                .filter(ExtraFilters.each(
                        "device",
                        Kind.STRING,
                        String.format(
                                interfaceOf,
                                "dcim.interface",
                                DcimTables.INTERFACE,
                                "device_id",
                                DcimTables.DEVICE,
                                "name")))
                .filter(ExtraFilters.each(
                        "device_id",
                        Kind.INTEGER,
                        String.format(
                                interfaceOf,
                                "dcim.interface",
                                DcimTables.INTERFACE,
                                "device_id",
                                DcimTables.DEVICE,
                                "id")))
                .filter(ExtraFilters.each(
                        "virtual_machine",
                        Kind.STRING,
                        String.format(
                                interfaceOf,
                                "virtualization.vminterface",
                                VirtualizationTables.VMINTERFACE,
                                "virtual_machine_id",
                                VirtualizationTables.VIRTUALMACHINE,
                                "name")))
                .filter(ExtraFilters.each(
                        "virtual_machine_id",
                        Kind.INTEGER,
                        String.format(
                                interfaceOf,
                                "virtualization.vminterface",
                                VirtualizationTables.VMINTERFACE,
                                "virtual_machine_id",
                                VirtualizationTables.VIRTUALMACHINE,
                                "id")))
                .ordering("t.priority desc")
                .brief("group", "interface_type", "interface_id", "interface", "priority");
        return List.of(group, assignment);
    }

    /** The first address of the group whose id is {@code groupId} (an SQL term), as text with its mask. */
    private static String firstAddress(String groupId) {
        return "select a.address::text from ipam_ipaddress a where a.assigned_object_type = 'ipam.fhrpgroup'"
                + " and a.assigned_object_id = " + groupId + " order by a.address, a.id limit 1";
    }

    /** A group as NetBox prints it: "[name ]PROTOCOL: group id[ (first address)]". */
    private static String text(String name, String protocol, String groupId, String firstAddress) {
        return (name == null || name.isEmpty() ? "" : name + " ") + PROTOCOL.label(protocol) + ": " + groupId
                + (firstAddress == null ? "" : " (" + firstAddress + ")");
    }
}
