package org.sourceoftruth.records.engine.customfields;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import org.sourceoftruth.records.model.Row;

/**
 * One row of extras_customfield, as the engine needs it to render, validate and filter. A select
 * field's choices are its choice set's (NetBox 4), else the list it holds itself (kept for fields
 * made before choice sets were served).
 */
public record CustomFieldDef(
        long id,
        String name,
        String type,
        String relatedObjectType,
        boolean required,
        boolean unique,
        String filterLogic,
        JsonNode defaultValue,
        BigDecimal validationMinimum,
        BigDecimal validationMaximum,
        String validationRegex,
        JsonNode validationSchema,
        List<String> choices) {

    @SuppressWarnings("unchecked")
    static CustomFieldDef from(Row r) {
        return new CustomFieldDef(
                r.id(),
                r.str("name"),
                r.str("type"),
                r.str("related_object_type"),
                Boolean.TRUE.equals(r.get("required")),
                Boolean.TRUE.equals(r.get("unique")),
                r.str("filter_logic"),
                (JsonNode) r.get("default"),
                r.decimal("validation_minimum"),
                r.decimal("validation_maximum"),
                r.str("validation_regex"),
                (JsonNode) r.get("validation_schema"),
                r.get("choice_set_id") != null
                        ? ChoiceSetChoices.values(r.str("set_base_choices"), (JsonNode) r.get("set_extra_choices"))
                        : (List<String>) r.get("choices"));
    }
}
