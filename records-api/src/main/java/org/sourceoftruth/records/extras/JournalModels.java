package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;
import org.sourceoftruth.records.web.RequestContext;

/**
 * extras: journal entries, remarks on any object NetBox journals (its JournalingMixin models).
 * Deleting an object deletes its journal, each entry with its change record (NetBox's
 * GenericRelation on the journaled model).
 */
@ApplicationScoped
public class JournalModels implements ModelDefinition {
    public static final ChoiceSet KIND = ChoiceSet.capitalised("info", "success", "warning", "danger");

    /**
     * NetBox 4.4's journaled object types (NetBoxModel and its Primary/Organizational/NestedGroup
     * subclasses, device and VM components included; templates and assignments are not). Those
     * not served here yet start taking entries when their model lands.
     */
    public static final List<String> JOURNALED = List.of(
            "circuits.circuitgroup",
            "circuits.circuittermination",
            "circuits.circuittype",
            "circuits.circuit",
            "circuits.provideraccount",
            "circuits.providernetwork",
            "circuits.provider",
            "circuits.virtualcircuittermination",
            "circuits.virtualcircuittype",
            "circuits.virtualcircuit",
            "dcim.cable",
            "dcim.consoleport",
            "dcim.consoleserverport",
            "dcim.devicebay",
            "dcim.devicerole",
            "dcim.devicetype",
            "dcim.device",
            "dcim.frontport",
            "dcim.interface",
            "dcim.inventoryitemrole",
            "dcim.inventoryitem",
            "dcim.location",
            "dcim.macaddress",
            "dcim.manufacturer",
            "dcim.modulebay",
            "dcim.moduletypeprofile",
            "dcim.moduletype",
            "dcim.module",
            "dcim.platform",
            "dcim.powerfeed",
            "dcim.poweroutlet",
            "dcim.powerpanel",
            "dcim.powerport",
            "dcim.rackreservation",
            "dcim.rackrole",
            "dcim.racktype",
            "dcim.rack",
            "dcim.rearport",
            "dcim.region",
            "dcim.sitegroup",
            "dcim.site",
            "dcim.virtualchassis",
            "dcim.virtualdevicecontext",
            "ipam.aggregate",
            "ipam.asnrange",
            "ipam.asn",
            "ipam.fhrpgroup",
            "ipam.ipaddress",
            "ipam.iprange",
            "ipam.prefix",
            "ipam.rir",
            "ipam.role",
            "ipam.routetarget",
            "ipam.servicetemplate",
            "ipam.service",
            "ipam.vlangroup",
            "ipam.vlan",
            "ipam.vrf",
            "tenancy.contactgroup",
            "tenancy.contactrole",
            "tenancy.contact",
            "tenancy.tenantgroup",
            "tenancy.tenant",
            "virtualization.clustergroup",
            "virtualization.clustertype",
            "virtualization.cluster",
            "virtualization.vminterface",
            "virtualization.virtualdisk",
            "virtualization.virtualmachine",
            "vpn.ikepolicy",
            "vpn.ikeproposal",
            "vpn.ipsecpolicy",
            "vpn.ipsecprofile",
            "vpn.ipsecproposal",
            "vpn.l2vpntermination",
            "vpn.l2vpn",
            "vpn.tunnelgroup",
            "vpn.tunneltermination",
            "vpn.tunnel",
            "wireless.wirelesslangroup",
            "wireless.wirelesslan",
            "wireless.wirelesslink");

    private static final DateTimeFormatter DISPLAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    @Inject
    RequestContext request;

    @Override
    public List<Model> models() {
        Model journal = Model.of("extras", "journal-entries", "journal entry")
                .fields(
                        genericFk("assigned_object", "assigned_object_type", "assigned_object_id", JOURNALED)
                                .required()
                                .notNull()
                                .cascade()
                                .objectTypeIds(),
                        fk("created_by", "users.user").renderedAsId(),
                        choice("kind", KIND).dflt("info"),
                        str("comments").required())
                .standardTail()
                .display(JournalModels::display)
                .hook(new CreatedByCaller())
                .relationFilter("created_by", "created_by", "username")
                .filter(ExtraFilters.each("created_after", Kind.DATETIME, "{t}.created >= ?"))
                .filter(ExtraFilters.each("created_before", Kind.DATETIME, "{t}.created <= ?"))
                .ordering("t.created desc")
                // NetBox searches the comments; the display text is searched too
                .search(
                        "t.comments",
                        "to_char(t.created at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' ('"
                                + " || initcap(t.kind) || ')'")
                .brief("created", "kind");
        return List.of(journal);
    }

    /** NetBox's JournalEntry.__str__: the creation time to the minute and the kind, "2025-01-31 09:15 (Info)". */
    private static String display(Row r) {
        OffsetDateTime created = r.time("created");
        String when = created == null
                ? ""
                : created.withOffsetSameInstant(ZoneOffset.UTC).format(DISPLAY_TIME) + " ";
        return when + "(" + KIND.label(r.str("kind")) + ")";
    }

    /**
     * created_by defaults to the caller, as NetBox's CurrentUserDefault; a request may name another
     * user (an explicit null on create is taken as unset).
     */
    private final class CreatedByCaller implements WriteHook {
        @Override
        public void beforeWrite(Row changes, Row existing, Map<String, List<String>> errors) {
            RequestContext.Caller caller = request.caller();
            if (existing == null && changes.get("created_by_id") == null && caller != null) {
                changes.put("created_by_id", caller.userId());
            }
        }
    }
}
