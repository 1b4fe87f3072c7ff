package org.sourceoftruth.model.template;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The functions a translated template may call (Qute namespace {@code fn:}): Jinja's filters,
 * tests, operators and a few str/dict methods, with Python semantics on plain values. They are
 * the only code a template can run.
 */
final class TemplateFunctions {

    /**
     * A function as the translator sees it: its parameter names (the first is the filtered
     * value or the method's object) and the defaults of the optional ones.
     */
    record Spec(String function, List<String> parameters, int required, List<Object> defaults) {

        int minArguments() {
            return required;
        }

        int maxArguments() {
            return parameters.size();
        }

        int parameterIndex(String name) {
            return parameters.indexOf(name);
        }

        Object defaultOf(int position) {
            return defaults.get(position - required);
        }
    }

    private static final Map<String, Spec> FILTERS = new HashMap<>();
    private static final Map<String, Spec> TESTS = new HashMap<>();
    private static final Map<String, Spec> METHODS = new HashMap<>();

    static {
        filter("tojson", "tojson", 1, "value", "indent", null);
        filter("default", "default", 1, "value", "default_value", "", "boolean", false);
        FILTERS.put("d", FILTERS.get("default"));
        filter("upper", "upper", 1, "s");
        filter("lower", "lower", 1, "s");
        filter("title", "title", 1, "s");
        filter("capitalize", "capitalize", 1, "s");
        filter("trim", "trim", 1, "value", "chars", null);
        filter("length", "length", 1, "obj");
        FILTERS.put("count", FILTERS.get("length"));
        filter("string", "string", 1, "value");
        filter("int", "int", 1, "value", "default", 0L, "base", 10L);
        filter("float", "float", 1, "value", "default", 0.0);
        filter("join", "join", 1, "value", "d", "", "attribute", null);
        filter("first", "first", 1, "seq");
        filter("last", "last", 1, "seq");
        filter("replace", "replace", 3, "s", "old", "new", "count", null);
        filter("list", "tolist", 1, "value");
        filter("safe", "value", 1, "value");
        filter("escape", "escape", 1, "s");
        FILTERS.put("e", FILTERS.get("escape"));
        filter("urlencode", "urlencode", 1, "value");
        filter("header_safe", "header_safe", 1, "value");
        filter("abs", "abs", 1, "x");
        filter("round", "round", 1, "value", "precision", 0L, "method", "common");
        filter("map_attribute", "map_attribute", 2, "value", "attribute");

        test("defined", "is_defined", 1, "value");
        test("undefined", "is_undefined", 1, "value");
        test("none", "is_none", 1, "value");
        test("string", "is_string", 1, "value");
        test("number", "is_number", 1, "value");
        test("integer", "is_integer", 1, "value");
        test("float", "is_float", 1, "value");
        test("boolean", "is_boolean", 1, "value");
        test("true", "is_true", 1, "value");
        test("false", "is_false", 1, "value");
        test("mapping", "is_mapping", 1, "value");
        test("sequence", "is_sequence", 1, "value");
        test("iterable", "is_sequence", 1, "value");
        test("odd", "is_odd", 1, "value");
        test("even", "is_even", 1, "value");
        test("divisibleby", "is_divisibleby", 2, "value", "num");

        method("items", "items", 1, "self");
        method("keys", "keys", 1, "self");
        method("values", "values", 1, "self");
        method("get", "get", 2, "self", "key", "default", null);
        method("upper", "upper", 1, "self");
        method("lower", "lower", 1, "self");
        method("title", "title", 1, "self");
        method("capitalize", "capitalize", 1, "self");
        method("strip", "trim", 1, "self", "chars", null);
        method("startswith", "startswith", 2, "self", "prefix");
        method("endswith", "endswith", 2, "self", "suffix");
        method("split", "split", 1, "self", "sep", null, "maxsplit", -1L);
        method("replace", "replace", 3, "self", "old", "new", "count", null);
        method("join", "str_join", 2, "self", "iterable");
    }

    private TemplateFunctions() {
    }

    static Spec filter(String name) {
        return FILTERS.get(name);
    }

    static Spec test(String name) {
        return TESTS.get(name);
    }

    static Spec method(String name) {
        return METHODS.get(name);
    }

    private static void filter(String name, String function, int required, Object... parameters) {
        FILTERS.put(name, spec(function, required, parameters));
    }

    private static void test(String name, String function, int required, Object... parameters) {
        TESTS.put(name, spec(function, required, parameters));
    }

    private static void method(String name, String function, int required, Object... parameters) {
        METHODS.put(name, spec(function, required, parameters));
    }

