package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.ComponentChoices.*;
import static org.sourceoftruth.records.dcim.ComponentShapes.*;
import static org.sourceoftruth.records.model.Declarations.*;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

/**
 * dcim device components besides interfaces: console and console server ports, power ports and
 * outlets, front and rear ports, device bays and inventory items, with NetBox's rules.
 */
@ApplicationScoped
public class ComponentModels implements ModelDefinition {
    /** The components an inventory item may stand for (NetBox's MODULAR_COMPONENT_MODELS; module bays come with modules). */
    static final List<String> INVENTORY_COMPONENTS = List.of(
            "dcim.consoleport",
            "dcim.consoleserverport",
            "dcim.frontport",
            "dcim.interface",
            "dcim.poweroutlet",
            "dcim.powerport",
            "dcim.rearport");

    @Override
    public List<Model> models() {
        Model consolePort = cabled(
                component(
                        "console-ports",
                        "dcim.consoleport",
                        "console port",
                        true,
                        choice("type", CONSOLE_PORT_TYPE).nullable().help("Physical port type"),
                        choice("speed", CONSOLE_PORT_SPEED).nullable().help("Port speed in bits per second")),
                true);

        Model consoleServerPort = cabled(
                component(
                        "console-server-ports",
                        "dcim.consoleserverport",
                        "console server port",
                        true,
                        choice("type", CONSOLE_PORT_TYPE).nullable().help("Physical port type"),
                        choice("speed", CONSOLE_PORT_SPEED).nullable().help("Port speed in bits per second")),
                true);

        Model powerPort = cabled(
                        component(
                                "power-ports",
                                "dcim.powerport",
                                "power port",
                                true,
                                choice("type", POWER_PORT_TYPE).nullable().help("Physical port type"),
                                integer("maximum_draw")
                                        .nullable()
                                        .range(1, Integer.MAX_VALUE)
                                        .help("Maximum power draw (watts)"),
                                integer("allocated_draw")
                                        .nullable()
                                        .range(1, Integer.MAX_VALUE)
                                        .help("Allocated power draw (watts)")),
                        true)
                .validator(ComponentModels::drawWithinMaximum);

        Model powerOutlet = cabled(
                        component(
                                "power-outlets",
                                "dcim.poweroutlet",
                                "power outlet",
                                true,
                                choice("type", POWER_OUTLET_TYPE).nullable().help("Physical port type"),
                                choice("status", POWER_OUTLET_STATUS).dflt("enabled"),
                                str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                                fk("power_port", "dcim.powerport"),
                                choice("feed_leg", FEED_LEG).nullable().help("Phase (for three-phase feeds)")),
                        true)
                .check(ComponentModels::powerPortOnSameDevice);

        Model rearPort = cabled(
                        component(
                                "rear-ports",
                                "dcim.rearport",
                                "rear port",
                                true,
                                choice("type", PORT_TYPE).required(),
                                str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                                integer("positions").range(1, 1024).dflt(1),
                                PortMappings.field(PortMappings.Side.REAR)),
                        false)
                .check(PortMappings.check(PortMappings.Side.REAR), "positions", "front_ports")
                .filter(PortMappings.filter(PortMappings.Side.REAR))
                .hook(PortMappings.hook(PortMappings.Side.REAR))
                .hook(PathRetraceHooks.passThroughPort("dcim.rearport"));

        Model frontPort = cabled(
                        component(
                                "front-ports",
                                "dcim.frontport",
                                "front port",
                                true,
                                choice("type", PORT_TYPE).required(),
                                str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                                integer("positions").range(1, 1024).dflt(1),
                                PortMappings.field(PortMappings.Side.FRONT)),
                        false)
                .check(PortMappings.check(PortMappings.Side.FRONT), "positions", "rear_ports")
                .filter(PortMappings.filter(PortMappings.Side.FRONT))
                .hook(PortMappings.hook(PortMappings.Side.FRONT))
                .hook(PathRetraceHooks.passThroughPort("dcim.frontport"));

        Model deviceBay = component(
                        "device-bays",
                        "dcim.devicebay",
                        "device bay",
                        false,
                        bool("enabled").dflt(true))
                .fieldBefore(fk("installed_device", "dcim.device"), "tags")
                // NetBox's DeviceBay._occupied: disabled, or holding a device
                .fields(computed(
                                "_occupied",
                                r -> !Boolean.TRUE.equals(r.get("enabled")) || r.get("installed_device_id") != null)
                        .renders(Kind.BOOLEAN))
                .check(ComponentModels::bayOnParentHoldsAChild)
                .briefExactly("device", "name", "enabled", "description", "_occupied");

        Model inventoryItem = componentOnDevice(
                        "inventory-items",
                        "dcim.inventoryitem",
                        "inventory item",
                        false,
                        fk("parent", "dcim.inventoryitem").cascade().renderedAsId(),
                        choice("status", INVENTORY_ITEM_STATUS).dflt("active"),
                        fk("role", "dcim.inventoryitemrole").protect(),
                        fk("manufacturer", "dcim.manufacturer").protect(),
                        str("part_id").max(50).label("Part ID").help("Manufacturer-assigned part identifier"),
                        str("serial").max(50).label("Serial number"),
                        str("asset_tag")
                                .max(50)
                                .nullable()
                                .unique()
                                .dflt(null)
                                .help("A unique tag used to identify this item"),
                        bool("discovered").dflt(false).help("This item was automatically discovered"),
                        genericFk("component", "component_type", "component_id", INVENTORY_COMPONENTS)
                                .cascade())
                .fields(depth())
                .select(
                        "_depth",
                        "with recursive a(pid) as (select t.parent_id union all select p.parent_id from"
                                + " dcim_inventoryitem p join a on p.id = a.pid) select count(*) from a where pid is not null")
                .check(ComponentModels::inventoryTree)
                .brief("_depth")
                .search("t.serial", "t.asset_tag", "t.part_id")
                // unique per device and parent: top-level items may share a name (NULL parents differ)
                .unique(UniqueRule.of(
                                "Inventory item with this Device, Parent and Name already exists.",
                                "device_id",
                                "parent_id",
                                "name")
                        .skipIfNull("parent_id"))
                .ordering("t.device_id", "t.parent_id nulls first")
                .ordering(naturalOrder("t.name"));

        return List.of(
                consolePort, consoleServerPort, powerPort, powerOutlet, rearPort, frontPort, deviceBay, inventoryItem);
    }

