package org.sourceoftruth.records.graphql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * The relations a model is the target of, as NetBox's schema shows them on the target's type
 * (a site's {@code devices}, an interface's {@code ip_addresses}): every foreign key, many-to-many
 * field and generic relation of another model that points at it. A reverse relation is named
 * after the other model's API path ({@code ip-addresses} → {@code ip_addresses}), which is
 * Django's {@code related_name} for most of NetBox's models; when one model points at another
 * through several fields (a device's primary and out-of-band IPs), none of them is named so,
 * and of a model's references to itself only a tree's parent is, as {@code children}. Where
 * Django's default name (the class name in lower case and an s: a device's {@code consoleports})
 * differs, the relation answers to both. Where NetBox's model gives the relation a
 * {@code related_name} of its own ({@link #RELATED_NAMES}: a circuit's {@code terminations}, a
 * provider's {@code networks}, a tenant's {@code vdcs}), it answers to that name only; a field
 * of a model with several fields onto the same one (an interface's tagged and untagged VLANs)
 * or onto itself (a LAG's members) is named only there. Every change-logged model has its
 * change records as {@code changelog}.
 */
final class Relations {
    /** A reverse relation: objects of {@code owner} whose {@code field} points at the target. */
    record Reverse(String name, Model owner, Field field) {
        /**
         * Whether at most one object points back (NetBox's one-to-one fields: a virtual
         * chassis's master, a device bay's installed device): the type is the object, not a list.
         */
        boolean singular() {
            return SINGULAR.contains(owner.contentType() + "." + field.name);
        }

        /** Whether filters take the relation too (NetBox filters by none of the change records). */
        boolean filters() {
            return !name.equals(CHANGELOG);
        }

        /** Whether {@code field} points at models of this content type. */
        boolean reaches(String contentType) {
            return field.kind == Kind.GENERIC_FK ? field.genericTypes().contains(contentType) : true;
        }
    }

    static final String CHANGELOG = "changelog";

    /**
     * NetBox's {@code related_name} of a relation ({@code <owner content type>.<field>}) where it
     * is neither the owner's API path nor its class name and an s (Django's default
     * {@code <class>_set} where NetBox sets none); several names, comma-separated, where NetBox's
     * filter and type name it differently.
     */
    static final Map<String, String> RELATED_NAMES = Map.ofEntries(
            Map.entry("circuits.circuittermination.circuit", "terminations"),
            Map.entry("circuits.providernetwork.provider", "networks"),
            Map.entry("circuits.virtualcircuittermination.virtual_circuit", "terminations"),
            Map.entry("dcim.cabletermination.cable", "terminations"),
            Map.entry("dcim.device.device_type", "instances"),
            Map.entry("dcim.devicebay.device", "devicebays,device_bays"),
            Map.entry("dcim.devicebay.installed_device", "parent_bay"),
            Map.entry("dcim.interface.lag", "member_interfaces"),
            Map.entry("dcim.interface.parent", "child_interfaces"),
            Map.entry("dcim.interface.bridge", "bridge_interfaces"),
            Map.entry("dcim.interface.untagged_vlan", "interfaces_as_untagged"),
            Map.entry("dcim.interface.tagged_vlans", "interfaces_as_tagged"),
            Map.entry("dcim.interfacetemplate.bridge", "bridge_interfaces"),
            Map.entry("dcim.inventoryitem.parent", "child_items"),
            Map.entry("dcim.inventoryitemtemplate.parent", "child_items"),
            Map.entry("dcim.module.module_type", "instances"),
            Map.entry("dcim.poweroutlettemplate.power_port", "poweroutlet_templates"),
            Map.entry("dcim.powerpanel.site", "powerpanel_set"),
            Map.entry("dcim.powerpanel.location", "powerpanel_set"),
            Map.entry("dcim.rackreservation.rack", "reservations"),
            Map.entry("dcim.virtualchassis.master", "vc_master_for"),
            Map.entry("dcim.virtualdevicecontext.device", "vdcs"),
            Map.entry("dcim.virtualdevicecontext.tenant", "vdcs"),
            Map.entry("extras.customfield.choice_set", "choices_for"),
            Map.entry("extras.imageattachment.parent", "image_attachments,images"),
            Map.entry("ipam.fhrpgroupassignment.group", "fhrpgroupassignment_set"),
            Map.entry("ipam.vrf.import_targets", "importing_vrfs"),
            Map.entry("ipam.vrf.export_targets", "exporting_vrfs"),
            Map.entry("tenancy.contactassignment.contact", "assignments"),
            Map.entry("tenancy.contactassignment.object", "contacts"),
            Map.entry("tenancy.contactassignment.role", "assignments"),
            Map.entry("virtualization.virtualmachine.virtual_machine_type", "instances"),
            Map.entry("virtualization.vminterface.bridge", "bridge_interfaces"),
            Map.entry("virtualization.vminterface.parent", "child_interfaces"),
            Map.entry("virtualization.vminterface.untagged_vlan", "vminterfaces_as_untagged"),
            Map.entry("virtualization.vminterface.tagged_vlans", "vminterfaces_as_tagged"),
            Map.entry("virtualization.vminterface.vrf", "vminterfaces"),
            Map.entry("vpn.l2vpn.import_targets", "importing_l2vpns"),
            Map.entry("vpn.l2vpn.export_targets", "exporting_l2vpns"),
            Map.entry("vpn.l2vpntermination.l2vpn", "terminations"),
            Map.entry("vpn.tunneltermination.tunnel", "terminations"),
            Map.entry("wireless.wirelesslan.vlan", "wirelesslan_set"));

    /** The relations NetBox declares one-to-one. */
    static final java.util.Set<String> SINGULAR =
            java.util.Set.of("dcim.virtualchassis.master", "dcim.devicebay.installed_device");

    private final Map<String, Map<String, Reverse>> byTarget = new HashMap<>();

    /** From the registry's index of references (the one deletes use): nothing walked twice. */
    Relations(ModelRegistry registry) {
        for (Model target : registry.all()) {
            Map<Model, List<Field>> pointing = new LinkedHashMap<>();
            for (ModelRegistry.Reference r : registry.referencesTo(target.contentType())) {
                if (!r.field().isWriteOnly() && !r.field().isSecret()) {
                    pointing.computeIfAbsent(r.owner(), k -> new ArrayList<>()).add(r.field());
                }
            }
            // NetBox's own names first: a derived name of another relation never takes one
            for (Map.Entry<Model, List<Field>> e : pointing.entrySet()) {
                for (Field f : e.getValue()) {
                    String names = RELATED_NAMES.get(e.getKey().contentType() + "." + f.name);
                    for (String name : names == null ? new String[0] : names.split(",")) {
                        byTarget.computeIfAbsent(target.contentType(), k -> new LinkedHashMap<>())
                                .put(name, new Reverse(name, e.getKey(), f));
                    }
                }
            }
            for (Map.Entry<Model, List<Field>> e : pointing.entrySet()) {
                Model owner = e.getKey();
                if (owner == target) {
                    Field parent = owner.treeParent() == null ? null : owner.field(owner.treeParent());
                    if (parent != null && e.getValue().contains(parent)) {
                        add(target.contentType(), new Reverse("children", owner, parent));
                    }
                    continue;
                }
                if (e.getValue().size() != 1) {
                    continue;
                }
                Field field = e.getValue().get(0);
                if (RELATED_NAMES.containsKey(owner.contentType() + "." + field.name)) {
                    continue;
                }
                add(target.contentType(), new Reverse(owner.path().replace('-', '_'), owner, field));
                // Django's default for NetBox's components and many others: the class name in lower case and an s
                add(target.contentType(), new Reverse(owner.apiName().toLowerCase(Locale.ROOT) + "s", owner, field));
            }
        }
        Model changes = registry.byContentType("core.objectchange").orElse(null);
        Field changed = changes == null ? null : changes.field("changed_object");
        if (changed != null) {
            for (Model m : registry.all()) {
                if (m.isChangedByEngine() && m != changes) {
                    add(m.contentType(), new Reverse(CHANGELOG, changes, changed));
                }
            }
        }
    }

    private void add(String target, Reverse reverse) {
        byTarget.computeIfAbsent(target, k -> new LinkedHashMap<>()).putIfAbsent(reverse.name(), reverse);
    }

    /** The reverse relations onto the model with this content type, by name. */
    Map<String, Reverse> onto(String contentType) {
        return byTarget.getOrDefault(contentType, Map.of());
    }
}
