package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Declarations.COLOR;
import static org.sourceoftruth.records.model.Declarations.COLOR_MESSAGE;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.JsonSchemaRules;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.model.UniqueRule;

/** extras: tags and custom fields. */
@ApplicationScoped
public class ExtrasModels implements ModelDefinition {
    public static final ChoiceSet CUSTOM_FIELD_TYPE = ChoiceSet.of(
            "text",
            "Text",
            "longtext",
            "Text (long)",
            "integer",
            "Integer",
            "decimal",
            "Decimal",
            "boolean",
            "Boolean (true/false)",
            "date",
            "Date",
            "datetime",
            "Date & time",
            "url",
            "URL",
            "json",
            "JSON",
            "select",
            "Selection",
            "multiselect",
            "Multiple selection",
            "object",
            "Object",
            "multiobject",
            "Multiple objects");
    public static final ChoiceSet FILTER_LOGIC =
            ChoiceSet.of("disabled", "Disabled", "loose", "Loose", "exact", "Exact");
    public static final ChoiceSet UI_VISIBLE = ChoiceSet.of("always", "Always", "if-set", "If set", "hidden", "Hidden");
    public static final ChoiceSet UI_EDITABLE = ChoiceSet.of("yes", "Yes", "no", "No", "hidden", "Hidden");

    /** Object types that carry tags: the journaled ones and the other models with NetBox's TagsMixin. */
    static final List<String> TAGGABLE = java.util.stream.Stream.concat(
                    JournalModels.JOURNALED.stream(),
                    java.util.stream.Stream.of(
                            "extras.webhook",
                            "extras.eventrule",
                            "extras.journalentry",
                            "extras.configtemplate",
                            "extras.configcontext",
                            "extras.configcontextprofile",
                            "tenancy.contactassignment",
                            "circuits.circuitgroupassignment",
                            "ipam.fhrpgroupassignment"))
            .toList();

    /** The registry is looked up lazily: it is built from this bean, among others. */
    @Inject
    Instance<ModelRegistry> registry;

    @Override
    public List<Model> models() {
        Model tag = Model.of("extras", "tags", "extras.tag", SystemTables.EXTRAS_TAG, "tag")
                .fields(
                        str("name").required().max(100).unique(),
                        slug("slug").unique(),
                        str("color").max(6).dflt("9e9e9e").pattern(COLOR, COLOR_MESSAGE),
                        str("description").max(200),
                        integer("weight").range(0, 32767).dflt(1000),
                        stringList("object_types").objectTypeIds(),
                        count("tagged_items", SystemTables.EXTRAS_TAGGEDITEM, "tag_id"))
                .timestamps()
                .validator(this::knownObjectTypes)
                // NetBox's TagFilterSet: tags in use on objects of a type, by name or by object-type id
                // (no ids are published here, so an id matches no type), and tags a type may use
                .filter(ExtraFilters.each(
                        "content_type",
                        Kind.STRING,
                        "{t}.id in (select ti.tag_id from " + SystemTables.EXTRAS_TAGGEDITEM
                                + " ti where ti.object_type = ?)",
                        v -> v.toString().toLowerCase(java.util.Locale.ROOT)))
                .filter(ExtraFilters.each("content_type_id", Kind.INTEGER, "false"))
                .filter(ExtraFilters.each(
                        "for_object_type_id", Kind.INTEGER, "coalesce(cardinality({t}.object_types), 0) = 0"))
                .ordering("t.weight", "t.name")
                .search("t.name", "t.slug", "t.color", "t.description")
                .brief("name", "slug", "color", "description");

        Model customField = Model.of(
                        "extras",
                        "custom-fields",
                        "extras.customfield",
                        SystemTables.EXTRAS_CUSTOMFIELD,
                        "custom field")
                .fields(
                        stringList("object_types").required().objectTypeIds(),
                        choice("type", CUSTOM_FIELD_TYPE).dflt("text"),
                        str("related_object_type")
                                .max(100)
                                .nullable()
                                .dflt(null)
                                .objectTypeIds(),
                        str("name")
                                .required()
                                .max(50)
                                .unique()
                                .pattern(
                                        "^[A-Za-z0-9_]+$", "Only alphanumeric characters and underscores are allowed."),
                        str("label").max(50),
                        str("group_name").max(50),
                        str("description").max(200),
                        bool("required").dflt(false),
                        bool("unique").dflt(false),
                        integer("search_weight").min(0).dflt(1000),
                        choice("filter_logic", FILTER_LOGIC).dflt("loose"),
                        choice("ui_visible", UI_VISIBLE).dflt("always"),
                        choice("ui_editable", UI_EDITABLE).dflt("yes"),
                        bool("is_cloneable").dflt(false),
                        json("default").nullable(),
                        integer("weight").min(0).dflt(100),
                        decimal("validation_minimum").nullable(),
                        decimal("validation_maximum").nullable(),
                        str("validation_regex").max(500),
                        json("validation_schema")
                                .nullable()
                                .help("A JSON schema definition for validating the custom field value"),
                        stringList("choices")
                                .nullable()
                                .dflt(null)
                                .help("Choices of select/multiselect fields without a choice set (before NetBox 3.6)."),
                        str("comments"),
                        computed("data_type", ExtrasModels::dataType),
                        json("related_object_filter").nullable(),
                        fk("choice_set", "extras.customfieldchoiceset").protect())
                .timestamps()
                .unique(UniqueRule.of("Custom field names must be unique.", "name")
                        .ignoreCase("name"))
                .validator(this::knownObjectTypes)
                .validator(ExtrasModels::customFieldRules)
                .display(r -> r.str("label") == null || r.str("label").isEmpty() ? r.str("name") : r.str("label"))
                .ordering("t.group_name", "t.weight", "t.name")
                .search("t.name", "t.label", "t.description")
                .brief("name", "description");
        // NetBox's TaggedItem: read-only, one row per tag on an object (rows come and go with the
        // objects' tags, as the engine writes them)
        Model taggedItem = Model.of(
                        "extras", "tagged-objects", "extras.taggeditem", SystemTables.EXTRAS_TAGGEDITEM, "tagged item")
                .noDisplayUrl()
                .readOnlyApi()
                .fields(
                        genericFk("object", "object_type", "object_id", TAGGABLE)
                                .detached()
                                .objectTypeIds(),
                        fk("tag", "extras.tag").detached())
                .select("_tag", "select g.name from " + SystemTables.EXTRAS_TAG + " g where g.id = t.tag_id")
                .display(r -> r.str("object_type") + " " + r.str("object_id") + " tagged with " + r.str("_tag"))
                .ordering("t.id")
                // the tag's name and slug, and the display text
                .search(
                        "(select g.name from " + SystemTables.EXTRAS_TAG + " g where g.id = t.tag_id)",
                        "(select g.slug from " + SystemTables.EXTRAS_TAG + " g where g.id = t.tag_id)",
                        "(select t.object_type || ' ' || t.object_id || ' tagged with ' || g.name from "
                                + SystemTables.EXTRAS_TAG + " g" + " where g.id = t.tag_id)")
                .briefExactly("object_type", "object_id", "object", "tag");
        return List.of(tag, customField, taggedItem);
    }

