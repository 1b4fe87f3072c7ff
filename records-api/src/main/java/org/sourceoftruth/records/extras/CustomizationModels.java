package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.engine.customfields.ChoiceSetChoices;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * extras: custom links (templated links shown on objects of their types) and custom field choice
 * sets (the choices of select and multiselect custom fields, see {@link ChoiceSetChoices}).
 */
@ApplicationScoped
public class CustomizationModels implements ModelDefinition {
    public static final ChoiceSet BUTTON_CLASS = ChoiceSet.of(
            "default",
            "Default",
            "blue",
            "Blue",
            "indigo",
            "Indigo",
            "purple",
            "Purple",
            "pink",
            "Pink",
            "red",
            "Red",
            "orange",
            "Orange",
            "yellow",
            "Yellow",
            "green",
            "Green",
            "teal",
            "Teal",
            "cyan",
            "Cyan",
            "gray",
            "Gray",
            "black",
            "Black",
            "white",
            "White",
            "ghost-dark",
            "Link");
    public static final ChoiceSet BASE_CHOICES = ChoiceSet.of(
            "IATA",
            "IATA (Airport codes)",
            "ISO_3166",
            "ISO 3166 (Country codes)",
            "UN_LOCODE",
            "UN/LOCODE (Location codes)");

    @Inject
    Instance<ModelRegistry> registry;

    @Override
    public List<Model> models() {
        Model customLink = Model.of("extras", "custom-links", "custom link")
                .fields(
                        stringList("object_types").required().objectTypeIds(),
                        str("name").required().max(100).unique(),
                        bool("enabled").dflt(true),
                        str("link_text").required().help("Jinja2 template code for link text"),
                        str("link_url").required().help("Jinja2 template code for link URL"),
                        integer("weight").range(0, 32767).dflt(100),
                        str("group_name").max(50).help("Links with the same group will appear as a dropdown menu"),
                        plainChoice("button_class", BUTTON_CLASS)
                                .dflt("default")
                                .help("The class of the first link in a group will be used for the dropdown button"),
                        bool("new_window").dflt(false).help("Force link to open in a new window"))
                .timestamps()
                .validator((row, errors) -> ExtrasModels.knownObjectTypes(registry.get(), row, errors))
                .ordering("t.group_name", "t.weight", "t.name")
                .search("t.name", "t.link_text", "t.link_url")
                .brief("name");

        Model choiceSet = Model.of(
                        "extras",
                        "custom-field-choice-sets",
                        "extras.customfieldchoiceset",
                        SystemTables.EXTRAS_CUSTOMFIELDCHOICESET,
                        "custom field choice set")
                .fields(
                        str("name").required().max(100).unique(),
                        str("description").max(200),
                        choice("base_choices", BASE_CHOICES)
                                .nullable()
                                .help("Base set of predefined choices (optional)"),
                        // NetBox's serializer requires the list (empty where base choices suffice)
                        json("extra_choices").required(),
                        json("choice_colors").dflt(java.util.Map.of()).help("Colors of the choices, by value"),
                        bool("order_alphabetically")
                                .dflt(false)
                                .help("Choices are automatically ordered alphabetically"),
                        computed("choices_count", CustomizationModels::choicesCount)
                                .renders(Kind.INTEGER))
                .timestamps()
                .validator(CustomizationModels::choiceSetRules)
                // NetBox's filter_by_choice: a value or a label among the extra choices
                .filter(ExtraFilters.each(
                        "choice",
                        Kind.STRING,
                        "exists (select 1 from jsonb_array_elements("
                                + "case when jsonb_typeof({t}.extra_choices) = 'array' then {t}.extra_choices else '[]' end) p,"
                                + " jsonb_array_elements_text(case when jsonb_typeof(p) = 'array' then p else '[]' end) v"
                                + " where v = ?)"))
                // NetBox 4.6's filter_by_choice_colors: some choice has one of the colours
                .filter(ExtraFilters.each(
                        "choice_colors",
                        Kind.STRING,
                        "exists (select 1 from jsonb_each_text(case when jsonb_typeof({t}.choice_colors) = 'object'"
                                + " then {t}.choice_colors else '{}' end) c where c.value = ?)",
                        CustomizationModels::namedColor))
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description", "choices_count");
        return List.of(customLink, choiceSet);
    }

