package org.sourceoftruth.model.conditions;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

/**
 * The few Python rules NetBox's condition code relies on, applied to JSON values: {@code ==}
 * across int/float/bool, ordering of numbers, and the type names used in error messages.
 */
final class PythonSemantics {

    private PythonSemantics() {}

    /** Python's {@code type(value)} as NetBox prints it in messages, e.g. {@code <class 'str'>}. */
    static String typeName(JsonNode value) {
        String name;
        if (value == null || value.isNull() || value.isMissingNode()) {
            name = "NoneType";
        } else if (value.isTextual()) {
            name = "str";
        } else if (value.isBoolean()) {
            name = "bool";
        } else if (value.isIntegralNumber()) {
            name = "int";
        } else if (value.isNumber()) {
            name = "float";
        } else if (value.isArray()) {
            name = "list";
        } else if (value.isObject()) {
            name = "dict";
        } else {
            name = value.getNodeType().name().toLowerCase();
        }
        return "<class '" + name + "'>";
    }

    /** Numbers and booleans take part in numeric comparison (bool is a subclass of int). */
    static boolean isNumeric(JsonNode value) {
        return value != null && (value.isNumber() || value.isBoolean());
    }

    static BigDecimal numericValue(JsonNode value) {
        if (value.isBoolean()) {
            return value.booleanValue() ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        return value.decimalValue();
    }

    /** Python {@code a == b} for values decoded from JSON. */
    static boolean pythonEquals(JsonNode a, JsonNode b) {
        boolean aNull = a == null || a.isNull();
        boolean bNull = b == null || b.isNull();
        if (aNull || bNull) {
            return aNull && bNull;
        }
        if (isNumeric(a) && isNumeric(b)) {
            return numericValue(a).compareTo(numericValue(b)) == 0;
        }
        if (a.isTextual() && b.isTextual()) {
            return a.textValue().equals(b.textValue());
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!pythonEquals(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (!b.has(field.getKey()) || !pythonEquals(field.getValue(), b.get(field.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }
}
