package org.sourceoftruth.records.kind;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;

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
        if (f.choices() != null && !f.choices().contains(Long.toString(n))) {
            throw new InvalidValue("\"" + n + "\" is not a valid choice.");
        }
        return n;
    }

    /**
     * An integer with choices ({@link Field#integerChoices}) filters as NetBox's ChoiceFilter: an
     * exact value (or {@code __n}) that is no choice is a 400, and the text lookups NetBox gives
     * choice filters ({@code __ic}, {@code __regex}, ...) compare the number's text, as Django's
     * {@code icontains} on an integer column does.
     */
    @Override
    public List<FieldFilter> filters(Field f) {
        if (f.choices() == null || !f.isFilterable()) {
            return super.filters(f);
        }
        String column = f.filterExpression();
        return List.of(new FieldFilter(
                f.name, f, Kind.INTEGER, f.choices(), Lookup.TEXT_FILTERS, null, (db, relations, lookup, values) -> {
                    if (lookup == null || lookup.equals("n")) {
                        for (String v : values) {
                            if (!v.equals("null") && !f.choices().contains(v.trim())) {
                                throw new InvalidValue(
                                        "Select a valid choice. " + v + " is not one of the available choices.");
                            }
                        }
                        return LookupCompiler.filter(column, this, f, lookup, values);
                    }
                    return LookupCompiler.filter(column + "::text", FieldTypes.TEXT, null, lookup, values);
                }));
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
