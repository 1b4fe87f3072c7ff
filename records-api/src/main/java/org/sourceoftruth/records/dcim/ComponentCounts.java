package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.model.Fields.computed;
import static org.sourceoftruth.records.model.Fields.count;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * What devices and device types show and filter of their components and templates: NetBox's
 * CounterCacheFields ({@code console_port_count}, {@code interface_template_count}, ...), the
 * "has one" filters ({@code console_ports=true}, {@code pass_through_ports}), and a device's
 * parent device through the device bay it is installed in.
 */
final class ComponentCounts {
    private ComponentCounts() {}

    /** Device counter → component table, in NetBox's field order. */
    private static final Map<String, String> DEVICE_COUNTS = ordered(
            "console_port_count",
            "dcim_consoleport",
            "console_server_port_count",
            "dcim_consoleserverport",
            "power_port_count",
            "dcim_powerport",
            "power_outlet_count",
            "dcim_poweroutlet",
            "front_port_count",
            "dcim_frontport",
            "rear_port_count",
            "dcim_rearport",
            "device_bay_count",
            "dcim_devicebay",
            "inventory_item_count",
            "dcim_inventoryitem");

    /** Device type counter → template table. */
    private static final Map<String, String> TYPE_COUNTS = ordered(
            "console_port_template_count",
            "dcim_consoleporttemplate",
            "console_server_port_template_count",
            "dcim_consoleserverporttemplate",
            "power_port_template_count",
            "dcim_powerporttemplate",
            "power_outlet_template_count",
            "dcim_poweroutlettemplate",
            "interface_template_count",
            "dcim_interfacetemplate",
            "front_port_template_count",
            "dcim_frontporttemplate",
            "rear_port_template_count",
            "dcim_rearporttemplate",
            "device_bay_template_count",
            "dcim_devicebaytemplate",
            "inventory_item_template_count",
            "dcim_inventoryitemtemplate");

    /** "Has one" filter → component table (DeviceFilterSet's _console_ports and the like). */
    private static final Map<String, String> DEVICE_HAS = ordered(
            "console_ports",
            "dcim_consoleport",
            "console_server_ports",
            "dcim_consoleserverport",
            "power_ports",
            "dcim_powerport",
            "power_outlets",
            "dcim_poweroutlet",
            "device_bays",
            "dcim_devicebay");

    private static final Map<String, String> TYPE_HAS = ordered(
            "console_ports",
            "dcim_consoleporttemplate",
            "console_server_ports",
            "dcim_consoleserverporttemplate",
            "power_ports",
            "dcim_powerporttemplate",
            "power_outlets",
            "dcim_poweroutlettemplate",
            "interfaces",
            "dcim_interfacetemplate",
            "device_bays",
            "dcim_devicebaytemplate",
            "inventory_items",
            "dcim_inventoryitemtemplate");

    /** A device's component counters (module bays come with modules). */
    static Field[] deviceCounts() {
        return counters(DEVICE_COUNTS, "device_id");
    }

    /** A device type's template counters (module bay templates come with module types). */
    static Field[] deviceTypeCounts() {
        return counters(TYPE_COUNTS, "device_type_id");
    }

    static List<ExtraFilter> deviceFilters() {
        List<ExtraFilter> out = has(DEVICE_HAS, "device_id", "dcim_frontport", "dcim_rearport");
        out.add(ExtraFilters.each(
                        "parent_device_id",
                        Kind.INTEGER,
                        "{t}.id in (select installed_device_id from dcim_devicebay where device_id = ?)")
                .choicesFrom("dcim_device", "id"));
        out.add(ExtraFilters.each(
                        "parent_bay_id",
                        Kind.INTEGER,
                        "{t}.id in (select installed_device_id from dcim_devicebay where id = ?)")
                .choicesFrom("dcim_devicebay", "id"));
        return out;
    }

    static List<ExtraFilter> deviceTypeFilters() {
        return has(TYPE_HAS, "device_type_id", "dcim_frontporttemplate", "dcim_rearporttemplate");
    }

    /** A module type's "has one" template filters (module types hold no device bay or inventory item templates). */
    static List<ExtraFilter> moduleTypeFilters() {
        Map<String, String> tables = new LinkedHashMap<>(TYPE_HAS);
        tables.remove("device_bays");
        tables.remove("inventory_items");
        tables.put("module_bays", "dcim_modulebaytemplate");
        return has(tables, "module_type_id", "dcim_frontporttemplate", "dcim_rearporttemplate");
    }

