package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.sourceoftruth.records.db.ColumnTypes;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.fieldtype.DecimalType;
import org.sourceoftruth.records.fieldtype.IntegerType;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * What a number column can hold, as its migration declares it, checked before the value is
 * read, with the messages DRF derives from the Django field: a value outside smallint,
 * integer or bigint ("Ensure this value is less than or equal to 2147483647.", Django's range
 * validators, which apply where the declaration sets no bound of its own), and for numeric(p,
 * s) DecimalField's max_digits / decimal_places checks. Without it such a value reached
 * PostgreSQL, whose refusal names no field, or was silently rounded to the column's scale.
 */
final class ColumnLimits {
    private ColumnLimits() {}

    /** Throws the field's error when {@code v} cannot be stored in its column; values of another shape are left to the field's type. */
    static void check(Db db, Model model, Field f, JsonNode v) {
        if ((f.kind != Kind.INTEGER && f.kind != Kind.DECIMAL) || !f.isColumn() || v.isNull()) {
            return;
        }
        ColumnTypes.Column column = ColumnTypes.column(db, model.table(), f.column());
        if (column == null) {
            return;
        }
        if (f.kind == Kind.INTEGER) {
            checkRange(f, column.type(), IntegerType.wholeValue(v));
        } else if (column.type().equals("numeric") && column.typeModifier() >= 4) {
            BigDecimal d = DecimalType.decimalValue(v);
            if (d != null) {
                int precision = ((column.typeModifier() - 4) >> 16) & 0xffff;
                int scale = (column.typeModifier() - 4) & 0xffff;
                checkDigits(d, precision, scale);
            }
        }
    }

    private static void checkRange(Field f, String type, BigInteger n) {
        BigInteger max = switch (type) {
            case "smallint" -> BigInteger.valueOf(Short.MAX_VALUE);
            case "integer" -> BigInteger.valueOf(Integer.MAX_VALUE);
            case "bigint" -> BigInteger.valueOf(Long.MAX_VALUE);
            default -> null;
        };
        if (n == null || max == null) {
            return;
        }
        BigInteger min = max.negate().subtract(BigInteger.ONE);
        if (f.maxValue() == null && n.compareTo(max) > 0) {
            throw new PayloadReader.FieldError("Ensure this value is less than or equal to " + max + ".");
        }
        if (f.minValue() == null && n.compareTo(min) < 0) {
            throw new PayloadReader.FieldError("Ensure this value is greater than or equal to " + min + ".");
        }
    }

    /** DRF's DecimalField.validate_precision, on the digits of the value as given. */
    private static void checkDigits(BigDecimal d, int maxDigits, int decimalPlaces) {
        int digits = d.unscaledValue().abs().toString().length();
        long exponent = -(long) d.scale();
        long total;
        long whole;
        long decimals;
        if (exponent >= 0) {
            total = digits + exponent;
            whole = total;
            decimals = 0;
        } else if (digits > -exponent) {
            total = digits;
            whole = digits + exponent;
            decimals = -exponent;
        } else {
            total = -exponent;
            whole = 0;
            decimals = total;
        }
        if (total > maxDigits) {
            throw new PayloadReader.FieldError("Ensure that there are no more than " + maxDigits + " digits in total.");
        }
        if (decimals > decimalPlaces) {
            throw new PayloadReader.FieldError(
                    "Ensure that there are no more than " + decimalPlaces + " decimal places.");
        }
        if (whole > maxDigits - decimalPlaces) {
            throw new PayloadReader.FieldError("Ensure that there are no more than " + (maxDigits - decimalPlaces)
                    + " digits before the decimal point.");
        }
    }
}