    /** PowerPort.clean (and its template's): the allocated draw stays within the maximum. */
    static void drawWithinMaximum(Row row, Map<String, List<String>> errors) {
        Long maximum = row.longValue("maximum_draw");
        Long allocated = row.longValue("allocated_draw");
        if (maximum != null && allocated != null && allocated > maximum) {
            fieldError(errors, "allocated_draw", "Allocated draw cannot exceed the maximum draw (" + maximum + "W).");
        }
    }

    /** PowerOutlet.clean: its power port is one of the same device. */
    static void powerPortOnSameDevice(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long port = row.longValue("power_port_id");
        if (port == null) {
            return;
        }
        Row p = db.query("select name, label, device_id from dcim_powerport where id = ?", port)
                .get(0);
        if (!Objects.equals(p.longValue("device_id"), row.longValue("device_id"))) {
            allErrors(errors).add("Parent power port (" + nameAndLabel(p) + ") must belong to the same device");
        }
    }

    /**
     * DeviceBay.clean: only a device whose type is a parent has bays; a bay holds a device of a
     * child type (the only devices NetBox offers to install), not the device itself, and a device
     * sits in one bay at a time.
     */
    static void bayOnParentHoldsAChild(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Row parent = deviceAndType(db, row.longValue("device_id"));
        if (!"parent".equals(parent.str("subdevice_role"))) {
            allErrors(errors).add("This type of device (" + parent.str("model") + ") does not support device bays.");
            return;
        }
        Long installed = row.longValue("installed_device_id");
        if (installed == null) {
            return;
        }
        if (!Boolean.TRUE.equals(row.get("enabled"))) {
            // a device installed before the bay was disabled may stay
            List<Row> stored = selfId == null
                    ? List.of()
                    : db.query("select installed_device_id from dcim_devicebay where id = ?", selfId);
            if (stored.isEmpty() || !installed.equals(stored.get(0).longValue("installed_device_id"))) {
                fieldError(errors, "installed_device", "Cannot install a device in a disabled device bay.");
                return;
            }
        }
        if (installed.equals(row.longValue("device_id"))) {
            allErrors(errors).add("Cannot install a device into itself.");
            return;
        }
        List<Row> current = db.query(
                "select name, label from dcim_devicebay where installed_device_id = ? and id <> ?",
                installed,
                selfId == null ? -1L : selfId);
        if (!current.isEmpty()) {
            fieldError(
                    errors,
                    "installed_device",
                    "Cannot install the specified device; device is already installed in "
                            + nameAndLabel(current.get(0)) + ".");
            return;
        }
        Row child = deviceAndType(db, installed);
        if (!"child".equals(child.str("subdevice_role"))) {
            fieldError(
                    errors,
                    "installed_device",
                    "Cannot install the specified device; its device type (" + child.str("model")
                            + ") is not a child device type.");
        }
    }

    private static Row deviceAndType(Queries db, long device) {
        return db.query(
                        "select dt.model, dt.subdevice_role from dcim_device d join dcim_devicetype dt"
                                + " on dt.id = d.device_type_id where d.id = ?",
                        device)
                .get(0);
    }

    /**
     * InventoryItem.clean and its tree: not its own parent or ancestor, the parent on the same
     * device, the component one of the item's device, no move to another device with children.
     */
    static void inventoryTree(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long device = row.longValue("device_id");
        Long parent = row.longValue("parent_id");
        if (parent != null) {
            if (parent.equals(selfId)) {
                fieldError(errors, "parent", "Cannot assign self as parent.");
                return;
            }
            Row p = db.query("select device_id from dcim_inventoryitem where id = ?", parent)
                    .get(0);
            if (!Objects.equals(p.longValue("device_id"), device)) {
                fieldError(errors, "parent", "Parent inventory item does not belong to the same device.");
                return;
            }
            if (selfId != null
                    && !db.query(
                                    "with recursive a(id) as (select ?::bigint union all select i.parent_id"
                                            + " from dcim_inventoryitem i join a on i.id = a.id where i.parent_id is not null)"
                                            + " select 1 from a where id = ?",
                                    parent,
                                    selfId)
                            .isEmpty()) {
                fieldError(errors, "parent", "A node may not be made a child of any of its descendants.");
                return;
            }
        }
        if (selfId != null
                && !db.query("select 1 from dcim_inventoryitem where parent_id = ? and device_id <> ?", selfId, device)
                        .isEmpty()) {
            allErrors(errors).add("Cannot move an inventory item with dependent children");
            return;
        }
        String type = row.str("component_type");
        Long component = row.longValue("component_id");
        if (type != null && component != null && INVENTORY_COMPONENTS.contains(type)) {
            List<Row> owner = db.query("select device_id from " + type.replace('.', '_') + " where id = ?", component);
            if (!owner.isEmpty() && !Objects.equals(owner.get(0).longValue("device_id"), device)) {
                fieldError(errors, "device", "Cannot assign inventory item to component on another device");
            }
        }
    }
}
