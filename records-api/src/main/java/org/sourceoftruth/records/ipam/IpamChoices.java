package org.sourceoftruth.records.ipam;

import java.util.Set;
import org.sourceoftruth.records.model.ChoiceSet;

/** IPAM choice sets as NetBox 4 defines them (ipam/choices.py). */
public final class IpamChoices {
    /** An address's or prefix's family, rendered {value: 4, label: "IPv4"}. */
    public static final ChoiceSet FAMILY =
            ChoiceSet.of("4", "IPv4", "6", "IPv6").numeric();

    public static final ChoiceSet PREFIX_STATUS =
            ChoiceSet.capitalised("container", "active", "reserved", "deprecated");
    public static final ChoiceSet IP_RANGE_STATUS = ChoiceSet.capitalised("active", "reserved", "deprecated");
    public static final ChoiceSet IP_ADDRESS_STATUS = ChoiceSet.of(
            "active", "Active", "reserved", "Reserved", "deprecated", "Deprecated", "dhcp", "DHCP", "slaac", "SLAAC");
    public static final ChoiceSet IP_ADDRESS_ROLE = ChoiceSet.of(
            "loopback",
            "Loopback",
            "secondary",
            "Secondary",
            "anycast",
            "Anycast",
            "vip",
            "VIP",
            "vrrp",
            "VRRP",
            "hsrp",
            "HSRP",
            "glbp",
            "GLBP",
            "carp",
            "CARP");
    public static final ChoiceSet VLAN_STATUS = ChoiceSet.capitalised("active", "reserved", "deprecated");
    public static final ChoiceSet VLAN_QINQ_ROLE = ChoiceSet.of("svlan", "Service", "cvlan", "Customer");
    public static final ChoiceSet SERVICE_PROTOCOL = ChoiceSet.of("tcp", "TCP", "udp", "UDP", "sctp", "SCTP");

    /** Roles whose addresses may repeat in a VRF that enforces uniqueness (IPADDRESS_ROLES_NONUNIQUE). */
    public static final Set<String> NONUNIQUE_ROLES = Set.of("anycast", "vip", "vrrp", "hsrp", "glbp", "carp");

    private IpamChoices() {}
}
