package org.sourceoftruth.records.users;

import static org.sourceoftruth.records.model.Fields.fk;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelMixin;

/**
 * NetBox's OwnerMixin: the models whose API NetBox 4.6 gives an {@code owner} (its PrimaryModel,
 * OrganizationalModel and NestedGroupModel subclasses, and the extras models that name the
 * mixin) get a nullable, writable relation to {@code users/owners}, rendered in the owner's brief
 * form and placed where NetBox's serializers put it (before {@code comments}, else before
 * {@code tags}, else before {@code created}). Its filters follow from the relation:
 * {@code owner} (by name), {@code owner_id}, and through the owner's group {@code owner_group}
 * and {@code owner_group_id}, each with {@code __n}. Deleting an owner that still owns objects
 * is refused (PROTECT). Ownership grants nothing by itself: a permission's constraints may name
 * it, e.g. {@code {"owner__users": "$user"}} for the objects owned by the requesting user.
 */
@ApplicationScoped
public class Ownership implements ModelMixin {
    /** The owned models by application, as V200 gives their tables an owner_id. */
    static final Set<String> OWNED = Arrays.stream(new String[] {
                "circuits: circuit circuitgroup circuittype provider provideraccount providernetwork"
                        + " virtualcircuit virtualcircuittype",
                "core: datasource",
                "dcim: cable cablebundle consoleport consoleserverport device devicebay devicerole"
                        + " devicetype frontport interface inventoryitem inventoryitemrole location macaddress"
                        + " manufacturer module modulebay moduletype moduletypeprofile platform powerfeed"
                        + " poweroutlet powerpanel powerport rack rackgroup rackreservation rackrole racktype"
                        + " rearport region site sitegroup virtualchassis virtualdevicecontext",
                "extras: configcontext configcontextprofile configtemplate customfield"
                        + " customfieldchoiceset customlink eventrule exporttemplate savedfilter webhook",
                "ipam: aggregate asn asnrange fhrpgroup ipaddress iprange prefix rir role routetarget"
                        + " service servicetemplate vlan vlangroup vlantranslationpolicy vrf",
                "tenancy: contact contactgroup contactrole tenant tenantgroup",
                "virtualization: cluster clustergroup clustertype virtualdisk virtualmachine"
                        + " virtualmachinetype vminterface",
                "vpn: ikepolicy ikeproposal ipsecpolicy ipsecprofile ipsecproposal l2vpn tunnel" + " tunnelgroup",
                "wireless: wirelesslan wirelesslangroup wirelesslink"
            })
            .flatMap(line -> {
                String app = line.substring(0, line.indexOf(':'));
                return Arrays.stream(
                                line.substring(line.indexOf(':') + 1).trim().split(" "))
                        .map(m -> app + "." + m);
            })
            .collect(Collectors.toUnmodifiableSet());

    /**
     * Owned models whose API NetBox leaves the owner out of (its TagSerializer): the relation is
     * stored and filtered (NetBox's OwnerFilterMixin), never rendered or written.
     */
    static final Set<String> OWNED_UNRENDERED = Set.of("extras.tag");

    @Override
    public Set<String> contentTypes() {
        Set<String> all = new java.util.HashSet<>(OWNED);
        all.addAll(OWNED_UNRENDERED);
        return all;
    }

    @Override
    public void apply(Model model) {
        Field owner = fk("owner", "users.owner").protect();
        model.fieldBefore(
                OWNED_UNRENDERED.contains(model.contentType()) ? owner.unrendered() : owner,
                "comments",
                "tags",
                "created");
    }
}
