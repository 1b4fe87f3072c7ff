package org.sourceoftruth.model.template;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The only kinds of values templates ever see: {@link Map} (insertion-ordered, String keys),
 * {@link List}, {@link String}, {@link Number}, {@link Boolean} and null. Because the sandboxed
 * engine only has resolvers for these, a template cannot reach any other Java object.
 */
public final class PlainValues {

    private PlainValues() {}

    /** Converts a JSON tree into plain, unmodifiable values. */
    public static Object fromJson(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                map.put(field.getKey(), fromJson(field.getValue()));
            }
            return Collections.unmodifiableMap(map);
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            for (JsonNode element : node) {
                list.add(fromJson(element));
            }
            return Collections.unmodifiableList(list);
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
        }
        if (node.isBigDecimal()) {
            return node.decimalValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        return node.asText();
    }

    /** Python truthiness: None, False, 0, "", [] and {} are false. */
    static boolean truthy(Object value) {
        if (value == null || value == Undefined.INSTANCE) {
            return false;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s) {
            return !s.isEmpty();
        }
        if (value instanceof Number n) {
            return toBigDecimal(n).signum() != 0;
        }
        if (value instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        if (value instanceof List<?> l) {
            return !l.isEmpty();
        }
        return true;
    }

    static boolean isInteger(Object value) {
        return value instanceof Long
                || value instanceof Integer
                || value instanceof BigInteger
                || value instanceof Short
                || value instanceof Byte;
    }

    static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (isInteger(n)) {
            return BigDecimal.valueOf(n.longValue());
        }
        return BigDecimal.valueOf(n.doubleValue());
    }

    /** Numbers and booleans compare as numbers in Python (bool is a subclass of int). */
    private static BigDecimal numeric(Object value) {
        if (value instanceof Boolean b) {
            return b ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        return value instanceof Number n ? toBigDecimal(n) : null;
    }

    /** Python {@code a == b}. */
    static boolean pyEquals(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        BigDecimal na = numeric(a);
        BigDecimal nb = numeric(b);
        if (na != null && nb != null) {
            return na.compareTo(nb) == 0;
        }
        if (a instanceof List<?> la && b instanceof List<?> lb) {
            if (la.size() != lb.size()) {
                return false;
            }
            for (int i = 0; i < la.size(); i++) {
                if (!pyEquals(la.get(i), lb.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            if (ma.size() != mb.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : ma.entrySet()) {
                if (!mb.containsKey(e.getKey()) || !pyEquals(e.getValue(), mb.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** Python ordering of two values; numbers with numbers, strings with strings, else a type error. */
    static int pyCompare(Object a, Object b, String operator) {
        BigDecimal na = numeric(a);
        BigDecimal nb = numeric(b);
        if (na != null && nb != null) {
            return na.compareTo(nb);
        }
        if (a instanceof String sa && b instanceof String sb) {
            return sa.compareTo(sb);
        }
        throw new TemplateRenderException("'" + operator + "' not supported between instances of '" + typeName(a)
                + "' and '" + typeName(b) + "'");
    }

    static String typeName(Object value) {
        if (value == null) {
            return "NoneType";
        }
        if (value == Undefined.INSTANCE) {
            return "Undefined";
        }
        if (value instanceof String) {
            return "str";
        }
        if (value instanceof Boolean) {
            return "bool";
        }
        if (isInteger(value)) {
            return "int";
        }
        if (value instanceof Number) {
            return "float";
        }
        if (value instanceof Map) {
            return "dict";
        }
        if (value instanceof List) {
            return "list";
        }
        return value.getClass().getSimpleName();
    }

    /** Python {@code str(value)}, as Jinja prints an expression; undefined prints nothing. */
    static String str(Object value) {
        if (value == Undefined.INSTANCE) {
            return "";
        }
        if (value instanceof String s) {
            return s;
        }
        return repr(value);
    }

    /** Python {@code repr(value)}: how values look inside printed lists and dicts. */
    static String repr(Object value) {
        if (value == null) {
            return "None";
        }
        if (value == Undefined.INSTANCE) {
            return "";
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value instanceof String s) {
            return reprString(s);
        }
        if (value instanceof Double d) {
            return reprFloat(d);
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof Number n) {
            return n.toString();
        }
        if (value instanceof Map<?, ?> map) {
            StringBuilder out = new StringBuilder("{");
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (out.length() > 1) {
                    out.append(", ");
                }
                String key = repr(e.getKey());
                String element = repr(e.getValue());
                RenderGuard.allocate(RenderGuard.BYTES_PER_CHAR * (key.length() + element.length() + 4L));
                out.append(key).append(": ").append(element);
            }
            return out.append('}').toString();
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder("[");
            for (Object element : list) {
                if (out.length() > 1) {
                    out.append(", ");
                }
                String printed = repr(element);
                RenderGuard.allocate(RenderGuard.BYTES_PER_CHAR * (printed.length() + 2L));
                out.append(printed);
            }
            return out.append(']').toString();
        }
        return String.valueOf(value);
    }

    private static String reprFloat(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e16) {
            return BigDecimal.valueOf(d).setScale(1).toPlainString();
        }
        String java = Double.toString(d);
        int exponent = java.indexOf('E');
        if (exponent < 0) {
            return java;
        }
        String mantissa = java.substring(0, exponent).replaceAll("\\.0$", "");
        String power = java.substring(exponent + 1);
        return mantissa + "e" + (power.startsWith("-") ? "-" : "+")
                + String.format("%02d", Math.abs(Integer.parseInt(power)));
    }

    private static String reprString(String s) {
        RenderGuard.allocateChars(4L * s.length() + 2); // a control character becomes "\\xNN"
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder().append(quote);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c == quote) {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append(quote).toString();
    }
}
