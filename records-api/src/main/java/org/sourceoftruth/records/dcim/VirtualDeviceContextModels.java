package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;

/** dcim virtual device contexts: a device's VDCs (e.g. Nexus VDCs), which its interfaces join. */
@ApplicationScoped
public class VirtualDeviceContextModels implements ModelDefinition {
    static final ChoiceSet VDC_STATUS = ChoiceSet.capitalised("active", "planned", "offline");

    @Override
    public List<Model> models() {
        Model vdc = Model.of("dcim", "virtual-device-contexts", "virtual device context")
                .fields(
                        str("name").required().max(64),
                        fk("device", "dcim.device").required().protect(),
                        integer("identifier")
                                .nullable()
                                .range(0, 32767)
                                .help("Numeric identifier unique to the parent device"),
                        fk("tenant", "tenancy.tenant").protect(),
                        PrimaryIps.primaryIp(),
                        PrimaryIps.address("primary_ip4"),
                        PrimaryIps.address("primary_ip6"),
                        choice("status", VDC_STATUS).required(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("interface_count", "dcim_interface_vdcs", "virtualdevicecontext_id"))
                .select("_primary_ip_id", PrimaryIps.PRIMARY_IP_SELECT)
                .check(PrimaryIps.forVirtualDeviceContexts())
                .filter(PrimaryIps.hasPrimaryIp())
                // NetBox's device filter takes ids, like device_id
                .relationFilter("device", "device", "id")
                .relationFilter("primary_ip4", "primary_ip4", "address")
                .relationFilter("primary_ip6", "primary_ip6", "address")
                .filter(ExtraFilters.each(
                                "interface_id",
                                Kind.INTEGER,
                                "{t}.id in (select virtualdevicecontext_id"
                                        + " from dcim_interface_vdcs where interface_id = ?)")
                        .choicesFrom("dcim_interface", "id"))
                .unique(UniqueRule.of(
                                "Virtual device context with this Device and Identifier already exists.",
                                "device_id",
                                "identifier")
                        .skipIfNull("identifier"))
                .unique(UniqueRule.of(
                        "Virtual device context with this Device and Name already exists.", "device_id", "name"))
                .ordering("t.name")
                .search("t.name", "t.identifier::text")
                .brief("name", "identifier", "device", "description");
        return List.of(vdc);
    }
}