    /**
     * A module type's modules and template counts, in NetBox's order (counted when read: module
     * types are few, and their lists rare).
     */
    static Field[] moduleTypeCounts() {
        Map<String, String> tables = new LinkedHashMap<>(TYPE_COUNTS);
        tables.remove("device_bay_template_count");
        tables.remove("inventory_item_template_count");
        tables.put("module_bay_template_count", "dcim_modulebaytemplate");
        List<Field> out = new ArrayList<>();
        out.add(count("module_count", "dcim_module", "module_type_id"));
        tables.forEach((name, table) -> out.add(count(name, table, "module_type_id")));
        return out.toArray(Field[]::new);
    }

    /**
     * A device's parent_device: the device whose bay it is installed in, and that bay, as NetBox
     * renders them (NestedDevice with a NestedDeviceBay); null when it sits in no bay. Selected
     * with the device (one indexed lookup) as {@code _parent_bay}.
     */
    static Model parentDevice(Model device) {
        return device.field(computed("parent_device", ComponentCounts::parentDevice))
                .select(
                        "_parent_bay",
                        "select json_build_object('bay', b.id, 'bay_name', b.name, 'bay_label', b.label,"
                                + " 'device', p.id, 'name', p.name, 'unnamed', m.name || ' ' || dt.model)"
                                + " from dcim_devicebay b join dcim_device p on p.id = b.device_id"
                                + " join dcim_devicetype dt on dt.id = p.device_type_id"
                                + " join dcim_manufacturer m on m.id = dt.manufacturer_id where b.installed_device_id = t.id");
    }

    private static Object parentDevice(org.sourceoftruth.records.model.Row row) {
        if (!(row.get("_parent_bay") instanceof JsonNode bay) || bay.isNull()) {
            return null;
        }
        long deviceId = bay.get("device").asLong();
        String name = bay.get("name").isNull() ? null : bay.get("name").asText();
        Map<String, Object> parent = new LinkedHashMap<>();
        parent.put("id", deviceId);
        parent.put("url", "/api/dcim/devices/" + deviceId + "/");
        parent.put("display_url", "/dcim/devices/" + deviceId + "/");
        parent.put("display", name != null ? name : bay.get("unnamed").asText() + " (" + deviceId + ")");
        parent.put("name", name);
        long bayId = bay.get("bay").asLong();
        String bayLabel = bay.get("bay_label").asText();
        Map<String, Object> deviceBay = new LinkedHashMap<>();
        deviceBay.put("id", bayId);
        deviceBay.put("url", "/api/dcim/device-bays/" + bayId + "/");
        deviceBay.put("display_url", "/dcim/device-bays/" + bayId + "/");
        deviceBay.put(
                "display",
                bayLabel.isEmpty()
                        ? bay.get("bay_name").asText()
                        : bay.get("bay_name").asText() + " (" + bayLabel + ")");
        deviceBay.put("device", new LinkedHashMap<>(parent));
        deviceBay.put("name", bay.get("bay_name").asText());
        parent.put("device_bay", deviceBay);
        return parent;
    }

    private static Field[] counters(Map<String, String> counts, String fk) {
        List<Field> out = new ArrayList<>();
        counts.forEach((name, table) -> out.add(count(name, table, fk).counterCache()));
        return out.toArray(Field[]::new);
    }

    /**
     * exists/not exists filters per component table, and pass_through_ports as NetBox's
     * {@code exclude(frontports__isnull=value, rearports__isnull=value)}: true keeps objects with
     * front or rear ports, false those lacking either.
     */
    private static List<ExtraFilter> has(Map<String, String> tables, String fk, String front, String rear) {
        List<ExtraFilter> out = new ArrayList<>();
        tables.forEach(
                (name, table) -> out.add(ExtraFilters.bool(name, exists(table, fk), "not " + exists(table, fk))));
        out.add(ExtraFilters.bool(
                "pass_through_ports",
                "(" + exists(front, fk) + " or " + exists(rear, fk) + ")",
                "not (" + exists(front, fk) + " and " + exists(rear, fk) + ")"));
        return out;
    }

    private static String exists(String table, String fk) {
        return "exists (select 1 from " + table + " c where c." + fk + " = {t}.id)";
    }

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
