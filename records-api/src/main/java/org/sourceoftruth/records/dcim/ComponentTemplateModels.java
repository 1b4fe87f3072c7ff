package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.ComponentChoices.*;
import static org.sourceoftruth.records.dcim.ComponentShapes.*;
import static org.sourceoftruth.records.dcim.DcimChoices.*;
import static org.sourceoftruth.records.model.Declarations.*;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

/** dcim component templates: the components a device type gives each of its devices, with NetBox's rules. */
@ApplicationScoped
public class ComponentTemplateModels implements ModelDefinition {
    /** The templates an inventory item template may stand for (NetBox's MODULAR_COMPONENT_TEMPLATE_MODELS, module bays aside). */
    static final List<String> INVENTORY_TEMPLATE_COMPONENTS = List.of(
            "dcim.consoleporttemplate",
            "dcim.consoleserverporttemplate",
            "dcim.frontporttemplate",
            "dcim.interfacetemplate",
            "dcim.poweroutlettemplate",
            "dcim.powerporttemplate",
            "dcim.rearporttemplate");

    @Override
    public List<Model> models() {
        Model consolePort = template(
                        "console-port-templates",
                        "dcim.consoleporttemplate",
                        "console port template",
                        true,
                        choice("type", CONSOLE_PORT_TYPE).nullable())
                .filter(groupedTypeFilter(CONSOLE_PORT_TYPE, CONSOLE_PORT_TYPE_GROUPS))
                .instantiates("dcim.consoleport", "name", "label", "type");

        Model consoleServerPort = template(
                        "console-server-port-templates",
                        "dcim.consoleserverporttemplate",
                        "console server port template",
                        true,
                        choice("type", CONSOLE_PORT_TYPE).nullable())
                .filter(groupedTypeFilter(CONSOLE_PORT_TYPE, CONSOLE_PORT_TYPE_GROUPS))
                .instantiates("dcim.consoleserverport", "name", "label", "type");

        Model powerPort = template(
                        "power-port-templates",
                        "dcim.powerporttemplate",
                        "power port template",
                        true,
                        choice("type", POWER_PORT_TYPE).nullable(),
                        integer("maximum_draw")
                                .nullable()
                                .range(1, Integer.MAX_VALUE)
                                .help("Maximum power draw (watts)"),
                        integer("allocated_draw")
                                .nullable()
                                .range(1, Integer.MAX_VALUE)
                                .help("Allocated power draw (watts)"))
                .validator(ComponentModels::drawWithinMaximum)
                .filter(groupedTypeFilter(POWER_PORT_TYPE, POWER_PORT_TYPE_GROUPS))
                .instantiates("dcim.powerport", "name", "label", "type", "maximum_draw", "allocated_draw");

        Model powerOutlet = template(
                        "power-outlet-templates",
                        "dcim.poweroutlettemplate",
                        "power outlet template",
                        true,
                        choice("type", POWER_OUTLET_TYPE).nullable(),
                        str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                        fk("power_port", "dcim.powerporttemplate"),
                        choice("feed_leg", FEED_LEG).nullable().help("Phase (for three-phase feeds)"))
                .check(ComponentTemplateModels::powerPortOfSameType)
                .filter(groupedTypeFilter(POWER_OUTLET_TYPE, POWER_OUTLET_TYPE_GROUPS))
                .instantiates("dcim.poweroutlet", "name", "label", "type", "color", "power_port_id", "feed_leg");

        Model iface = template(
                        "interface-templates",
                        "dcim.interfacetemplate",
                        "interface template",
                        true,
                        choice("type", INTERFACE_TYPE).required(),
                        bool("enabled").dflt(true),
                        bool("mgmt_only").dflt(false).label("Management only"),
                        fk("bridge", "dcim.interfacetemplate").nestedFields("id", "url", "display", "name"),
                        choice("poe_mode", POE_MODE).nullable().label("PoE mode"),
                        choice("poe_type", POE_TYPE).nullable().label("PoE type"),
                        choice("rf_role", RF_ROLE).nullable().label("Wireless role"))
                .validator(InterfaceModels::poeNeedsMode)
                .validator(ComponentTemplateModels::interfaceKindRules)
                .check(ComponentTemplateModels::bridgeOfSameType)
                .instantiates(
                        "dcim.interface",
                        "name",
                        "label",
                        "type",
                        "enabled",
                        "mgmt_only",
                        "poe_mode",
                        "poe_type",
                        "rf_role",
                        "bridge_id");

        Model rearPort = template(
                        "rear-port-templates",
                        "dcim.rearporttemplate",
                        "rear port template",
                        true,
                        choice("type", PORT_TYPE).required(),
                        str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                        integer("positions").range(1, 1024).dflt(1),
                        PortMappings.field(PortMappings.Side.REAR_TEMPLATE))
                .check(PortMappings.check(PortMappings.Side.REAR_TEMPLATE), "positions", "front_ports")
                .filter(PortMappings.filter(PortMappings.Side.REAR_TEMPLATE))
                .hook(PortMappings.hook(PortMappings.Side.REAR_TEMPLATE))
                .instantiates("dcim.rearport", "name", "label", "type", "color", "positions");

        Model frontPort = template(
                        "front-port-templates",
                        "dcim.frontporttemplate",
                        "front port template",
                        true,
                        choice("type", PORT_TYPE).required(),
                        str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                        integer("positions").range(1, 1024).dflt(1),
                        PortMappings.field(PortMappings.Side.FRONT_TEMPLATE))
                .check(PortMappings.check(PortMappings.Side.FRONT_TEMPLATE), "positions", "rear_ports")
                .filter(PortMappings.filter(PortMappings.Side.FRONT_TEMPLATE))
                .hook(PortMappings.hook(PortMappings.Side.FRONT_TEMPLATE))
                // after the rear ports, which the mappings of the front ports name
                .instantiates("dcim.frontport", "name", "label", "type", "color", "positions")
                .instantiatesRows(PortMappings.fromTemplates());

        Model deviceBay = template(
                        "device-bay-templates",
                        "dcim.devicebaytemplate",
                        "device bay template",
                        false,
                        bool("enabled").dflt(true))
                .check(ComponentTemplateModels::onParentType)
                .instantiates("dcim.devicebay", "name", "label", "enabled")
                .brief("enabled");

        Model inventoryItem = templateOnType(
                        "inventory-item-templates",
                        "dcim.inventoryitemtemplate",
                        "inventory item template",
                        false,
                        fk("parent", "dcim.inventoryitemtemplate").cascade().renderedAsId(),
                        fk("role", "dcim.inventoryitemrole").protect(),
                        fk("manufacturer", "dcim.manufacturer").protect(),
                        str("part_id").max(50).label("Part ID").help("Manufacturer-assigned part identifier"),
                        genericFk("component", "component_type", "component_id", INVENTORY_TEMPLATE_COMPONENTS)
                                .cascade())
                .fields(depth())
                .select(
                        "_depth",
                        "with recursive a(pid) as (select t.parent_id union all select p.parent_id from"
                                + " dcim_inventoryitemtemplate p join a on p.id = a.pid) select count(*) from a where pid is not null")
                .check(ComponentTemplateModels::inventoryTemplateTree)
                .brief("_depth")
                .search("t.part_id")
                .unique(UniqueRule.of(
                                "Inventory item template with this Device type, Parent and Name already exists.",
                                "device_type_id",
                                "parent_id",
                                "name")
                        .skipIfNull("parent_id"))
                .ordering("t.device_type_id", "t.parent_id nulls first")
                .ordering(naturalOrder("t.name"))
                .instantiates(
                        "dcim.inventoryitem",
                        "name",
                        "label",
                        "parent_id",
                        "role_id",
                        "manufacturer_id",
                        "part_id",
                        "component_type",
                        "component_id");

        return List.of(
                consolePort,
                consoleServerPort,
                powerPort,
                powerOutlet,
                iface,
                rearPort,
                frontPort,
                deviceBay,
                inventoryItem);
    }

