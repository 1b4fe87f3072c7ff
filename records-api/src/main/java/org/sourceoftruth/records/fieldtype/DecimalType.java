package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;

/** DECIMAL: a numeric column, rendered as a JSON number. */
public final class DecimalType extends OrderedType {

    @Override
    public Object read(Field f, JsonNode v) {
        BigDecimal d = decimalValue(v);
        if (d == null) {
            throw new InvalidValue("A valid number is required.");
        }
        checkRange(f, d);
        return d;
    }

    /**
     * The number a value stands for as DRF's DecimalField reads it (Decimal(str(value))), or
     * null when it is none: not a number or numeric string, a string over 1000 characters, or
     * NaN and the infinities (a literal beyond double's range, 1e999, reads as infinite).
     */
    public static BigDecimal decimalValue(JsonNode v) {
        try {
            if (v.isDouble() || v.isFloat()) {
                return Double.isFinite(v.doubleValue()) ? BigDecimal.valueOf(v.doubleValue()) : null;
            }
            if (v.isNumber()) {
                return v.decimalValue();
            }
            if (v.isTextual() && v.textValue().length() <= 1000) {
                return new BigDecimal(v.textValue().trim());
            }
        } catch (NumberFormatException e) {
            // not a number: null below
        }
        return null;
    }

    /** DRF's min_value/max_value check. */
    static void checkRange(Field f, BigDecimal n) {
        if (f.minValue() != null && n.compareTo(f.minValue()) < 0) {
            throw new InvalidValue("Ensure this value is greater than or equal to "
                    + f.minValue().toPlainString() + ".");
        }
        if (f.maxValue() != null && n.compareTo(f.maxValue()) > 0) {
            throw new InvalidValue(
                    "Ensure this value is less than or equal to " + f.maxValue().toPlainString() + ".");
        }
    }

    @Override
    public JsonNode render(Field f, Object v) {
        return NODES.numberNode(v instanceof BigDecimal b ? b : new BigDecimal(v.toString()));
    }

    @Override
    public Object parse(String raw, Field f) {
        try {
            return new BigDecimal(raw.trim());
        } catch (NumberFormatException e) {
            throw new InvalidValue("Enter a number.");
        }
    }

    @Override
    public Object parse(JsonNode v, Field f) {
        return v.isNumber() ? v.decimalValue() : parse(v.asText(), f);
    }

    @Override
    public String optionsType() {
        return "decimal";
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.NUMBER).format("double");
    }

    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        return Schemas.range(schema(), f);
    }
}
