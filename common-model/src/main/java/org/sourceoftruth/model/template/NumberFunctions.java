package org.sourceoftruth.model.template;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Jinja's int, float and round filters: Python's conversions, falling back to the filter's
 * default where Python would raise, and bounded in digits like {@link Arithmetic}.
 */
final class NumberFunctions {
    private NumberFunctions() {}

    static Object toInt(Object value, Object fallback) {
        try {
            if (value instanceof Boolean b) {
                return b ? 1L : 0L;
            }
            if (value instanceof Number n) {
                BigDecimal decimal = PlainValues.toBigDecimal(n);
                if (decimal.precision() - decimal.scale() > Arithmetic.MAX_DIGITS) {
                    return fallback;
                }
                return Arithmetic.normalize(decimal.toBigInteger());
            }
            if (value instanceof String s) {
                String trimmed = s.strip().replace("_", "");
                if (trimmed.length() > Arithmetic.MAX_DIGITS + 1) {
                    return fallback; // Python: "Exceeds the limit (4300 digits) for integer string conversion"
                }
                try {
                    return Arithmetic.normalize(new BigInteger(trimmed));
                } catch (NumberFormatException e) {
                    BigDecimal decimal = new BigDecimal(trimmed);
                    // "1e999999999": its integer part would have a billion digits
                    if (decimal.precision() - decimal.scale() > Arithmetic.MAX_DIGITS) {
                        return fallback;
                    }
                    return Arithmetic.normalize(decimal.toBigInteger());
                }
            }
        } catch (NumberFormatException | ArithmeticException | TemplateRenderException e) {
            return fallback;
        }
        return fallback;
    }

    static Object toFloat(Object value, Object fallback) {
        try {
            if (value instanceof Boolean b) {
                return b ? 1.0 : 0.0;
            }
            if (value instanceof Number n) {
                return n.doubleValue();
            }
            if (value instanceof String s) {
                return Double.parseDouble(s.strip());
            }
        } catch (NumberFormatException e) {
            return fallback;
        }
        return fallback;
    }

    static Object round(Object value, Object precision, String method) {
        if (!(value instanceof Number n)) {
            throw new TemplateRenderException("round needs a number, not '" + PlainValues.typeName(value) + "'");
        }
        // beyond a few hundred digits a float cannot change; the clamp also bounds the scale
        int digits = Arithmetic.integer(precision, "round")
                .max(BigInteger.valueOf(-400))
                .min(BigInteger.valueOf(400))
                .intValue();
        RoundingMode mode = switch (method) {
            case "common" -> RoundingMode.HALF_UP;
            case "ceil" -> RoundingMode.CEILING;
            case "floor" -> RoundingMode.FLOOR;
            default -> throw new TemplateRenderException("method must be common, ceil or floor");
        };
        return PlainValues.toBigDecimal(n).setScale(digits, mode).doubleValue();
    }
}