    private static Object choicesCount(Row row) {
        return ChoiceSetChoices.of(row.str("base_choices"), (JsonNode) row.get("extra_choices"), false)
                .size();
    }

    /**
     * NetBox's CustomFieldChoiceSet.clean and serializer: base or extra choices, each extra choice
     * a [value, label] pair. The IATA and UN/LOCODE lists are not bundled here, so a set cannot
     * be based on them (rather than seem to accept values it cannot check).
     */
    private static void choiceSetRules(Row row, Map<String, List<String>> errors) {
        String base = row.str("base_choices");
        Object extra = row.get("extra_choices");
        JsonNode extras = extra instanceof JsonNode n && !n.isNull() ? n : null;
        if (extras != null) {
            boolean pairs = extras.isArray();
            for (JsonNode pair : extras) {
                pairs &= pair.isArray()
                        && pair.size() == 2
                        && pair.get(0).isValueNode()
                        && pair.get(1).isValueNode()
                        && !pair.get(0).isNull()
                        && !pair.get(1).isNull();
            }
            if (!pairs) {
                add(errors, "extra_choices", "Each choice must be a list of a value and a label, e.g. [\"a\", \"A\"].");
            }
        }
        if ((base == null || base.isEmpty()) && (extras == null || extras.isEmpty())) {
            add(errors, "__all__", "Must define base or extra choices.");
        }
        if (base != null && !base.isEmpty() && !ChoiceSetChoices.ISO_3166.equals(base)) {
            add(
                    errors,
                    "base_choices",
                    "The " + BASE_CHOICES.label(base) + " list is not available on this server; use extra choices.");
        }
        choiceColors(row, base, extras, errors);
    }

    /** A filter value that must be one of {@link #CHOICE_COLORS} (NetBox's MultipleChoiceFilter). */
    private static Object namedColor(Object value) {
        if (!CHOICE_COLORS.contains(String.valueOf(value))) {
            throw new org.sourceoftruth.records.fieldtype.InvalidValue(
                    "Select a valid choice. " + value + " is not one of the available choices.");
        }
        return value;
    }

    /** NetBox's named colors a choice may take (CustomFieldChoiceColorChoices). */
    public static final List<String> CHOICE_COLORS = List.of(
            "blue", "indigo", "purple", "pink", "red", "orange", "yellow", "green", "teal", "cyan", "gray", "black",
            "white");

    /** NetBox 4.6's CustomFieldChoiceSet.clean of choice_colors: an object of choice value to named color. */
    private static void choiceColors(Row row, String base, JsonNode extras, Map<String, List<String>> errors) {
        Object value = row.get("choice_colors");
        if (!(value instanceof JsonNode colors) || colors.isNull()) {
            return;
        }
        if (!colors.isObject()) {
            add(errors, "choice_colors", "Color mappings must be defined as a JSON object.");
            return;
        }
        List<String> values = ChoiceSetChoices.values(base, extras);
        java.util.TreeSet<String> unknownValues = new java.util.TreeSet<>();
        java.util.TreeSet<String> unknownColors = new java.util.TreeSet<>();
        colors.fields().forEachRemaining(e -> {
            if (!values.contains(e.getKey())) {
                unknownValues.add(e.getKey());
            }
            if (!e.getValue().isTextual()
                    || !CHOICE_COLORS.contains(e.getValue().asText())) {
                unknownColors.add(
                        e.getValue().isTextual()
                                ? e.getValue().asText()
                                : e.getValue().toString());
            }
        });
        if (!unknownValues.isEmpty()) {
            add(
                    errors,
                    "choice_colors",
                    "Color mappings must reference an existing choice value. Invalid value(s): "
                            + String.join(", ", unknownValues) + ".");
        } else if (!unknownColors.isEmpty()) {
            add(
                    errors,
                    "choice_colors",
                    "Invalid color value(s): " + String.join(", ", unknownColors) + ". Use a supported named color.");
        }
    }

    private static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }
}
