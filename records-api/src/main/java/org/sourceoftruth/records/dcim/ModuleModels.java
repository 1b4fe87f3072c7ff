package org.sourceoftruth.records.dcim;

import jakarta.enterprise.context.ApplicationScoped;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.model.WriteHook;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.sourceoftruth.records.dcim.DcimChoices.WEIGHT_UNIT;
import static org.sourceoftruth.records.model.Declarations.naturalOrder;
import static org.sourceoftruth.records.model.Fields.*;

/**
 * dcim modules: module type profiles (a JSON schema for module type attributes), module types,
 * modules installed in a device's module bays, the bays, and the bay templates of device and
 * module types. Installing a module makes its type's components on the device
 * ({@link Model#componentsFrom}), {@code {module}} resolved by {@link ModuleTokens}.
 */
@ApplicationScoped
public class ModuleModels implements ModelDefinition {
    static final ChoiceSet MODULE_STATUS = ChoiceSet.capitalised("offline", "active", "planned", "staged", "failed",
            "decommissioning");
    static final ChoiceSet MODULE_AIRFLOW = ChoiceSet.of("front-to-rear", "Front to rear", "rear-to-front",
            "Rear to front", "left-to-right", "Left to right", "right-to-left", "Right to left", "side-to-rear",
            "Side to rear", "passive", "Passive");

    @Override
    public List<Model> models() {
        Model profile = Model.of("dcim", "module-type-profiles", "dcim.moduletypeprofile", "dcim_moduletypeprofile",
                        "module type profile")
                .fields(str("name").required().max(100).unique(), str("description").max(200),
                        json("schema").nullable(), str("comments"))
                .standardTail()
                .validator(ModuleAttributes::profileSchema)
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "description");

        Model moduleType = Model.of("dcim", "module-types", "dcim.moduletype", "dcim_moduletype", "module type")
                .fields(fk("profile", "dcim.moduletypeprofile").protect(),
                        fk("manufacturer", "dcim.manufacturer").required().protect(), str("model").required().max(100),
                        str("part_number").max(50), choice("airflow", MODULE_AIRFLOW).nullable(),
                        decimal("weight").nullable().range(-999999, 999999), choice("weight_unit", WEIGHT_UNIT).nullable(),
                        str("description").max(200), json("attributes").column("attribute_data").nullable(),
                        str("comments"))
                .standardTail()
                .validator(DcimModels::unitsGiven)
                .hook(new AttributesNeedProfile())
                .check(ModuleAttributes::moduleTypeAttributes)
                .display(r -> r.str("model"))
                .unique(UniqueRule.of("Module type with this Manufacturer and Model already exists.",
                        "manufacturer_id", "model"))
                .ordering("t.profile_id nulls first", "t.manufacturer_id", "t.model")
                .search("t.model", "t.part_number", "t.description", "t.comments")
                .brief("profile", "manufacturer", "model", "description");

        Model moduleBay = component("module-bays", "dcim.modulebay", "dcim_modulebay", "module bay")
                .fields(fk("installed_module", "dcim.module").readOnly(), str("label").max(64),
                        str("position").max(30).help("Identifier to reference when renaming installed components"),
                        str("description").max(200))
                .standardTail()
                // NetBox's MPTT parent: the bay holding the module this bay belongs to
                .filter(ExtraFilters.each("parent_id", Kind.INTEGER,
                        "{t}.module_id in (select id from dcim_module where module_bay_id = ?)")
                        .choicesFrom("dcim_modulebay", "id"))
                .check(ModuleModels::notWithinItself)
                .unique(UniqueRule.of("Module bay with this Device, Module and Name already exists.",
                        "device_id", "module_id", "name"))
                .search("t.name", "t.label", "t.description", "t.position")
                .brief("display_url", "name");

        Model module = Model.of("dcim", "modules", "dcim.module", "dcim_module", "module")
                .fields(fk("device", "dcim.device").required().cascade(),
                        fk("module_bay", "dcim.modulebay").required().cascade().unique(),
                        fk("module_type", "dcim.moduletype").required().protect(),
                        choice("status", MODULE_STATUS).dflt("active"), str("serial").max(50),
                        str("asset_tag").max(50).nullable().unique().dflt(null)
                                .help("A unique tag used to identify this device"),
                        str("description").max(200), str("comments"))
                .standardTail()
                .componentsFrom("module_type", ModuleTokens::names, true)
                .check(ModuleModels::bayOfDevice)
                .relationFilter("manufacturer", "module_type.manufacturer", "slug")
                .relationFilter("manufacturer_id", "module_type.manufacturer", "id")
                .relationFilter("module_type", "module_type", "model")
                .select("_bay_name", "select b.name from dcim_modulebay b where b.id = t.module_bay_id")
                .select("_type_model", "select mt.model from dcim_moduletype mt where mt.id = t.module_type_id")
                .display(r -> r.str("_bay_name") + ": " + r.str("_type_model") + " (" + r.id() + ")")
                .ordering("t.module_bay_id")
                .search("t.serial", "t.asset_tag", "t.description", "t.comments")
                .brief("device", "module_bay");

