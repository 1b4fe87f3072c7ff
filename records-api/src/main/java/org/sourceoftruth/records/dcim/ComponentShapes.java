package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.model.Declarations.naturalOrder;
import static org.sourceoftruth.records.model.Fields.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sourceoftruth.records.fieldtype.InvalidValue;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.model.WriteHook;

/**
 * The shapes NetBox's device components and their templates share, declared once:
 * <ul>
 * <li>{@link #component}: ComponentModel / ModularComponentModel (console and power ports,
 *     pass-through ports, device bays, inventory items; interfaces have their own declaration):
 *     the device (deleted with it, never moved to another one), the module that brought it
 *     (deleted with it), name and label,
 *     description, tags, custom fields and timestamps, the name unique per device, natural
 *     ordering by name, and the filters of NetBox's DeviceComponentFilterSet that are not derived
 *     from the device relation anyway;</li>
 * <li>{@link #cabled}: what CabledObjectModel (and PathEndpoint) add, cables being part 2;</li>
 * <li>{@link #template}: ComponentTemplateModel / ModularComponentTemplateModel: the device type
 *     or module type, name, label, description, timestamps, the name unique per device type and
 *     per module type.</li>
 * </ul>
 * Each model's declaration then adds only its own fields, rules and filters.
 */
public final class ComponentShapes {
    private ComponentShapes() {}

    /**
     * A device component at {@code /api/dcim/<path>/}, table {@code dcim_<model>}: device,
     * module (modular components), name, label,
     * {@code own} fields, description and NetBox's T block; it stays on its device, its name is
     * unique there, and it is listed by device and name.
     */
    public static Model component(String path, String contentType, String verbose, boolean modular, Field... own) {
        return componentOnDevice(path, contentType, verbose, modular, own)
                .hook(new StaysWith("device", "Components cannot be moved to a different device."))
                .unique(UniqueRule.of(
                        title(verbose) + " with this Device and Name already exists.", "device_id", "name"))
                .ordering("t.device_id")
                .ordering(naturalOrder("t.name"));
    }

    /**
     * {@link #component} without the rules that differ for inventory items (which may move to
     * another device, are unique per parent and listed as a tree).
     */
    public static Model componentOnDevice(
            String path, String contentType, String verbose, boolean modular, Field... own) {
        Model m = Model.of("dcim", path, contentType, table(contentType), verbose)
                .fields(fk("device", "dcim.device").required().cascade());
        if (modular) {
            // NetBox's components name their module with these fields, whatever the module's brief form
            m.fields(
                    fk("module", "dcim.module").cascade().nestedFields("id", "url", "display", "device", "module_bay"));
        }
        return m.fields(str("name").required().max(64), str("label").max(64).help("Physical label"))
                .fields(own)
                .fields(str("description").max(200))
                .standardTail()
                // DeviceComponentFilterSet: device_type by model, tenant through the device
                .relationFilter("device_type", "device.device_type", "model")
                .relationFilter("device_type_id", "device.device_type", "id")
                .relationFilter("tenant", "device.tenant", "slug")
                .relationFilter("tenant_id", "device.tenant", "id")
                .relationFilter("virtual_chassis", "device.virtual_chassis", "name")
                .relationFilter("virtual_chassis_id", "device.virtual_chassis", "id")
                .display(ComponentShapes::nameAndLabel)
                .search("t.name", "t.label", "t.description")
                .brief("device", "name", "description");
    }

    /**
     * CabledObjectModel's fields on a component (mark_connected, cable, cable end, link peers,
     * _occupied) and, for path endpoints, what the cable path reaches; both in brief form too.
     */
    public static Model cabled(Model component, boolean pathEndpoint) {
        component
                .fields(bool("mark_connected").dflt(false).help("Treat as if a cable is connected"))
                .fields(CabledFields.cabled(component.contentType()));
        if (pathEndpoint) {
            component.fields(CabledFields.pathEndpoint(component.contentType()));
        }
        CabledFields.filters(component, pathEndpoint);
        return component.brief("cable", "_occupied");
    }