    /** PowerOutletTemplate.clean: its power port template is one of the same device type. */
    static void powerPortOfSameType(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long port = row.longValue("power_port_id");
        if (port == null) {
            return;
        }
        Row p = db.query("select name, label, device_type_id from dcim_powerporttemplate where id = ?", port)
                .get(0);
        if (!Objects.equals(p.longValue("device_type_id"), row.longValue("device_type_id"))) {
            allErrors(errors).add("Parent power port (" + nameAndLabel(p) + ") must belong to the same device type");
        }
    }

    /** InterfaceValidationMixin: no PoE on virtual interfaces, a wireless role only on wireless ones. */
    static void interfaceKindRules(Row row, Map<String, List<String>> errors) {
        String type = row.str("type");
        boolean virtual = InterfaceModels.VIRTUAL_INTERFACE_TYPES.contains(type);
        if (row.get("poe_mode") != null && virtual) {
            fieldError(errors, "poe_mode", "Virtual interfaces cannot have a PoE mode.");
        }
        if (row.get("poe_type") != null && virtual) {
            fieldError(errors, "poe_type", "Virtual interfaces cannot have a PoE type.");
        }
        if (row.get("rf_role") != null && !InterfaceModels.WIRELESS_INTERFACE_TYPES.contains(type)) {
            fieldError(errors, "rf_role", "Wireless role may be set only on wireless interfaces.");
        }
    }

