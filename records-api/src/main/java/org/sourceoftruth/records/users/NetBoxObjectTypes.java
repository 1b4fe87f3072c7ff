package org.sourceoftruth.records.users;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every object type NetBox 4.6 lets an object permission name (OBJECTPERMISSION_OBJECT_TYPES),
 * including models this service does not serve yet: a permission written for a NetBox
 * installation must be accepted here unchanged, and starts to apply when its model lands.
 */
final class NetBoxObjectTypes {
    private static final Set<String> ALL = Arrays.stream(new String[] {
                "circuits: circuit circuitgroup circuitgroupassignment circuittermination circuittype provider"
                        + " provideraccount providernetwork virtualcircuit virtualcircuittermination virtualcircuittype",
                "core: autosyncrecord configrevision datafile datasource job managedfile objectchange objecttype",
                "dcim: cable cablebundle cablepath cabletermination consoleport consoleporttemplate consoleserverport"
                        + " consoleserverporttemplate device devicebay devicebaytemplate devicerole devicetype frontport"
                        + " frontporttemplate interface interfacetemplate inventoryitem inventoryitemrole"
                        + " inventoryitemtemplate location macaddress manufacturer module modulebay modulebaytemplate"
                        + " moduletype moduletypeprofile platform powerfeed poweroutlet poweroutlettemplate powerpanel"
                        + " powerport powerporttemplate rack rackgroup rackreservation rackrole racktype rearport rearporttemplate"
                        + " region site sitegroup virtualchassis virtualdevicecontext",
                "extras: bookmark configcontext configcontextprofile configtemplate customfield customfieldchoiceset"
                        + " customlink dashboard eventrule exporttemplate imageattachment journalentry notification"
                        + " notificationgroup savedfilter script subscription tableconfig tag taggeditem webhook",
                "ipam: aggregate asn asnrange fhrpgroup fhrpgroupassignment ipaddress iprange prefix rir role"
                        + " routetarget service servicetemplate vlan vlangroup vlantranslationpolicy vlantranslationrule vrf",
                "tenancy: contact contactassignment contactgroup contactrole tenant tenantgroup",
                "users: group objectpermission owner ownergroup token user",
                "virtualization: cluster clustergroup clustertype virtualdisk virtualmachine virtualmachinetype"
                        + " vminterface",
                "vpn: ikepolicy ikeproposal ipsecpolicy ipsecprofile ipsecproposal l2vpn l2vpntermination tunnel"
                        + " tunnelgroup tunneltermination",
                "wireless: wirelesslan wirelesslangroup wirelesslink"
            })
            .flatMap(line -> {
                String app = line.substring(0, line.indexOf(':'));
                return Arrays.stream(
                                line.substring(line.indexOf(':') + 1).trim().split(" "))
                        .map(m -> app + "." + m);
            })
            .collect(Collectors.toUnmodifiableSet());

    private NetBoxObjectTypes() {}

    static boolean contains(String objectType) {
        return ALL.contains(objectType);
    }
}
