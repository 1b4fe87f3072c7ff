package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;

/** INTEGER: an integer or bigint column with an optional range. */
public final class IntegerType extends OrderedType {
    /** DRF's IntegerField strips a trailing {@code .0} before int(). */
    private static final java.util.regex.Pattern WHOLE = java.util.regex.Pattern.compile("[+-]?[0-9]+(?:\\.0*)?");

    @Override
    public Object read(Field f, JsonNode v) {
        BigInteger whole = wholeValue(v);
        if (whole == null) {
            throw new InvalidValue("A valid integer is required.");
        }
        DecimalType.checkRange(f, new BigDecimal(whole));
        if (whole.bitLength() >= 64) {
            // no bound declared and none from the column (engine.write.ColumnLimits): a bigint's
            throw new InvalidValue(
                    whole.signum() > 0
                            ? "Ensure this value is less than or equal to " + Long.MAX_VALUE + "."
                            : "Ensure this value is greater than or equal to " + Long.MIN_VALUE + ".");
        }
        long n = whole.longValue();
        if (f.choices() != null && !f.choices().contains(Long.toString(n))) {
            throw new InvalidValue("\"" + n + "\" is not a valid choice.");
        }
        return n;
    }

    /**
     * The whole number a value stands for as DRF's IntegerField reads it, however large; null
     * when it is none: an integer, a float with no fraction that Python writes without an
     * exponent (below 1e16: {@code 10.0}, not {@code 1e20}), or a string of digits with an
     * optional sign and {@code .0} (at most 1000 characters, DRF's bound).
     */
    public static BigInteger wholeValue(JsonNode v) {
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue();
        }
        if (v.isDouble() || v.isFloat()) {
            double d = v.doubleValue();
            return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 1e16 ? BigInteger.valueOf((long) d) : null;
        }
        if (v.isBigDecimal()) {
            BigDecimal d = v.decimalValue();
            return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0 ? d.toBigInteger() : null;
        }
        if (v.isTextual()) {
            String text = v.textValue().trim();
            if (text.length() > 1000 || !WHOLE.matcher(text).matches()) {
                return null;
            }
            String digits = text.substring(0, text.indexOf('.') < 0 ? text.length() : text.indexOf('.'));
            return new BigInteger(digits.startsWith("+") ? digits.substring(1) : digits);
        }
        return null;
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
