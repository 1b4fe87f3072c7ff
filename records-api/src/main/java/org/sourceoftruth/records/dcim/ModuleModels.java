package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.DcimChoices.WEIGHT_UNIT;
import static org.sourceoftruth.records.model.Declarations.naturalOrder;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.model.WriteHook;

/**
 * dcim modules: module type profiles (a JSON schema for module type attributes), module types,
 * modules installed in a device's module bays, the bays, and the bay templates of device and
 * module types. Installing a module makes its type's components on the device
 * ({@link Model#componentsFrom}), {@code {module}} resolved by {@link ModuleTokens}.
 */
@ApplicationScoped
public class ModuleModels implements ModelDefinition {
    static final ChoiceSet MODULE_STATUS =
            ChoiceSet.capitalised("offline", "active", "planned", "staged", "failed", "decommissioning");
    static final ChoiceSet MODULE_AIRFLOW = ChoiceSet.of(
            "front-to-rear",
            "Front to rear",
            "rear-to-front",
            "Rear to front",
            "left-to-right",
            "Left to right",
            "right-to-left",
            "Right to left",
            "side-to-rear",
            "Side to rear",
            "passive",
            "Passive");

    @Override
    public List<Model> models() {
        Model profile = Model.of("dcim", "module-type-profiles", "module type profile")
                .fields(
                        str("name").required().max(100).unique(),
                                str("description").max(200),
                        json("schema").nullable(), str("comments"))
                .standardTail()
                .validator(ModuleAttributes::profileSchema)
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "description");

        Model moduleType = Model.of("dcim", "module-types", "module type")
                .fields(
                        fk("profile", "dcim.moduletypeprofile").protect(),
                        fk("manufacturer", "dcim.manufacturer").required().protect(),
                        str("model").required().max(100),
                        str("part_number").max(50),
                        choice("airflow", MODULE_AIRFLOW).nullable(),
                        decimal("weight").nullable().range(-999999, 999999),
                        choice("weight_unit", WEIGHT_UNIT).nullable(),
                        str("description").max(200),
                        json("attributes").column("attribute_data").nullable(),
                        str("comments"))
                .standardTail()
                .fields(ComponentCounts.moduleTypeCounts())
                .validator(RackModels::unitsGiven)
                .filters(ComponentCounts.moduleTypeFilters())
                .hook(new AttributesNeedProfile())
                .check(ModuleAttributes::moduleTypeAttributes)
                .display(r -> r.str("model"))
                .unique(UniqueRule.of(
                        "Module type with this Manufacturer and Model already exists.", "manufacturer_id", "model"))
                .ordering("t.profile_id nulls first", "t.manufacturer_id", "t.model")
                .search("t.model", "t.part_number", "t.description", "t.comments")
                .brief("profile", "manufacturer", "model", "description", "module_count");

        Model moduleBay = ComponentShapes.componentOnDevice(
                        "module-bays",
                        "dcim.modulebay",
                        "module bay",
                        true,
                        str("position").max(30).help("Identifier to reference when renaming installed components"),
                        bool("enabled").dflt(true))
                .fieldBefore(
                        fk("installed_module", "dcim.module")
                                .readOnly()
                                .nestedFields("id", "url", "display", "device", "module_bay"),
                        "tags")
                // NetBox's ModuleBay._occupied: disabled, or holding a module
                .fields(computed(
                                "_occupied",
                                r -> !Boolean.TRUE.equals(r.get("enabled")) || r.get("installed_module_id") != null)
                        .renders(Kind.BOOLEAN))
                .hook(new ComponentShapes.StaysWith("device", "Components cannot be moved to a different device."))
                // NetBox's MPTT parent: the bay holding the module this bay belongs to
                .filter(ExtraFilters.each(
                                "parent_id",
                                Kind.INTEGER,
                                "{t}.module_id in (select id from dcim_module where module_bay_id = ?)")
                        .choicesFrom("dcim_modulebay", "id"))
                .check(ModuleModels::notWithinItself)
                .unique(UniqueRule.of(
                        "Module bay with this Device, Module and Name already exists.",
                        "device_id",
                        "module_id",
                        "name"))
                .ordering("t.device_id")
                .ordering(naturalOrder("t.name"))
                .search("t.position")
                .briefExactly("display_url", "installed_module", "name", "enabled", "description", "_occupied");