        Model bayTemplate = template("module-bay-templates", "dcim.modulebaytemplate", "dcim_modulebaytemplate",
                "module bay template")
                .fields(str("position").max(30).help("Identifier to reference when renaming installed components"),
                        str("description").max(200))
                .timestamps()
                .instantiates("dcim.modulebay", "name", "label", "position")
                .search("t.name", "t.label", "t.description", "t.position")
                .brief("name", "description");

        return List.of(profile, moduleType, moduleBay, module, bayTemplate);
    }

    /**
     * A component of a device that a module may have brought (NetBox's ModularComponentModel):
     * device, module, name, and the device's filters.
     * TODO(unify): the same shape as ComponentShapes on branch components; merge into it.
     */
    static Model component(String path, String contentType, String table, String verbose) {
        return Model.of("dcim", path, contentType, table, verbose)
                .fields(fk("device", "dcim.device").required().cascade(), fk("module", "dcim.module").cascade(),
                        str("name").required().max(64))
                .relationFilter("device_type", "device.device_type", "model")
                .relationFilter("device_type_id", "device.device_type", "id")
                .relationFilter("tenant", "device.tenant", "slug")
                .relationFilter("tenant_id", "device.tenant", "id")
                .display(r -> r.str("label") == null || r.str("label").isEmpty() ? r.str("name")
                        : r.str("name") + " (" + r.str("label") + ")")
                .ordering("t.device_id")
                .ordering(naturalOrder("t.name"));
    }

    /**
     * A component template of a device type or a module type, exactly one of them (NetBox's
     * ModularComponentTemplateModel): name and label unique per type, with NetBox's messages.
     */
    static Model template(String path, String contentType, String table, String verbose) {
        String title = Character.toUpperCase(verbose.charAt(0)) + verbose.substring(1);
        return Model.of("dcim", path, contentType, table, verbose)
                .noDisplayUrl()
                .fields(fk("device_type", "dcim.devicetype").cascade(), fk("module_type", "dcim.moduletype").cascade(),
                        str("name").required().max(64).help("{module} is accepted as a substitution for the module bay"
                                + " position when attached to a module type."),
                        str("label").max(64).help("Physical label"))
                .validator(ModuleModels::oneType)
                .unique(UniqueRule.of(title + " with this Device type and Name already exists.", "device_type_id", "name")
                        .skipIfNull("device_type_id"))
                .unique(UniqueRule.of(title + " with this Module type and Name already exists.", "module_type_id", "name")
                        .skipIfNull("module_type_id"))
                .display(r -> r.str("label") == null || r.str("label").isEmpty() ? r.str("name")
                        : r.str("name") + " (" + r.str("label") + ")")
                .ordering("t.device_type_id nulls first", "t.module_type_id nulls first")
                .ordering(naturalOrder("t.name"));
    }

    /** ModularComponentTemplateModel.clean: a device type or a module type, not both, not neither. */
    static void oneType(Row row, Map<String, List<String>> errors) {
        boolean deviceType = row.get("device_type_id") != null;
        boolean moduleType = row.get("module_type_id") != null;
        if (deviceType == moduleType) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>()).add(deviceType
                    ? "A component template cannot be associated with both a device type and a module type."
                    : "A component template must be associated with either a device type or a module type.");
        }
    }

    /** Module.clean: the bay must be one of the device's. */
    static void bayOfDevice(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long bay = row.longValue("module_bay_id");
        Long device = row.longValue("device_id");
        if (bay == null || device == null) {
            return;
        }
        List<Row> found = db.query("select b.device_id, d.name, (select m.name || ' ' || dt.model from dcim_devicetype dt"
                + " join dcim_manufacturer m on m.id = dt.manufacturer_id where dt.id = d.device_type_id) as unnamed"
                + " from dcim_modulebay b, dcim_device d where b.id = ? and d.id = ?", bay, device);
        if (!found.isEmpty() && !device.equals(found.get(0).longValue("device_id"))) {
            Row r = found.get(0);
            String name = r.str("name") != null ? r.str("name") : r.str("unnamed") + " (" + device + ")";
            errors.computeIfAbsent("__all__", k -> new ArrayList<>()).add(
                    "Module must be installed within a module bay belonging to the assigned device (" + name + ").");
        }
    }

    /** ModuleBay.clean's recursion check: a bay may not belong to the module installed in it or below it. */
    static void notWithinItself(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long module = row.longValue("module_id");
        if (module != null && selfId != null && !db.query("with recursive up(bay_id, depth) as (select module_bay_id, 0 from dcim_module"
                + " where id = ? union all select m.module_bay_id, u.depth + 1 from up u join dcim_modulebay b"
                + " on b.id = u.bay_id join dcim_module m on m.id = b.module_id where u.depth < 64)"
                + " select 1 from up where bay_id = ?", module, selfId).isEmpty()) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add("A module bay cannot belong to a module installed within it.");
        }
    }

    /** ModuleType.clean: without a profile there are no attributes. */
    static final class AttributesNeedProfile implements WriteHook {
        @Override
        public void beforeWrite(Row changes, Row existing, Map<String, List<String>> errors) {
            boolean profileSet = changes.containsKey("profile_id") ? changes.get("profile_id") != null
                    : existing != null && existing.get("profile_id") != null;
            if (!profileSet && (changes.containsKey("attribute_data") || existing != null
                    && existing.get("attribute_data") != null)) {
                changes.put("attribute_data", null);
            }
        }
    }
}
