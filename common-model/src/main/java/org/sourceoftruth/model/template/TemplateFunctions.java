package org.sourceoftruth.model.template;

import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The functions a translated template may call (Qute namespace {@code fn:}): Jinja's filters,
 * tests, operators and a few str/dict methods, with Python semantics on plain values. They are
 * the only code a template can run. Their names and parameters are {@link FunctionSpecs}; the
 * work is done by {@link TextFunctions}, {@link SequenceFunctions}, {@link NumberFunctions},
 * {@link Arithmetic} and {@link PlainValues}.
 */
final class TemplateFunctions {
    private TemplateFunctions() {}

    // ---------------------------------------------------------------- runtime

    /** Runs function {@code name} on evaluated arguments. */
    static Object apply(String name, List<Object> args) {
        RenderGuard.check();
        return switch (name) {
            // plumbing used by the translator
            case "value" -> args.get(0);
            case "list" -> SequenceFunctions.newList(args);
            case "iter" -> LoopSteps.of(SequenceFunctions.iterate(args.get(0)));
            case "tolist" -> SequenceFunctions.newList(SequenceFunctions.iterate(args.get(0)));
            case "getitem" -> SequenceFunctions.getItem(args.get(0), args.get(1));
            case "unhex" -> TextFunctions.unhex((String) args.get(0));
            // operators
            case "eq" -> PlainValues.pyEquals(args.get(0), args.get(1));
            case "ne" -> !PlainValues.pyEquals(args.get(0), args.get(1));
            case "lt" -> PlainValues.pyCompare(args.get(0), args.get(1), "<") < 0;
            case "le" -> PlainValues.pyCompare(args.get(0), args.get(1), "<=") <= 0;
            case "gt" -> PlainValues.pyCompare(args.get(0), args.get(1), ">") > 0;
            case "ge" -> PlainValues.pyCompare(args.get(0), args.get(1), ">=") >= 0;
            case "in" -> SequenceFunctions.contains(args.get(1), args.get(0));
            case "not" -> !PlainValues.truthy(args.get(0));
            case "and" -> PlainValues.truthy(args.get(0)) ? args.get(1) : args.get(0);
            case "or" -> PlainValues.truthy(args.get(0)) ? args.get(0) : args.get(1);
            case "concat" -> TextFunctions.concat(PlainValues.str(args.get(0)), PlainValues.str(args.get(1)));
            case "add", "sub", "mul", "div", "floordiv", "mod" -> Arithmetic.apply(name, args.get(0), args.get(1));
            case "neg" -> Arithmetic.apply("sub", 0L, args.get(0));
            // filters
            case "tojson" -> PythonJson.dumpsForTemplate(args.get(0), optionalInt(args, 1));
            case "default" -> defaultValue(args);
            case "upper" ->
                chargedText(args.get(0), TextFunctions.CASE_CHANGE_GROWTH).toUpperCase(Locale.ROOT);
            case "lower" ->
                chargedText(args.get(0), TextFunctions.CASE_CHANGE_GROWTH).toLowerCase(Locale.ROOT);
            case "title" -> TextFunctions.title(chargedText(args.get(0), TextFunctions.CASE_CHANGE_GROWTH));
            case "capitalize" -> TextFunctions.capitalize(chargedText(args.get(0), TextFunctions.CASE_CHANGE_GROWTH));
            case "trim" -> TextFunctions.trim(chargedText(args.get(0), 1), args.size() > 1 ? args.get(1) : null);
            case "length" -> SequenceFunctions.length(args.get(0));
            case "string", "str" -> PlainValues.str(args.get(0));
            case "header_safe" ->
                TextFunctions.charged(PlainValues.str(args.get(0)), 1).replaceAll("\\p{Cntrl}", "");
            case "int" -> NumberFunctions.toInt(args.get(0), args.size() > 1 ? args.get(1) : 0L);
            case "float" -> NumberFunctions.toFloat(args.get(0), args.size() > 1 ? args.get(1) : 0.0);
            case "join" ->
                SequenceFunctions.join(
                        args.get(0), args.size() > 1 ? text(args.get(1)) : "", args.size() > 2 ? args.get(2) : null);
            case "first" -> SequenceFunctions.first(args.get(0));
            case "last" -> SequenceFunctions.last(args.get(0));
            case "replace" ->
                TextFunctions.replace(text(args.get(0)), text(args.get(1)), text(args.get(2)), optionalInt(args, 3));
            case "escape" -> TextFunctions.escapeHtml(chargedText(args.get(0), TextFunctions.ESCAPE_GROWTH));
            case "urlencode" ->
                URLEncoder.encode(chargedText(args.get(0), TextFunctions.URLENCODE_GROWTH), StandardCharsets.UTF_8)
                        .replace("+", "%20")
                        .replace("%2F", "/");
            case "abs" -> Arithmetic.abs(args.get(0));
            case "round" ->
                NumberFunctions.round(
                        args.get(0),
                        args.size() > 1 ? args.get(1) : 0L,
                        args.size() > 2 ? text(args.get(2)) : "common");
            case "map_attribute" -> SequenceFunctions.mapAttribute(args.get(0), text(args.get(1)));
            // tests
            case "is_defined" -> args.get(0) != Undefined.INSTANCE;
            case "is_undefined" -> args.get(0) == Undefined.INSTANCE;
            case "is_none" -> args.get(0) == null;
            case "is_string" -> args.get(0) instanceof String;
            case "is_number" -> args.get(0) instanceof Number;
            case "is_integer" -> PlainValues.isInteger(args.get(0));
            case "is_float" ->
                args.get(0) instanceof Double || args.get(0) instanceof BigDecimal || args.get(0) instanceof Float;
            case "is_boolean" -> args.get(0) instanceof Boolean;
            case "is_true" -> Boolean.TRUE.equals(args.get(0));
            case "is_false" -> Boolean.FALSE.equals(args.get(0));
            case "is_mapping" -> args.get(0) instanceof Map;
            case "is_sequence" ->
                args.get(0) instanceof List || args.get(0) instanceof Map || args.get(0) instanceof String;
            case "is_odd" -> Arithmetic.integer(args.get(0), "odd").testBit(0);
            case "is_even" -> !Arithmetic.integer(args.get(0), "even").testBit(0);
            case "is_divisibleby" ->
                Arithmetic.integer(args.get(0), "divisibleby")
                                .mod(Arithmetic.integer(args.get(1), "divisibleby")
                                        .abs())
                                .signum()
                        == 0;
            // methods
            case "items" -> SequenceFunctions.items(args.get(0));
            case "keys" ->
                SequenceFunctions.newList(
                        SequenceFunctions.mapping(args.get(0), "keys").keySet());
            case "values" ->
                SequenceFunctions.newList(
                        SequenceFunctions.mapping(args.get(0), "values").values());
            case "get" -> {
                Map<?, ?> map = SequenceFunctions.mapping(args.get(0), "get");
                yield map.containsKey(args.get(1)) ? map.get(args.get(1)) : (args.size() > 2 ? args.get(2) : null);
            }
            case "startswith" -> string(args.get(0), "startswith").startsWith(string(args.get(1), "startswith"));
            case "endswith" -> string(args.get(0), "endswith").endsWith(string(args.get(1), "endswith"));
            case "split" ->
                TextFunctions.split(
                        string(args.get(0), "split"), args.size() > 1 ? args.get(1) : null, optionalInt(args, 2));
            case "str_join" -> SequenceFunctions.join(args.get(1), string(args.get(0), "join"), null);
            default -> throw new TemplateRenderException("unknown template function " + name);
        };
    }

    // ---------------------------------------------------------------- helpers

    /** Jinja's soft_str: how filters see their input as text. */
    private static String text(Object value) {
        return PlainValues.str(value);
    }

    /** The value as text, its later growth (up to {@code growth} times) charged to the budget. */
    private static String chargedText(Object value, int growth) {
        return TextFunctions.charged(text(value), growth);
    }

    private static String string(Object value, String method) {
        if (value instanceof String s) {
            return s;
        }
        throw new TemplateRenderException(
                "'" + PlainValues.typeName(value) + "' object has no method '" + method + "'");
    }

    private static Integer optionalInt(List<Object> args, int index) {
        if (args.size() <= index || args.get(index) == null) {
            return null;
        }
        return Arithmetic.integer(args.get(index), "argument").intValueExact();
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
}