    private void knownObjectTypes(Row row, Map<String, List<String>> errors) {
        knownObjectTypes(registry.get(), row, errors);
    }

    /** Every entry of {@code object_types} names a model NetBox has ("Invalid content type: x" otherwise). */
    @SuppressWarnings("unchecked")
    static void knownObjectTypes(ModelRegistry registry, Row row, Map<String, List<String>> errors) {
        Object types = row.get("object_types");
        if (!(types instanceof List<?> list)) {
            return;
        }
        List<String> bad = new ArrayList<>();
        for (Object t : (List<Object>) list) {
            if (registry.byContentType(String.valueOf(t)).isEmpty()) {
                bad.add("Invalid content type: " + t);
            }
        }
        if (!bad.isEmpty()) {
            errors.computeIfAbsent("object_types", k -> new ArrayList<>()).addAll(bad);
        }
    }

    private static void customFieldRules(Row row, Map<String, List<String>> errors) {
        String type = row.str("type");
        Object choices = row.get("choices");
        boolean selectable = "select".equals(type) || "multiselect".equals(type);
        boolean listed = choices instanceof List<?> l && !l.isEmpty();
        if (selectable && row.get("choice_set_id") == null && !listed) {
            errors.computeIfAbsent("choice_set", k -> new ArrayList<>())
                    .add("Selection fields must specify a set of choices.");
        }
        if (!selectable && row.get("choice_set_id") != null) {
            errors.computeIfAbsent("choice_set", k -> new ArrayList<>())
                    .add("Choices may be set only on selection fields.");
        }
        if (("object".equals(type) || "multiobject".equals(type)) && row.get("related_object_type") == null) {
            errors.computeIfAbsent("related_object_type", k -> new ArrayList<>())
                    .add("Object fields must define an object type.");
        }
        Object filter = row.get("related_object_filter");
        if (filter != null
                && !(filter instanceof com.fasterxml.jackson.databind.JsonNode n && n.isNull())
                && !"object".equals(type)
                && !"multiobject".equals(type)) {
            errors.computeIfAbsent("related_object_filter", k -> new ArrayList<>())
                    .add("A related object filter can be defined only for object fields.");
        }
        if (row.get("validation_schema") instanceof com.fasterxml.jackson.databind.JsonNode schema
                && !schema.isNull()
                && !(schema.isTextual() && schema.asText().isEmpty())) {
            String problem = JsonSchemaRules.definitionProblemOf(schema);
            if (problem != null) {
                errors.computeIfAbsent("validation_schema", k -> new ArrayList<>())
                        .add(problem);
            } else if (!"json".equals(type) && !schema.isEmpty()) {
                errors.computeIfAbsent("validation_schema", k -> new ArrayList<>())
                        .add("JSON schema validation is supported only for JSON fields");
            }
        }
    }

    /** The JSON type of the field's values, as NetBox's CustomFieldSerializer.get_data_type names it. */
    private static String dataType(Row row) {
        return switch (String.valueOf(row.str("type"))) {
            case "integer" -> "integer";
            case "decimal" -> "decimal";
            case "boolean" -> "boolean";
            case "json", "object" -> "object";
            case "multiselect", "multiobject" -> "array";
            default -> "string";
        };
    }
}
