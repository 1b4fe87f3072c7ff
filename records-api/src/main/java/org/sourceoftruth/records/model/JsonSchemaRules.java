package org.sourceoftruth.records.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON Schema documents as NetBox uses them (module type profiles' and config context profiles'
 * {@code schema}, NetBox 4.3+): a schema must be a JSON Schema document with properties, and data
 * it governs must validate against it, reported with python-jsonschema's words as NetBox reports
 * them. Validation uses networknt's json-schema-validator, the schema's own {@code $schema} dialect
 * or draft 2020-12 as python-jsonschema's validator_for defaults to it; no remote reference is
 * ever fetched.
 */
public final class JsonSchemaRules {
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private JsonSchemaRules() {}

    /** NetBox's validate_schema on a profile's schema (skipped when unset or empty, as Django skips validators). */
    public static void schemaField(Row row, Map<String, List<String>> errors) {
        Object value = row.get("schema");
        if (!(value instanceof JsonNode schema) || schema.isNull() || schema.isEmpty() && !schema.isValueNode()) {
            return;
        }
        String problem = null;
        if (!schema.isObject()) {
            problem = "Invalid JSON schema definition";
        } else if (!schema.hasNonNull("properties") || schema.get("properties").isEmpty()) {
            problem = "JSON schema must define properties";
        } else {
            String invalid = definitionProblem(schema);
            if (invalid != null) {
                problem = "Invalid JSON schema definition: " + invalid;
            }
        }
        if (problem != null) {
            errors.computeIfAbsent("schema", k -> new ArrayList<>()).add(problem);
        }
    }

    /**
     * NetBox's validate_schema (utilities/jsonschema.py) on any schema field, such as a custom
     * field's {@code validation_schema}: the message when {@code schema} is no JSON Schema
     * document (not an object, or one its dialect's meta-schema refuses), else null.
     */
    public static String definitionProblemOf(JsonNode schema) {
        if (!schema.isObject()) {
            return "Invalid JSON schema definition";
        }
        JsonNode type = schema.get("type");
        if (type != null && !validType(type)) {
            return "Invalid JSON schema definition: " + pyRepr(type) + " is not valid under any of the given schemas";
        }
        JsonNode required = schema.get("required");
        if (required != null && !required.isArray()) {
            return "Invalid JSON schema definition: " + pyRepr(required) + " is not of type 'array'";
        }
        if (schema.has("properties")) {
            String invalid = definitionProblem(schema);
            return invalid == null ? null : "Invalid JSON schema definition: " + invalid;
        }
        try {
            SCHEMAS.getSchema(schema).validate(JsonNodeFactory.instance.nullNode());
            return null;
        } catch (RuntimeException e) {
            return "Invalid JSON schema definition: "
                    + (e.getMessage() == null ? "the schema cannot be compiled" : e.getMessage());
        }
    }

    /**
     * Why the document is no usable JSON schema, or null: it must compile, and the keywords
     * NetBox's users get wrong most (types, properties, required) must have their meta-schema's shape.
     */
    private static String definitionProblem(JsonNode schema) {
        if (!schema.get("properties").isObject()) {
            return pyRepr(schema.get("properties")) + " is not of type 'object'";
        }
        Iterator<Map.Entry<String, JsonNode>> props = schema.get("properties").fields();
        while (props.hasNext()) {
            Map.Entry<String, JsonNode> prop = props.next();
            JsonNode p = prop.getValue();
            if (!p.isObject() && !p.isBoolean()) {
                return pyRepr(p) + " is not of type 'object', 'boolean'";
            }
            JsonNode type = p.get("type");
            if (type != null && !validType(type)) {
                return pyRepr(type) + " is not valid under any of the given schemas";
            }
        }
        JsonNode required = schema.get("required");
        if (required != null && !required.isArray()) {
            return pyRepr(required) + " is not of type 'array'";
        }
        try {
            SCHEMAS.getSchema(schema).validate(JsonNodeFactory.instance.objectNode());
            return null;
        } catch (RuntimeException e) {
            return e.getMessage() == null ? "the schema cannot be compiled" : e.getMessage();
        }
    }

    private static final List<String> TYPES =
            List.of("array", "boolean", "integer", "null", "number", "object", "string");

    private static boolean validType(JsonNode type) {
        if (type.isTextual()) {
            return TYPES.contains(type.asText());
        }
        if (!type.isArray() || type.isEmpty()) {
            return false;
        }
        for (JsonNode t : type) {
            if (!t.isTextual() || !TYPES.contains(t.asText())) {
                return false;
            }
        }
        return true;
    }

    /** The first way {@code instance} breaks {@code schema} in python-jsonschema's words, or null when it validates. */
    public static String violation(JsonNode schema, JsonNode instance) {
        if (schema == null || schema.isNull() || schema.isEmpty()) {
            return null;
        }
        List<Error> problems;
        try {
            Schema compiled = SCHEMAS.getSchema(schema);
            problems = compiled.validate(instance == null ? JsonNodeFactory.instance.nullNode() : instance);
        } catch (RuntimeException e) {
            problems = List.of();
        }
        return problems.isEmpty() ? null : message(problems.get(0));
    }

    /** python-jsonschema's message for the failures NetBox's schemas produce; networknt's otherwise. */
    private static String message(Error error) {
        JsonNode instance = error.getInstanceNode();
        JsonNode schema = error.getSchemaNode();
        String keyword = error.getKeyword() == null ? "" : error.getKeyword();
        return switch (keyword) {
            case "required" -> "'" + error.getProperty() + "' is a required property";
            case "type" -> pyRepr(instance) + " is not of type " + typeList(schema);
            case "enum" -> pyRepr(instance) + " is not one of " + pyRepr(schema);
            case "const" -> pyRepr(schema) + " was expected";
            case "minimum" -> pyRepr(instance) + " is less than the minimum of " + pyRepr(schema);
            case "maximum" -> pyRepr(instance) + " is greater than the maximum of " + pyRepr(schema);
            case "exclusiveMinimum" -> pyRepr(instance) + " is less than or equal to the minimum of " + pyRepr(schema);
            case "exclusiveMaximum" ->
                pyRepr(instance) + " is greater than or equal to the maximum of " + pyRepr(schema);
            case "minLength" -> pyRepr(instance) + " is too short";
            case "maxLength" -> pyRepr(instance) + " is too long";
            case "pattern" -> pyRepr(instance) + " does not match " + pyRepr(schema);
            case "additionalProperties" ->
                "Additional properties are not allowed ('" + error.getProperty() + "' was unexpected)";
            default -> error.getMessage();
        };
    }

    private static String typeList(JsonNode schema) {
        if (schema != null && schema.isArray()) {
            List<String> names = new ArrayList<>();
            schema.forEach(t -> names.add("'" + t.asText() + "'"));
            return String.join(", ", names);
        }
        return schema == null ? "''" : "'" + schema.asText() + "'";
    }

    /** A JSON value as Python's repr() prints it after json.loads: 'text', True, None, [1, 2], {'a': 1}. */
    public static String pyRepr(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "None";
        }
        if (v.isTextual()) {
            return "'" + v.asText().replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
        if (v.isBoolean()) {
            return v.booleanValue() ? "True" : "False";
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(i -> items.add(pyRepr(i)));
            return "[" + String.join(", ", items) + "]";
        }
        if (v.isObject()) {
            List<String> items = new ArrayList<>();
            v.fields().forEachRemaining(e -> items.add("'" + e.getKey() + "': " + pyRepr(e.getValue())));
            return "{" + String.join(", ", items) + "}";
        }
        return v.asText();
    }
}
