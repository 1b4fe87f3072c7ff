package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MultivaluedMap;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * A model's form from its writable fields, and a submitted form as the API's JSON body: text
 * and numbers as inputs, choices and relations as selects (a relation's options from
 * {@link RelationOptions}), many-to-many and tags as multiple selects, JSON and custom fields as
 * text areas, a generic relation as its type and id. A value that does not parse is handed on
 * as it was typed, so the engine's own validation names the field.
 */
@ApplicationScoped
class FormFields {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Inject
    ModelRegistry registry;

    @Inject
    RelationOptions relations;

    /** The fields the form shows: writable, not uploaded files. */
    static List<Field> writable(Model model) {
        List<Field> out = new ArrayList<>();
        for (Field f : model.fields()) {
            if (f.isWritable() && f.kind != Kind.IMAGE && !f.isRequestOnly()) {
                out.add(f);
            }
        }
        return out;
    }

    /** The inputs, filled from the object's API representation (or the defaults when it is null). */
    List<FormInput> inputs(Model model, JsonNode object) {
        List<FormInput> out = new ArrayList<>();
        for (Field f : writable(model)) {
            JsonNode v = object == null ? f.defaultValue() : object.get(f.name);
            out.addAll(inputs(model, f, v, object));
        }
        return out;
    }

    private List<FormInput> inputs(Model model, Field f, JsonNode v, JsonNode object) {
        return switch (f.kind) {
            case BOOLEAN -> List.of(input(f, "checkbox", v != null && v.asBoolean() ? "on" : "", null, false));
            case CHOICE ->
                List.of(input(
                        f, "select", null, FilterForm.options(f.choices(), v == null ? null : choiceValue(v)), false));
            case FK -> {
                List<Long> ids = new ArrayList<>();
                if (v != null && v.isObject()) {
                    ids.add(v.path("id").asLong());
                } else if (v != null && v.isIntegralNumber()) {
                    ids.add(v.asLong());
                }
                yield List.of(relation(f, ids, v, false));
            }
            case M2M, TAGS -> {
                List<Long> ids = new ArrayList<>();
                if (v != null && v.isArray()) {
                    v.forEach(item -> ids.add(item.isObject() ? item.path("id").asLong() : item.asLong()));
                }
                yield List.of(relation(f, ids, v, true));
            }
            case JSON, CUSTOM_FIELDS ->
                List.of(input(f, "textarea", v == null || v.isNull() ? "" : v.toPrettyString(), null, false));
            case STRING_LIST, INTEGER_LIST -> List.of(input(f, "text", joined(v), null, false));
            case INTEGER, DECIMAL -> List.of(input(f, "number", text(v), null, false));
            case DATE -> List.of(input(f, "date", text(v), null, false));
            case GENERIC_FK -> genericInputs(model, f, object);
            default ->
                List.of(input(
                        f,
                        f.isWriteOnly() || f.isSecret() ? "password" : "text",
                        f.isWriteOnly() ? "" : text(v),
                        null,
                        false));
        };
    }

    private FormInput input(Field f, String type, String value, List<FilterForm.Option> options, boolean multiple) {
        return new FormInput(
                f.name, f.label(), type, value, options, multiple, f.isRequired(), f.helpText(), null, null);
    }

    private FormInput relation(Field f, List<Long> selected, JsonNode current, boolean multiple) {
        String target = f.kind == Kind.TAGS ? "extras.tag" : f.target();
        Optional<Model> model = target == null ? Optional.empty() : registry.byContentType(target);
        if (model.isEmpty()) {
            return input(f, "text", joinedIds(selected), null, false);
        }
        List<FilterForm.Option> options = relations.options(model.get(), null, selected, current, !multiple);
        if (options == null) { // the caller may not list the target: the id itself
            return input(f, "text", joinedIds(selected), null, false);
        }
        return new FormInput(
                f.name,
                f.label(),
                "select",
                null,
                options,
                multiple,
                f.isRequired(),
                f.helpText(),
                UiPaths.list(model.get()) + "options/?field=" + f.name + (multiple ? "" : "&empty=1"),
                null);
    }

    /** A generic relation's pair (assigned_object_type, assigned_object_id), unless the model declares them as fields. */
    private List<FormInput> genericInputs(Model model, Field f, JsonNode object) {
        if (model.field(f.genericTypeColumn()) != null) {
            return List.of();
        }
        String type = object == null ? "" : text(object.get(f.genericTypeColumn()));
        String id = object == null ? "" : text(object.get(f.genericIdColumn()));
        List<FilterForm.Option> types = null;
        if (!f.genericTypes().isEmpty()) {
            types = new ArrayList<>();
            types.add(new FilterForm.Option("", "—", type.isEmpty()));
            for (String t : f.genericTypes()) {
                types.add(new FilterForm.Option(t, t, t.equals(type)));
            }
        }
        return List.of(
                new FormInput(
                        f.genericTypeColumn(),
                        f.label() + " type",
                        types == null ? "text" : "select",
                        type,
                        types,
                        false,
                        false,
                        null,
                        null,
                        null),
                new FormInput(
                        f.genericIdColumn(), f.label() + " ID", "number", id, null, false, false, null, null, null));
    }

