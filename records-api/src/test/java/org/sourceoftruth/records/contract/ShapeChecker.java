package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Does a rendered value have the shape the contract gives its field? Types are the contract's:
 * {@code integer}, {@code number}, {@code string} (with date/date-time formats parsed),
 * {@code boolean}, {@code object}, {@code any}, {@code array[:...]}, {@code choice{value,label}}
 * with the allowed values, {@code nested:<Schema>} (an object carrying the fields of that brief
 * or full schema, checked one level deeper). {@code null} is fine only where the field is nullable.
 */
final class ShapeChecker {
    private static final int MAX_DEPTH = 2;
    private final Contract contract;

    ShapeChecker(Contract contract) {
        this.contract = contract;
    }

    /** Null when {@code value} (null if the key is absent) fits {@code spec}, else what is wrong. */
    String problem(JsonNode value, JsonNode spec) {
        return problem(value, spec, 0);
    }

    /**
     * A choice field that may be blank: NetBox's ChoiceField renders the blank value as null
     * (netbox/api/fields.py, to_representation) though its schema does not say nullable.
     */
    private static boolean blankChoice(JsonNode spec) {
        if (!spec.path("type").asText().equals("choice{value,label}")) {
            return false;
        }
        for (JsonNode c : spec.path("choices")) {
            if (c.isTextual() && c.asText().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private String problem(JsonNode value, JsonNode spec, int depth) {
        if (value == null || value.isMissingNode()) {
            return "missing";
        }
        String type = spec.path("type").asText();
        if (value.isNull()) {
            return spec.path("null").asBoolean() || type.equals("any") || blankChoice(spec)
                    ? null
                    : "null but not nullable";
        }
        if (type.startsWith("nested:")) {
            return nested(
                    value,
                    type.substring("nested:".length()),
                    spec.path("endpoint").asText(null),
                    depth);
        }
        if (type.startsWith("array")) {
            return array(value, type, spec, depth);
        }
        return switch (type) {
            case "integer" -> value.isIntegralNumber() ? null : expected("integer", value);
            case "number" -> value.isNumber() ? null : expected("number", value);
            case "boolean" -> value.isBoolean() ? null : expected("boolean", value);
            case "object" -> value.isObject() ? null : expected("object", value);
            case "any" -> null;
            case "string" ->
                value.isTextual() ? format(value.asText(), spec.path("format").asText()) : expected("string", value);
            case "choice{value,label}" -> choice(value, spec);
            default -> "unknown contract type " + type;
        };
    }

    private static String expected(String type, JsonNode value) {
        return "expected " + type + ", got " + value.getNodeType().name().toLowerCase() + " " + abbreviate(value);
    }

    static String abbreviate(JsonNode value) {
        String s = value.toString();
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }

    private static String format(String text, String format) {
        try {
            switch (format) {
                case "date-time" -> OffsetDateTime.parse(text);
                case "date" -> LocalDate.parse(text);
                default -> {}
            }
            return null;
        } catch (RuntimeException e) {
            return "not a " + format + ": " + text;
        }
    }

    private static String choice(JsonNode value, JsonNode spec) {
        if (!value.isObject() || !value.has("value") || !value.has("label")) {
            return "expected {value,label}, got " + abbreviate(value);
        }
        JsonNode v = value.get("value");
        for (JsonNode c : spec.path("choices")) {
            if (c.isNull() ? v.isNull() : c.asText().equals(v.asText()) && !v.isNull()) {
                return null;
            }
        }
        if (v.isNull() && spec.path("null").asBoolean()) {
            return null;
        }
        return "choice value " + v + " not one of " + spec.path("choices");
    }

    private String array(JsonNode value, String type, JsonNode spec, int depth) {
        if (!value.isArray()) {
            return expected("array", value);
        }
        if (value.isEmpty() || type.equals("array")) {
            return null;
        }
        String element = type.substring("array:".length());
        JsonNode elementSpec = spec.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) elementSpec)
                .put("type", element)
                .remove("null");
        String p = problem(value.get(0), elementSpec, depth);
        return p == null ? null : "[0]: " + p;
    }

    /**
     * A read-only {@code *_count}: in NetBox an annotation of the list/detail query, which a
     * related object rendered nested does not carry, so DRF leaves the key out (the OpenAPI
     * document lists it anyway). Counter-cache counts are real columns and do appear; the
     * engine declares which is which (Field.NestedCount). Absent in a nested object is fine.
     */
    private static boolean isAnnotatedCount(String name, JsonNode spec) {
        return name.endsWith("_count")
                && spec.path("ro").asBoolean()
                && spec.path("type").asText().equals("integer");
    }

    private String nested(JsonNode value, String schema, String endpoint, int depth) {
        if (schema.equals("IntegerRange")) {
            // NetBox's IntegerRangeSerializer renders [lower, upper], whatever its OpenAPI says
            return value.isArray() && value.size() == 2 && value.get(0).isIntegralNumber()
                    ? null
                    : expected("[lower, upper]", value);
        }
        if (!value.isObject()) {
            return expected("object (" + schema + ")", value);
        }
        Map<String, JsonNode> fields = contract.fieldsOfSchema(schema, endpoint);
        if (fields == null) {
            return value.size() > 0 ? null : "empty object for " + schema;
        }
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, JsonNode> f : fields.entrySet()) {
            JsonNode v = value.get(f.getKey());
            if (v == null && isAnnotatedCount(f.getKey(), f.getValue())) {
                continue;
            }
            String p = depth + 1 >= MAX_DEPTH ? (v == null ? "missing" : null) : problem(v, f.getValue(), depth + 1);
            if (p != null) {
                wrong.add(f.getKey() + ": " + p);
            }
        }
        return wrong.isEmpty() ? null : schema + " {" + String.join("; ", wrong) + "}";
    }
}