    /**
     * A component template at {@code /api/dcim/<path>/}: device type (and module type for the
     * modular ones: exactly one of them, NetBox's ModularComponentTemplateModel.clean), name,
     * label, {@code own} fields, description, created and last_updated; no tags or custom
     * fields, no display_url (templates are ChangeLoggedModels, not NetBoxModels). It stays on
     * its device type, its name is unique there, and it is listed by device type and name.
     */
    public static Model template(String path, String contentType, String verbose, boolean modular, Field... own) {
        Model m = templateOnType(path, contentType, verbose, modular, own)
                .unique(UniqueRule.of(
                                title(verbose) + " with this Device type and Name already exists.",
                                "device_type_id",
                                "name")
                        .skipIfNull("device_type_id"))
                .ordering("t.device_type_id");
        if (modular) {
            m.unique(UniqueRule.of(
                                    title(verbose) + " with this Module type and Name already exists.",
                                    "module_type_id",
                                    "name")
                            .skipIfNull("module_type_id"))
                    .ordering("t.module_type_id");
        }
        return m.ordering(naturalOrder("t.name"));
    }

    /** {@link #template} without its uniqueness and ordering (inventory item templates are a tree). */
    public static Model templateOnType(String path, String contentType, String verbose, boolean modular, Field... own) {
        Field deviceType = fk("device_type", "dcim.devicetype").cascade();
        Model m = Model.of("dcim", path, contentType, table(contentType), verbose)
                .noDisplayUrl()
                .fields(modular ? deviceType : deviceType.required());
        if (modular) {
            m.fields(fk("module_type", "dcim.moduletype").cascade()).validator(ComponentShapes::deviceTypeOrModuleType);
        }
        return m.fields(str("name").required().max(64), str("label").max(64).help("Physical label"))
                .fields(own)
                .fields(str("description").max(200))
                .timestamps()
                .hook(new StaysWith("device_type", "Component templates cannot be moved to a different device type."))
                .display(ComponentShapes::nameAndLabel)
                .search("t.name", "t.label", "t.description")
                .brief("name", "description");
    }

    /**
     * The {@code type} filter of templates whose type choices come in groups: NetBox's filter
     * takes the choices' values, and its OpenAPI document lists the groups' names as the filter's
     * values, so a client generated from that document may send them: they are accepted and
     * match no template. {@code null} matches templates without a type; anything else is a 400.
     */
    public static ExtraFilter groupedTypeFilter(ChoiceSet types, List<String> groups) {
        return new ExtraFilter("type", Kind.STRING, (alias, values) -> {
            List<String> parts = new ArrayList<>();
            List<Object> params = new ArrayList<>();
            for (Object v : values) {
                String value = v.toString();
                if (value.equals("null")) {
                    parts.add(alias + ".type is null");
                } else if (types.contains(value)) {
                    parts.add(alias + ".type = ?");
                    params.add(value);
                } else if (groups.contains(value)) {
                    parts.add("false");
                } else {
                    throw new InvalidValue("Select a valid choice. " + value + " is not one of the available choices.");
                }
            }
            return new ExtraFilter.Sql(String.join(" or ", parts), params);
        });
    }

    /** NetBox's ModularComponentTemplateModel.clean: a device type or a module type, not both, not neither. */
    static void deviceTypeOrModuleType(Row row, Map<String, List<String>> errors) {
        boolean deviceType = row.get("device_type_id") != null;
        boolean moduleType = row.get("module_type_id") != null;
        if (deviceType && moduleType) {
            allErrors(errors)
                    .add("A component template cannot be associated with both a device type and a module type.");
        } else if (!deviceType && !moduleType) {
            allErrors(errors)
                    .add("A component template must be associated with either a device type or a module type.");
        }
    }

    /** NetBox's component display: "name (label)" when labelled. */
    static String nameAndLabel(Row r) {
        String label = r.str("label");
        return label == null || label.isEmpty() ? r.str("name") : r.str("name") + " (" + label + ")";
    }

    static List<String> allErrors(Map<String, List<String>> errors) {
        return errors.computeIfAbsent("__all__", k -> new ArrayList<>());
    }

    static void fieldError(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }

    /** "console port" → "Console port", as Django's unique-constraint messages name the model. */
    static String title(String verbose) {
        return Character.toUpperCase(verbose.charAt(0)) + verbose.substring(1);
    }

    /** dcim.consoleport → dcim_consoleport. */
    private static String table(String contentType) {
        return contentType.replace('.', '_');
    }

    /** A component (template) stays with the device (type) it was created on: ComponentModel.clean. */
    record StaysWith(String relation, String message) implements WriteHook {
        @Override
        public void beforeWrite(Row changes, Row existing, Map<String, List<String>> errors) {
            String column = relation + "_id";
            if (existing != null
                    && changes.containsKey(column)
                    && !Objects.equals(changes.longValue(column), existing.longValue(column))) {
                fieldError(errors, relation, message);
            }
        }
    }
}
