package org.sourceoftruth.records.kind;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;

import java.math.BigDecimal;
import java.util.List;

/** INTEGER: an integer or bigint column with an optional range. */
public final class IntegerType extends OrderedType {

    @Override
    public Object read(Field f, JsonNode v) {
        long n;
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            n = v.asLong();
        } else if (v.isTextual() && v.asText().trim().matches("-?\\d{1,18}")) {
            n = Long.parseLong(v.asText().trim());
        } else if (v.isNumber() && v.decimalValue().stripTrailingZeros().scale() <= 0 && v.canConvertToLong()) {
            n = v.asLong();
        } else {
            throw new InvalidValue("A valid integer is required.");
        }
        DecimalType.checkRange(f, BigDecimal.valueOf(n));
        return n;
    }

    @Override
    public JsonNode render(Field f, Object v) {
        return NODES.numberNode(((Number) v).longValue());
    }

    /**
     * A field lookup's value. A whole number beyond 64 bits is still a number to NetBox (a bigint
     * column such as an L2VPN's identifier is compared with it and matches nothing, or every row
     * for a range): it is kept as a decimal, which the lookups bind as one scalar numeric.
     */
    @Override
    public Object parse(String raw, Field f) {
        try {
            return parseWhole(raw);
        } catch (InvalidValue e) {
            if (f != null && raw.trim().matches("-?\\d{1,40}")) {
                return new BigDecimal(raw.trim());
            }
            throw e;
        }
    }

    /** A whole number in a filter or constraint, or NetBox's "Enter a whole number.". */
    static long parseWhole(String raw) {
        try {
            return Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw new InvalidValue("Enter a whole number.");
        }
    }

    @Override
    public Object parse(JsonNode v, Field f) {
        return v.isIntegralNumber() && v.canConvertToLong() ? v.asLong() : parseWhole(v.asText());
    }

    @Override
    public String optionsType() {
        return "integer";
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.INTEGER);
    }

    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        return Schemas.range(schema(), f);
    }
}
