package org.sourceoftruth.model.template;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names a template may use (Jinja's filters, tests and str/dict methods) and the function
 * each one calls, with its parameters: what the expression parser checks calls against before
 * anything runs. The functions themselves are {@link TemplateFunctions}.
 */
final class FunctionSpecs {

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

    private FunctionSpecs() {}

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
}