    /** The submitted form as the API's body (fields the form does not show are left out: a partial update). */
    ObjectNode payload(Model model, MultivaluedMap<String, String> form) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        for (Field f : writable(model)) {
            if (f.kind == Kind.GENERIC_FK) {
                if (model.field(f.genericTypeColumn()) == null && form.containsKey(f.genericTypeColumn())) {
                    String type = form.getFirst(f.genericTypeColumn());
                    String id = form.getFirst(f.genericIdColumn());
                    body.set(
                            f.genericTypeColumn(),
                            type == null || type.isBlank() ? NODES.nullNode() : NODES.textNode(type));
                    body.set(f.genericIdColumn(), id == null || id.isBlank() ? NODES.nullNode() : number(id));
                }
                continue;
            }
            if (f.kind == Kind.BOOLEAN) {
                if (form.containsKey("_present_" + f.name)) {
                    body.put(f.name, form.containsKey(f.name));
                }
                continue;
            }
            if (!form.containsKey(f.name) && f.kind != Kind.M2M && f.kind != Kind.TAGS) {
                continue;
            }
            List<String> values = form.get(f.name) == null ? List.of() : form.get(f.name);
            String raw = values.isEmpty() ? "" : values.get(0).strip();
            switch (f.kind) {
                case M2M, TAGS -> {
                    if (form.containsKey("_present_" + f.name)) {
                        ArrayNode ids = body.putArray(f.name);
                        values.stream().filter(s -> !s.isBlank()).forEach(s -> ids.add(number(s)));
                    }
                }
                case FK -> body.set(f.name, raw.isEmpty() ? NODES.nullNode() : number(raw));
                case INTEGER, DECIMAL -> body.set(f.name, raw.isEmpty() ? NODES.nullNode() : number(raw));
                case JSON, CUSTOM_FIELDS ->
                    body.set(
                            f.name,
                            raw.isEmpty()
                                    ? (f.kind == Kind.CUSTOM_FIELDS ? body.objectNode() : NODES.nullNode())
                                    : json(raw));
                case STRING_LIST, INTEGER_LIST -> {
                    ArrayNode items = body.putArray(f.name);
                    for (String part : raw.split(",")) {
                        if (!part.isBlank()) {
                            items.add(
                                    f.kind == Kind.INTEGER_LIST ? number(part.strip()) : NODES.textNode(part.strip()));
                        }
                    }
                }
                case CHOICE, DATE, DATETIME, INET, CIDR ->
                    body.set(f.name, raw.isEmpty() && f.isNullable() ? NODES.nullNode() : NODES.textNode(raw));
                default -> {
                    if (f.isWriteOnly() && raw.isEmpty()) {
                        continue; // a password left empty stays as it is
                    }
                    body.set(
                            f.name, raw.isEmpty() && f.isNullable() ? NODES.nullNode() : NODES.textNode(values.get(0)));
                }
            }
        }
        return body;
    }

    private static JsonNode number(String raw) {
        try {
            BigDecimal n = new BigDecimal(raw.strip());
            return n.scale() <= 0 ? NODES.numberNode(n.toBigIntegerExact()) : NODES.numberNode(n);
        } catch (NumberFormatException | ArithmeticException e) {
            return NODES.textNode(raw);
        }
    }

    private static JsonNode json(String raw) {
        try {
            return Json.MAPPER.readTree(raw);
        } catch (java.io.IOException e) {
            return NODES.textNode(raw);
        }
    }

    private static String choiceValue(JsonNode v) {
        return v.isObject() ? text(v.get("value")) : text(v);
    }

    private static String text(JsonNode v) {
        return v == null || v.isNull() ? "" : v.isValueNode() ? v.asText() : v.toString();
    }

    private static String joined(JsonNode v) {
        if (v == null || !v.isArray()) {
            return text(v);
        }
        StringBuilder out = new StringBuilder();
        v.forEach(item -> out.append(out.isEmpty() ? "" : ", ").append(item.asText()));
        return out.toString();
    }

    private static String joinedIds(List<Long> ids) {
        StringBuilder out = new StringBuilder();
        ids.forEach(id -> out.append(out.isEmpty() ? "" : ",").append(id));
        return out.toString();
    }
}