    /** InterfaceTemplate.clean: the bridge is another interface template of the same device type. */
    static void bridgeOfSameType(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long bridge = row.longValue("bridge_id");
        if (bridge == null) {
            return;
        }
        if (bridge.equals(selfId)) {
            fieldError(errors, "bridge", "An interface cannot be bridged to itself.");
            return;
        }
        Row b = db.query("select name, label, device_type_id from dcim_interfacetemplate where id = ?", bridge)
                .get(0);
        if (!Objects.equals(b.longValue("device_type_id"), row.longValue("device_type_id"))) {
            fieldError(
                    errors, "bridge", "Bridge interface (" + nameAndLabel(b) + ") must belong to the same device type");
        }
    }

    /** DeviceBayTemplate.clean: device bays only on a parent device type. */
    static void onParentType(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Row type = db.query(
                        "select model, subdevice_role from dcim_devicetype where id = ?",
                        row.longValue("device_type_id"))
                .get(0);
        if (!"parent".equals(type.str("subdevice_role"))) {
            allErrors(errors)
                    .add("Subdevice role of device type (" + type.str("model")
                            + ") must be set to \"parent\" to allow device bays.");
        }
    }

    /** The template tree: not its own parent or ancestor, the parent of the same device type. */
    static void inventoryTemplateTree(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long parent = row.longValue("parent_id");
        if (parent == null) {
            return;
        }
        if (parent.equals(selfId)) {
            fieldError(errors, "parent", "Cannot assign self as parent.");
            return;
        }
        Row p = db.query("select device_type_id from dcim_inventoryitemtemplate where id = ?", parent)
                .get(0);
        if (!Objects.equals(p.longValue("device_type_id"), row.longValue("device_type_id"))) {
            fieldError(errors, "parent", "Parent inventory item template does not belong to the same device type.");
            return;
        }
        if (selfId != null
                && !db.query(
                                "with recursive a(id) as (select ?::bigint union all select i.parent_id"
                                        + " from dcim_inventoryitemtemplate i join a on i.id = a.id where i.parent_id is not null)"
                                        + " select 1 from a where id = ?",
                                parent,
                                selfId)
                        .isEmpty()) {
            fieldError(errors, "parent", "A node may not be made a child of any of its descendants.");
        }
    }
}
