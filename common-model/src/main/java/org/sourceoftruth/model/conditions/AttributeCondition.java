package org.sourceoftruth.model.conditions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One rule: {@code {"attr": "status.value", "value": "active", "op": "eq", "negate": false}}.
 *
 * @param path  {@code attr} split on dots
 * @param value the JSON value to compare with
 * @param regex the compiled pattern when {@code op} is {@code regex}, else null
 */
public record AttributeCondition(
        String attr, List<String> path, JsonNode value, Operator op, boolean negate, Pattern regex)
        implements Condition {

    @Override
    public boolean evaluate(JsonNode data) throws ConditionEvaluationException {
        JsonNode actual = resolve(data);
        boolean result = switch (op) {
            case EQ -> PythonSemantics.pythonEquals(actual, value);
            case GT, GTE, LT, LTE -> compare(actual);
            case IN -> contains(value, actual);
            case CONTAINS -> contains(actual, value);
            case REGEX -> matchesRegex(actual);
        };
        return negate != result;
    }

    /**
     * Follows the dotted path into data. A list on the way is mapped over, so
     * {@code tags.slug} yields the list of the tags' slugs; a null on the way counts as an empty
     * object, so its keys are missing (NetBox: {@code operator.getitem(obj or {}, key)}).
     */
    private JsonNode resolve(JsonNode data) throws ConditionEvaluationException {
        JsonNode current = data;
        for (String key : path) {
            current = step(current, key);
        }
        return current;
    }

    private JsonNode step(JsonNode node, String key) throws ConditionEvaluationException {
        if (node != null && node.isArray()) {
            ArrayNode mapped = JsonNodeFactory.instance.arrayNode(node.size());
            for (JsonNode item : node) {
                mapped.add(item(item, key));
            }
            return mapped;
        }
        return item(node, key);
    }

    private JsonNode item(JsonNode node, String key) throws ConditionEvaluationException {
        if (node == null || node.isNull()) {
            throw new ConditionEvaluationException("Invalid key path: " + attr);
        }
        if (!node.isObject()) {
            throw new ConditionEvaluationException("Invalid data type at '" + attr + "' for '" + op.jsonName()
                    + "' evaluation: " + PythonSemantics.typeName(node) + " has no key '" + key + "'");
        }
        JsonNode child = node.get(key);
        if (child == null) {
            throw new ConditionEvaluationException("Invalid key path: " + attr);
        }
        return child;
    }

    private boolean compare(JsonNode actual) throws ConditionEvaluationException {
        if (!PythonSemantics.isNumeric(actual)) {
            throw typeError(actual);
        }
        int order = PythonSemantics.numericValue(actual).compareTo(PythonSemantics.numericValue(value));
        return switch (op) {
            case GT -> order > 0;
            case GTE -> order >= 0;
            case LT -> order < 0;
            case LTE -> order <= 0;
            default -> throw new IllegalStateException("not an ordering operator: " + op);
        };
    }

    /** Python's {@code needle in haystack} for a string, list or dict haystack. */
    private boolean contains(JsonNode haystack, JsonNode needle) throws ConditionEvaluationException {
        if (haystack.isTextual()) {
            if (!needle.isTextual()) {
                throw typeError(needle);
            }
            return haystack.textValue().contains(needle.textValue());
        }
        if (haystack.isArray()) {
            for (JsonNode element : haystack) {
                if (PythonSemantics.pythonEquals(element, needle)) {
                    return true;
                }
            }
            return false;
        }
        if (haystack.isObject()) {
            if (needle.isArray() || needle.isObject()) {
                throw typeError(needle); // unhashable type
            }
            return needle.isTextual() && haystack.has(needle.textValue());
        }
        throw typeError(haystack);
    }

    private boolean matchesRegex(JsonNode actual) throws ConditionEvaluationException {
        if (!actual.isTextual()) {
            throw typeError(actual);
        }
        // re.match anchors at the start only
        return regex.matcher(actual.textValue()).lookingAt();
    }

    private ConditionEvaluationException typeError(JsonNode offending) {
        return new ConditionEvaluationException("Invalid data type at '" + attr + "' for '" + op.jsonName()
                + "' evaluation: unsupported operand " + PythonSemantics.typeName(offending));
    }
}
