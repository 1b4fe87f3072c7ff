package org.sourceoftruth.records.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.fieldtype.FieldTypes;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;

/** DRF's SimpleMetadata answer to OPTIONS, from the model declaration. */
@ApplicationScoped
public class OptionsWriter {

    public ObjectNode describe(Model model, String suffix, boolean canWrite) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("name", model.titleName() + " " + suffix);
        root.put("description", "");
        root.putArray("renders").add("application/json").add("text/html");
        root.putArray("parses").add("application/json").add("multipart/form-data");
        if (canWrite) {
            ObjectNode actions = root.putObject("actions");
            ObjectNode fields = fields(model);
            actions.set("POST", fields);
            actions.set("PUT", fields.deepCopy());
        }
        return root;
    }

    private ObjectNode fields(Model model) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        for (Field f : model.fields()) {
            if (f.isWriteOnly() && !f.isWritable()) {
                continue;
            }
            ObjectNode d = out.putObject(f.name);
            d.put("type", FieldTypes.of(f).optionsType());
            d.put("required", f.isRequired() && f.isWritable());
            d.put("read_only", !f.isWritable());
            d.put("label", f.label());
            if (f.helpText() != null) {
                d.put("help_text", f.helpText());
            }
            if (f.maxLength() != null) {
                d.put("max_length", f.maxLength());
            }
            if (f.minValue() != null) {
                d.put("min_value", f.minValue());
            }
            if (f.maxValue() != null) {
                d.put("max_value", f.maxValue());
            }
            if (f.choices() != null && f.isWritable()) {
                ArrayNode choices = d.putArray("choices");
                f.choices()
                        .asMap()
                        .forEach((v, l) -> choices.addObject().put("value", v).put("display_name", l));
            }
        }
        return out;
    }
}