    /** parameters: the required names, then name/default pairs of the optional ones. */
    private static Spec spec(String function, int required, Object... parameters) {
        List<String> names = new ArrayList<>();
        List<Object> defaults = new ArrayList<>();
        int i = 0;
        for (; i < required; i++) {
            names.add((String) parameters[i]);
        }
        for (; i < parameters.length; i += 2) {
            names.add((String) parameters[i]);
            defaults.add(parameters[i + 1]);
        }
        return new Spec(function, List.copyOf(names), required, Collections.unmodifiableList(defaults));
    }

    // ---------------------------------------------------------------- runtime

    /** Runs function {@code name} on evaluated arguments. */
    static Object apply(String name, List<Object> args) {
        RenderGuard.check();
        return switch (name) {
            // plumbing used by the translator
            case "value" -> args.get(0);
            case "list" -> newList(args);
            case "iter" -> LoopSteps.of(iterate(args.get(0)));
            case "tolist" -> newList(iterate(args.get(0)));
            case "getitem" -> getItem(args.get(0), args.get(1));
            case "unhex" -> unhex((String) args.get(0));
            // operators
            case "eq" -> PlainValues.pyEquals(args.get(0), args.get(1));
            case "ne" -> !PlainValues.pyEquals(args.get(0), args.get(1));
            case "lt" -> PlainValues.pyCompare(args.get(0), args.get(1), "<") < 0;
            case "le" -> PlainValues.pyCompare(args.get(0), args.get(1), "<=") <= 0;
            case "gt" -> PlainValues.pyCompare(args.get(0), args.get(1), ">") > 0;
            case "ge" -> PlainValues.pyCompare(args.get(0), args.get(1), ">=") >= 0;
            case "in" -> contains(args.get(1), args.get(0));
            case "not" -> !PlainValues.truthy(args.get(0));
            case "and" -> PlainValues.truthy(args.get(0)) ? args.get(1) : args.get(0);
            case "or" -> PlainValues.truthy(args.get(0)) ? args.get(0) : args.get(1);
            case "concat" -> concat(PlainValues.str(args.get(0)), PlainValues.str(args.get(1)));
            case "add", "sub", "mul", "div", "floordiv", "mod" -> Arithmetic.apply(name, args.get(0), args.get(1));
            case "neg" -> Arithmetic.apply("sub", 0L, args.get(0));
            // filters
            case "tojson" -> PythonJson.dumpsForTemplate(args.get(0), optionalInt(args, 1));
            case "default" -> defaultValue(args);
            case "upper" -> charged(text(args.get(0)), CASE_CHANGE_GROWTH).toUpperCase(Locale.ROOT);
            case "lower" -> charged(text(args.get(0)), CASE_CHANGE_GROWTH).toLowerCase(Locale.ROOT);
            case "title" -> title(charged(text(args.get(0)), CASE_CHANGE_GROWTH));
            case "capitalize" -> capitalize(charged(text(args.get(0)), CASE_CHANGE_GROWTH));
            case "trim" -> trim(charged(text(args.get(0)), 1), args.size() > 1 ? args.get(1) : null);
            case "length" -> length(args.get(0));
            case "string", "str" -> PlainValues.str(args.get(0));
            case "header_safe" -> charged(PlainValues.str(args.get(0)), 1).replaceAll("\\p{Cntrl}", "");
            case "int" -> toInt(args.get(0), args.size() > 1 ? args.get(1) : 0L);
            case "float" -> toFloat(args.get(0), args.size() > 1 ? args.get(1) : 0.0);
            case "join" -> join(args.get(0), args.size() > 1 ? text(args.get(1)) : "", args.size() > 2 ? args.get(2) : null);
            case "first" -> first(args.get(0));
            case "last" -> last(args.get(0));
            case "replace" -> replace(text(args.get(0)), text(args.get(1)), text(args.get(2)), optionalInt(args, 3));
            case "escape" -> escapeHtml(charged(text(args.get(0)), ESCAPE_GROWTH));
            case "urlencode" -> URLEncoder.encode(charged(text(args.get(0)), URLENCODE_GROWTH), StandardCharsets.UTF_8)
                    .replace("+", "%20").replace("%2F", "/");
            case "abs" -> Arithmetic.abs(args.get(0));
            case "round" -> round(args.get(0), args.size() > 1 ? args.get(1) : 0L, args.size() > 2 ? text(args.get(2)) : "common");
            case "map_attribute" -> mapAttribute(args.get(0), text(args.get(1)));
            // tests
            case "is_defined" -> args.get(0) != Undefined.INSTANCE;
            case "is_undefined" -> args.get(0) == Undefined.INSTANCE;
            case "is_none" -> args.get(0) == null;
            case "is_string" -> args.get(0) instanceof String;
            case "is_number" -> args.get(0) instanceof Number;
            case "is_integer" -> PlainValues.isInteger(args.get(0));
            case "is_float" -> args.get(0) instanceof Double || args.get(0) instanceof BigDecimal || args.get(0) instanceof Float;
            case "is_boolean" -> args.get(0) instanceof Boolean;
            case "is_true" -> Boolean.TRUE.equals(args.get(0));
            case "is_false" -> Boolean.FALSE.equals(args.get(0));
            case "is_mapping" -> args.get(0) instanceof Map;
            case "is_sequence" -> args.get(0) instanceof List || args.get(0) instanceof Map || args.get(0) instanceof String;
            case "is_odd" -> Arithmetic.integer(args.get(0), "odd").testBit(0);
            case "is_even" -> !Arithmetic.integer(args.get(0), "even").testBit(0);
            case "is_divisibleby" -> Arithmetic.integer(args.get(0), "divisibleby")
                    .mod(Arithmetic.integer(args.get(1), "divisibleby").abs()).signum() == 0;
            // methods
            case "items" -> items(args.get(0));
            case "keys" -> newList(mapping(args.get(0), "keys").keySet());
            case "values" -> newList(mapping(args.get(0), "values").values());
            case "get" -> {
                Map<?, ?> map = mapping(args.get(0), "get");
                yield map.containsKey(args.get(1)) ? map.get(args.get(1)) : (args.size() > 2 ? args.get(2) : null);
            }
            case "startswith" -> string(args.get(0), "startswith").startsWith(string(args.get(1), "startswith"));
            case "endswith" -> string(args.get(0), "endswith").endsWith(string(args.get(1), "endswith"));
            case "split" -> split(string(args.get(0), "split"), args.size() > 1 ? args.get(1) : null, optionalInt(args, 2));
            case "str_join" -> join(args.get(1), string(args.get(0), "join"), null);
            default -> throw new TemplateRenderException("unknown template function " + name);
        };
    }