        Model module = Model.of("dcim", "modules", "module")
                .fields(
                        fk("device", "dcim.device").required().cascade(),
                        fk("module_bay", "dcim.modulebay")
                                .required()
                                .cascade()
                                .unique()
                                .nestedFields("id", "url", "display_url", "display", "name"),
                        fk("module_type", "dcim.moduletype").required().protect(),
                        choice("status", MODULE_STATUS).dflt("active"),
                        str("serial").max(50),
                        str("asset_tag")
                                .max(50)
                                .nullable()
                                .unique()
                                .dflt(null)
                                .help("A unique tag used to identify this device"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .componentsFrom("module_type", ModuleTokens::names, true)
                .check(ModuleModels::bayOfDevice)
                .relationFilter("manufacturer", "module_type.manufacturer", "slug")
                .relationFilter("manufacturer_id", "module_type.manufacturer", "id")
                .relationFilter("module_type", "module_type", "model")
                .relationFilter("profile", "module_type.profile", "name")
                .relationFilter("profile_id", "module_type.profile", "id")
                .select("_bay_name", "select b.name from dcim_modulebay b where b.id = t.module_bay_id")
                .select("_type_model", "select mt.model from dcim_moduletype mt where mt.id = t.module_type_id")
                .display(r -> r.str("_bay_name") + ": " + r.str("_type_model") + " (" + r.id() + ")")
                .ordering("t.module_bay_id")
                .search("t.serial", "t.asset_tag", "t.description", "t.comments")
                .brief("device", "module_bay", "module_type", "description");

        Model bayTemplate = ComponentShapes.template(
                        "module-bay-templates",
                        "dcim.modulebaytemplate",
                        "module bay template",
                        true,
                        str("position").max(30).help("Identifier to reference when renaming installed components"),
                        bool("enabled").dflt(true))
                .instantiates("dcim.modulebay", "name", "label", "position", "enabled")
                .brief("enabled")
                .search("t.position");

        return List.of(profile, moduleType, moduleBay, module, bayTemplate);
    }

    /** Module.clean: the bay must be one of the device's. */
    static void bayOfDevice(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long bay = row.longValue("module_bay_id");
        Long device = row.longValue("device_id");
        if (bay == null || device == null) {
            return;
        }
        List<Row> found = db.query(
                "select b.device_id, b.enabled, d.name, (select m.name || ' ' || dt.model from dcim_devicetype dt"
                        + " join dcim_manufacturer m on m.id = dt.manufacturer_id where dt.id = d.device_type_id) as unnamed,"
                        + " (select m.module_bay_id from dcim_module m where m.id = ?) as stored_bay"
                        + " from dcim_modulebay b, dcim_device d where b.id = ? and d.id = ?",
                selfId == null ? -1L : selfId,
                bay,
                device);
        if (!found.isEmpty() && !device.equals(found.get(0).longValue("device_id"))) {
            Row r = found.get(0);
            String name = r.str("name") != null ? r.str("name") : r.str("unnamed") + " (" + device + ")";
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add("Module must be installed within a module bay belonging to the assigned device (" + name
                            + ").");
        } else if (!found.isEmpty()
                && !Boolean.TRUE.equals(found.get(0).get("enabled"))
                && !bay.equals(found.get(0).longValue("stored_bay"))) {
            // a module installed before its bay was disabled may stay
            errors.computeIfAbsent("module_bay", k -> new ArrayList<>())
                    .add("Cannot install a module in a disabled module bay.");
        }
    }

    /** ModuleBay.clean's recursion check: a bay may not belong to the module installed in it or below it. */
    static void notWithinItself(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long module = row.longValue("module_id");
        if (module != null
                && selfId != null
                && !db.query(
                                "with recursive up(bay_id, depth) as (select module_bay_id, 0 from dcim_module"
                                        + " where id = ? union all select m.module_bay_id, u.depth + 1 from up u join dcim_modulebay b"
                                        + " on b.id = u.bay_id join dcim_module m on m.id = b.module_id where u.depth < 64)"
                                        + " select 1 from up where bay_id = ?",
                                module,
                                selfId)
                        .isEmpty()) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add("A module bay cannot belong to a module installed within it.");
        }
    }

    /** ModuleType.clean: without a profile there are no attributes. */
    static final class AttributesNeedProfile implements WriteHook {
        @Override
        public void beforeWrite(Row changes, Row existing, Map<String, List<String>> errors) {
            boolean profileSet = changes.containsKey("profile_id")
                    ? changes.get("profile_id") != null
                    : existing != null && existing.get("profile_id") != null;
            if (!profileSet
                    && (changes.containsKey("attribute_data")
                            || existing != null && existing.get("attribute_data") != null)) {
                changes.put("attribute_data", null);
            }
        }
    }
}
