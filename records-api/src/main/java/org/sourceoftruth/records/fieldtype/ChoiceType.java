package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Row;

/** CHOICE: one value of a {@link ChoiceSet}, rendered {value, label} (or plain for a plain set). */
public final class ChoiceType extends TextValuedType {

    @Override
    public Object read(Field f, JsonNode v) {
        if (v.isObject() || v.isArray()) {
            throw new InvalidValue(
                    "Value must be passed directly (e.g. \"foo\": 123); do not use a dictionary or list.");
        }
        String s = v.asText();
        if (s.isEmpty()) {
            if (f.isNullable()) {
                return null;
            }
            throw new InvalidValue("This field may not be blank.");
        }
        if (!f.choices().contains(s)) {
            throw new InvalidValue("\"" + s + "\" is not a valid choice.");
        }
        return s;
    }

    @Override
    public JsonNode render(Field f, Object v) {
        ChoiceSet set = f.choices();
        if (set.isPlain()) {
            return set.isNumeric() ? NODES.numberNode(Long.parseLong(v.toString())) : NODES.textNode(v.toString());
        }
        ObjectNode c = NODES.objectNode();
        if (set.isNumeric()) {
            c.put("value", Long.parseLong(v.toString()));
        } else {
            c.put("value", v.toString());
        }
        c.put("label", set.label(v.toString()));
        return c;
    }

    /** A snapshot holds the stored value, not its {value, label} rendering. */
    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        Object v = row.get(f.column());
        snap.set(f.name, v == null ? NODES.nullNode() : NODES.textNode(row.str(f.column())));
    }

    /** A filter value outside the field's set is a 400, as NetBox's; without a field any text. */
    @Override
    public Object parse(String raw, Field f) {
        if (f != null && f.choices() != null && !f.choices().contains(raw)) {
            throw new InvalidValue("Select a valid choice. " + raw + " is not one of the available choices.");
        }
        return raw;
    }

    @Override
    public String optionsType() {
        return "field";
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.STRING);
    }

    @Override
    public Schema readSchema(Field f, SchemaNames names) {
        return f.choices().isPlain() ? Schemas.choiceValue(f.choices()) : Schemas.choiceObject(f.choices());
    }

    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        return f.choices() != null ? Schemas.choiceValue(f.choices()) : Schemas.text(f);
    }
}
