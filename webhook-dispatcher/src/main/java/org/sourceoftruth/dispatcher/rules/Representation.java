package org.sourceoftruth.dispatcher.rules;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An object as records-api's REST API renders it (and as its change events carry it in
 * {@code data}). A change event's data may lack fields (a truncated event, or an event that only
 * names the object): reading a field that is not there throws {@link Incomplete}, and the object
 * is then read from records-api instead.
 */
final class Representation {

    /** The representation lacks a field the dispatcher needs. */
    static final class Incomplete extends Exception {
        Incomplete(String field) {
            super("no " + field, null, false, false);
        }
    }

    private final JsonNode node;

    Representation(JsonNode node) throws Incomplete {
        if (node == null || !node.isObject() || !node.path("id").canConvertToLong()) {
            throw new Incomplete("object with an id");
        }
        this.node = node;
    }

    long id() {
        return node.get("id").asLong();
    }

    /** Text, or null when records-api renders null. */
    String text(String field) throws Incomplete {
        JsonNode value = field(field);
        return value.isNull() ? null : value.asText();
    }

    boolean bool(String field) throws Incomplete {
        return field(field).asBoolean();
    }

    /** A number, or null when records-api renders null. */
    Long number(String field) throws Incomplete {
        JsonNode value = field(field);
        return value.isNull() ? null : value.asLong();
    }

    /** A choice field, rendered {value, label} (or its plain value). */
    String choice(String field) throws Incomplete {
        JsonNode value = field(field);
        return value.isObject() ? value.path("value").asText(null) : value.isNull() ? null : value.asText();
    }

    Set<String> strings(String field) throws Incomplete {
        Set<String> values = new LinkedHashSet<>();
        field(field).forEach(value -> values.add(value.asText()));
        return Set.copyOf(values);
    }

    /** A JSON field, or null when records-api renders null. */
    JsonNode json(String field) throws Incomplete {
        JsonNode value = field(field);
        return value.isNull() ? null : value;
    }

    private JsonNode field(String field) throws Incomplete {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new Incomplete(field);
        }
        return value;
    }
}
