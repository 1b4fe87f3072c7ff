package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;

/** BOOLEAN: true/false, also spelled 1/0, yes/no, on/off (any case) in text. */
public final class BooleanType implements FieldType {

    /** The truth value of a text spelling, or null when it spells none. */
    static Boolean truth(String raw) {
        return switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> null;
        };
    }

    /** A boolean filter value ({@code __empty=true}, {@code occupied=1}), or NetBox's choice error. */
    public static boolean parseFilter(String raw) {
        Boolean b = truth(raw);
        if (b == null) {
            throw new InvalidValue("Select a valid choice. " + raw + " is not one of the available choices.");
        }
        return b;
    }

    @Override
    public Object read(Field f, JsonNode v) {
        Boolean b = v.isBoolean() ? Boolean.valueOf(v.asBoolean()) : truth(v.asText());
        if (b == null) {
            throw new InvalidValue("Must be a valid boolean.");
        }
        return b;
    }

    @Override
    public JsonNode render(Field f, Object v) {
        return NODES.booleanNode((Boolean) v);
    }

    @Override
    public boolean filtersByValue() {
        return true;
    }

    @Override
    public Object parse(String raw, Field f) {
        return parseFilter(raw);
    }

    @Override
    public Object parse(JsonNode v, Field f) {
        return v.isBoolean() ? v.asBoolean() : parseFilter(v.asText());
    }

    @Override
    public String optionsType() {
        return "boolean";
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.BOOLEAN);
    }
}