    // ---------------------------------------------------------------- memory budget

    /** Upper bounds of how much longer a string gets, in characters per input character. */
    private static final int CASE_CHANGE_GROWTH = 3; // e.g. 'ß'.upper() == 'SS', 'ΐ' becomes 3
    private static final int ESCAPE_GROWTH = 5; // '&' becomes "&amp;"
    private static final int URLENCODE_GROWTH = 9; // a char of 3 UTF-8 bytes becomes "%xx%xx%xx"

    /** Charges the string a function is about to build from {@code s}, at most {@code growth} times as long. */
    private static String charged(String s, int growth) {
        RenderGuard.allocateChars((long) s.length() * growth);
        return s;
    }

    private static List<Object> newList(java.util.Collection<?> elements) {
        RenderGuard.allocateElements(elements.size());
        return Collections.unmodifiableList(new ArrayList<>(elements));
    }

    private static String concat(String a, String b) {
        RenderGuard.allocateChars((long) a.length() + b.length());
        return a + b;
    }

    private static String unhex(String hex) {
        RenderGuard.allocateChars(hex.length() / 2);
        return new String(java.util.HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- helpers

    /** Jinja's soft_str: how filters see their input as text. */
    private static String text(Object value) {
        return PlainValues.str(value);
    }

    private static String string(Object value, String method) {
        if (value instanceof String s) {
            return s;
        }
        throw new TemplateRenderException("'" + PlainValues.typeName(value) + "' object has no method '" + method + "'");
    }

    private static Map<?, ?> mapping(Object value, String method) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new TemplateRenderException("'" + PlainValues.typeName(value) + "' object has no method '" + method + "'");
    }

    private static Integer optionalInt(List<Object> args, int index) {
        if (args.size() <= index || args.get(index) == null) {
            return null;
        }
        return Arithmetic.integer(args.get(index), "argument").intValueExact();
    }

    static Object getItem(Object target, Object key) {
        if (target instanceof Map<?, ?> map) {
            return map.containsKey(key) ? map.get(key) : Undefined.INSTANCE;
        }
        if (target instanceof List<?> list) {
            Integer index = indexOf(key);
            if (index == null) {
                return Undefined.INSTANCE;
            }
            int resolved = index < 0 ? list.size() + index : index;
            return resolved >= 0 && resolved < list.size() ? list.get(resolved) : Undefined.INSTANCE;
        }
        if (target instanceof String s) {
            Integer index = indexOf(key);
            if (index != null) {
                int resolved = index < 0 ? s.length() + index : index;
                return resolved >= 0 && resolved < s.length() ? String.valueOf(s.charAt(resolved)) : Undefined.INSTANCE;
            }
        }
        return Undefined.INSTANCE;
    }

    /** An integer list index from a number or from the digits of an attribute name ({@code tags.0}). */
    private static Integer indexOf(Object key) {
        if (PlainValues.isInteger(key)) {
            return ((Number) key).intValue();
        }
        if (key instanceof String s && s.matches("-?\\d{1,9}")) {
            return Integer.parseInt(s);
        }
        return null;
    }

    static List<?> iterate(Object value) {
        if (value == null || value == Undefined.INSTANCE) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return list;
        }
        if (value instanceof Map<?, ?> map) {
            RenderGuard.allocateElements(map.size());
            return List.copyOf(map.keySet());
        }
        if (value instanceof String s) {
            // one new one-character string per character
            RenderGuard.allocate(s.length() * (RenderGuard.BYTES_PER_ELEMENT + RenderGuard.BYTES_PER_STRING
                    + RenderGuard.BYTES_PER_CHAR * 2));
            List<String> chars = new ArrayList<>(s.length());
            s.codePoints().forEach(cp -> chars.add(new String(Character.toChars(cp))));
            return chars;
        }
        throw new TemplateRenderException("'" + PlainValues.typeName(value) + "' object is not iterable");
    }

