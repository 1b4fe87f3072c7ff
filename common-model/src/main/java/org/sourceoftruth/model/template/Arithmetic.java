package org.sourceoftruth.model.template;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Python arithmetic on template values: exact integers, float otherwise, str/list concatenation. */
final class Arithmetic {

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final int MAX_REPEAT = 1_000_000;
    /**
     * Integers may have at most this many decimal digits, Python's default limit for converting
     * an int to or from text (sys.int_info.default_max_str_digits): without it, repeated
     * multiplication doubles a number's size at every step.
     */
    static final int MAX_DIGITS = 4300;
    /** Bits of the largest integer of {@link #MAX_DIGITS} digits (log2(10) = 3.3219...). */
    private static final int MAX_BITS = (int) Math.ceil(MAX_DIGITS * 3.3219281);

    private Arithmetic() {}

    static Object apply(String operator, Object a, Object b) {
        if (isIntegral(a) && isIntegral(b)) {
            BigInteger x = integer(a, operator);
            BigInteger y = integer(b, operator);
            return switch (operator) {
                case "add" -> normalize(x.add(y));
                case "sub" -> normalize(x.subtract(y));
                case "mul" -> normalize(x.multiply(y));
                case "div" -> {
                    requireNonZero(y);
                    yield x.doubleValue() / y.doubleValue();
                }
                case "floordiv" -> {
                    requireNonZero(y);
                    BigInteger[] qr = x.divideAndRemainder(y);
                    yield normalize(
                            qr[1].signum() != 0 && qr[1].signum() != y.signum()
                                    ? qr[0].subtract(BigInteger.ONE)
                                    : qr[0]);
                }
                case "mod" -> {
                    requireNonZero(y);
                    BigInteger r = x.mod(y.abs());
                    yield normalize(y.signum() < 0 && r.signum() != 0 ? r.add(y) : r);
                }
                default -> throw new IllegalArgumentException(operator);
            };
        }
        if (isNumber(a) && isNumber(b)) {
            double x = asDouble(a);
            double y = asDouble(b);
            return switch (operator) {
                case "add" -> x + y;
                case "sub" -> x - y;
                case "mul" -> x * y;
                case "div" -> {
                    if (y == 0) {
                        throw new TemplateRenderException("float division by zero");
                    }
                    yield x / y;
                }
                case "floordiv" -> Math.floor(x / y);
                case "mod" -> x - y * Math.floor(x / y);
                default -> throw new IllegalArgumentException(operator);
            };
        }
        if (operator.equals("add") && a instanceof String x && b instanceof String y) {
            RenderGuard.allocateChars((long) x.length() + y.length());
            return x + y;
        }
        if (operator.equals("add") && a instanceof List<?> x && b instanceof List<?> y) {
            RenderGuard.allocateElements((long) x.size() + y.size());
            List<Object> joined = new ArrayList<>(x);
            joined.addAll(y);
            return Collections.unmodifiableList(joined);
        }
        if (operator.equals("mul") && a instanceof String s && isIntegral(b)) {
            int times = integer(b, operator)
                    .max(BigInteger.ZERO)
                    .min(BigInteger.valueOf(MAX_REPEAT))
                    .intValue();
            if ((long) times * s.length() > MAX_REPEAT) {
                throw new TemplateRenderException("string repetition too large");
            }
            RenderGuard.allocateChars((long) times * s.length());
            return s.repeat(times);
        }
        throw new TemplateRenderException("unsupported operand type(s) for " + symbol(operator) + ": '"
                + PlainValues.typeName(a) + "' and '" + PlainValues.typeName(b) + "'");
    }

    static Object abs(Object value) {
        if (isIntegral(value)) {
            return normalize(integer(value, "abs").abs());
        }
        if (value instanceof Number n) {
            return Math.abs(n.doubleValue());
        }
        throw new TemplateRenderException("bad operand type for abs(): '" + PlainValues.typeName(value) + "'");
    }

    static BigInteger integer(Object value, String what) {
        if (value instanceof Boolean b) {
            return b ? BigInteger.ONE : BigInteger.ZERO;
        }
        if (value instanceof BigInteger i) {
            return i;
        }
        if (PlainValues.isInteger(value)) {
            return BigInteger.valueOf(((Number) value).longValue());
        }
        throw new TemplateRenderException(what + " needs an integer, not '" + PlainValues.typeName(value) + "'");
    }

    /** The value as a template integer: a long when it fits; more than {@link #MAX_DIGITS} digits are refused. */
    static Object normalize(BigInteger value) {
        if (value.bitLength() > MAX_BITS && value.abs().toString().length() > MAX_DIGITS) {
            throw new TemplateRenderException("integer has more than " + MAX_DIGITS + " digits");
        }
        return value.compareTo(LONG_MIN) >= 0 && value.compareTo(LONG_MAX) <= 0 ? (Object) value.longValue() : value;
    }

    private static boolean isIntegral(Object value) {
        return value instanceof Boolean || PlainValues.isInteger(value);
    }

    private static boolean isNumber(Object value) {
        return value instanceof Boolean || value instanceof Number;
    }

    private static double asDouble(Object value) {
        return value instanceof Boolean b ? (b ? 1 : 0) : ((Number) value).doubleValue();
    }

    private static void requireNonZero(BigInteger divisor) {
        if (divisor.signum() == 0) {
            throw new TemplateRenderException("division by zero");
        }
    }

    private static String symbol(String operator) {
        return switch (operator) {
            case "add" -> "+";
            case "sub" -> "-";
            case "mul" -> "*";
            case "div" -> "/";
            case "floordiv" -> "//";
            default -> "%";
        };
    }
}