    private static boolean contains(Object haystack, Object needle) {
        if (haystack instanceof String s) {
            if (!(needle instanceof String n)) {
                throw new TemplateRenderException("'in <string>' requires string as left operand, not "
                        + PlainValues.typeName(needle));
            }
            return s.contains(n);
        }
        if (haystack instanceof List<?> list) {
            return list.stream().anyMatch(element -> PlainValues.pyEquals(element, needle));
        }
        if (haystack instanceof Map<?, ?> map) {
            return map.containsKey(needle);
        }
        if (haystack == Undefined.INSTANCE) {
            return false;
        }
        throw new TemplateRenderException("argument of type '" + PlainValues.typeName(haystack) + "' is not iterable");
    }

    private static Object defaultValue(List<Object> args) {
        Object value = args.get(0);
        Object fallback = args.size() > 1 ? args.get(1) : "";
        boolean useForFalsy = args.size() > 2 && PlainValues.truthy(args.get(2));
        if (value == Undefined.INSTANCE || (useForFalsy && !PlainValues.truthy(value))) {
            return fallback;
        }
        return value;
    }

    private static String title(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean previousIsLetter = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(previousIsLetter ? Character.toLowerCase(c) : Character.toUpperCase(c));
            previousIsLetter = Character.isLetter(c);
        }
        return out.toString();
    }

    private static String capitalize(String s) {
        if (s.isEmpty()) {
            return s;
        }
        return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1).toLowerCase(Locale.ROOT);
    }

    private static String trim(String s, Object chars) {
        if (chars == null || chars == Undefined.INSTANCE) {
            return s.strip();
        }
        String set = text(chars);
        int start = 0;
        int end = s.length();
        while (start < end && set.indexOf(s.charAt(start)) >= 0) {
            start++;
        }
        while (end > start && set.indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(start, end);
    }

    private static long length(Object value) {
        if (value == Undefined.INSTANCE) {
            return 0;
        }
        if (value instanceof String s) {
            return s.codePointCount(0, s.length());
        }
        if (value instanceof List<?> list) {
            return list.size();
        }
        if (value instanceof Map<?, ?> map) {
            return map.size();
        }
        throw new TemplateRenderException("object of type '" + PlainValues.typeName(value) + "' has no len()");
    }

    private static Object toInt(Object value, Object fallback) {
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

    private static Object toFloat(Object value, Object fallback) {
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

    private static String join(Object value, String separator, Object attribute) {
        List<?> items = attribute == null || attribute == Undefined.INSTANCE
                ? iterate(value) : mapAttribute(value, text(attribute));
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < items.size(); i++) {
            RenderGuard.check();
            String item = PlainValues.str(items.get(i));
            RenderGuard.allocateChars((i > 0 ? separator.length() : 0) + item.length());
            if (i > 0) {
                out.append(separator);
            }
            out.append(item);
        }
        return out.toString();
    }

    private static Object first(Object value) {
        List<?> items = iterate(value);
        return items.isEmpty() ? Undefined.INSTANCE : items.get(0);
    }

    private static Object last(Object value) {
        List<?> items = iterate(value);
        return items.isEmpty() ? Undefined.INSTANCE : items.get(items.size() - 1);
    }

    private static String replace(String s, String old, String replacement, Integer count) {
        // at most one replacement per character (and one more at the end when old is empty)
        long replacements = old.isEmpty() ? s.length() + 1L : s.length() / old.length();
        if (count != null && count >= 0) {
            replacements = Math.min(replacements, count);
        }
        RenderGuard.allocateChars(s.length() + replacements * Math.max(0, replacement.length() - old.length()));
        if (count == null || count < 0) {
            return s.replace(old, replacement);
        }
        StringBuilder out = new StringBuilder();
        int from = 0;
        for (int done = 0; done < count; done++) {
            int at = s.indexOf(old, from);
            if (at < 0) {
                break;
            }
            out.append(s, from, at).append(replacement);
            from = at + old.length();
            if (old.isEmpty()) {
                if (from < s.length()) {
                    out.append(s.charAt(from));
                }
                from++;
            }
        }
        if (from <= s.length()) {
            out.append(s.substring(Math.min(from, s.length())));
        }
        return out.toString();
    }

    private static String escapeHtml(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&#34;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static Object round(Object value, Object precision, String method) {
        if (!(value instanceof Number n)) {
            throw new TemplateRenderException("round needs a number, not '" + PlainValues.typeName(value) + "'");
        }
        // beyond a few hundred digits a float cannot change; the clamp also bounds the scale
        int digits = Arithmetic.integer(precision, "round").max(BigInteger.valueOf(-400))
                .min(BigInteger.valueOf(400)).intValue();
        RoundingMode mode = switch (method) {
            case "common" -> RoundingMode.HALF_UP;
            case "ceil" -> RoundingMode.CEILING;
            case "floor" -> RoundingMode.FLOOR;
            default -> throw new TemplateRenderException("method must be common, ceil or floor");
        };
        return PlainValues.toBigDecimal(n).setScale(digits, mode).doubleValue();
    }

    /** {@code items|map(attribute='site.name')}: the attribute of every item; dots go deeper. */
    private static List<Object> mapAttribute(Object value, String attribute) {
        List<?> items = iterate(value);
        RenderGuard.allocateElements(items.size());
        List<Object> out = new ArrayList<>();
        for (Object item : items) {
            Object current = item;
            for (String part : attribute.split("\\.")) {
                current = getItem(current, part);
            }
            out.add(current);
        }
        return Collections.unmodifiableList(out);
    }

    private static List<List<Object>> items(Object value) {
        Map<?, ?> map = mapping(value, "items");
        RenderGuard.allocate(map.size() * (RenderGuard.BYTES_PER_ELEMENT * 3 + RenderGuard.BYTES_PER_STRING));
        List<List<Object>> out = new ArrayList<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            out.add(Arrays.asList(entry.getKey(), entry.getValue()));
        }
        return Collections.unmodifiableList(out);
    }

    private static int skipWhitespace(String s, int from) {
        int i = from;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static List<String> split(String s, Object separator, Integer maxSplit) {
        // the parts hold the characters of s, plus a string and a list element each (charged per part)
        RenderGuard.allocateChars(s.length());
        int limit = maxSplit == null || maxSplit < 0 ? Integer.MAX_VALUE : maxSplit;
        List<String> parts = new ArrayList<>();
        if (separator == null || separator == Undefined.INSTANCE) {
            // by index, not by cutting the rest off each time (quadratic on long strings)
            int from = skipWhitespace(s, 0);
            while (from < s.length()) {
                if (parts.size() == limit) {
                    RenderGuard.allocate(RenderGuard.BYTES_PER_ELEMENT + RenderGuard.BYTES_PER_STRING);
                    parts.add(s.substring(from)); // trailing whitespace kept, as in Python
                    return parts;
                }
                int end = from;
                while (end < s.length() && !Character.isWhitespace(s.charAt(end))) {
                    end++;
                }
                RenderGuard.allocate(RenderGuard.BYTES_PER_ELEMENT + RenderGuard.BYTES_PER_STRING);
                parts.add(s.substring(from, end));
                from = skipWhitespace(s, end);
            }
            return parts;
        }
        String sep = text(separator);
        if (sep.isEmpty()) {
            throw new TemplateRenderException("empty separator");
        }
        int from = 0;
        while (parts.size() < limit) {
            int at = s.indexOf(sep, from);
            if (at < 0) {
                break;
            }
            RenderGuard.allocate(RenderGuard.BYTES_PER_ELEMENT + RenderGuard.BYTES_PER_STRING);
            parts.add(s.substring(from, at));
            from = at + sep.length();
        }
        parts.add(s.substring(from));
        return parts;
    }
}
