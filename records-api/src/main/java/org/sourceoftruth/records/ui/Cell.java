package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One value as a page shows it, from its API representation: a related object is a link to its
 * page (its {@code display_url}, made relative), a choice its label, a list its items, JSON
 * objects and lists of scalars their text.
 */
@TemplateData
public record Cell(String text, String href, List<Cell> items, String color, boolean empty, boolean block) {
    private static final Cell EMPTY = new Cell("—", null, List.of(), null, true, false);

    static Cell of(JsonNode v) {
        if (v == null
                || v.isNull()
                || v.isMissingNode()
                || (v.isTextual() && v.asText().isEmpty())) {
            return EMPTY;
        }
        if (v.isObject()) {
            if (v.has("display")) {
                return new Cell(
                        v.path("display").asText(), relative(v.path("display_url")), List.of(), color(v), false, false);
            }
            if (v.has("value") && v.has("label")) {
                return new Cell(v.path("label").asText(), null, List.of(), color(v), false, false);
            }
            return v.isEmpty() ? EMPTY : new Cell(v.toPrettyString(), null, List.of(), null, false, true);
        }
        if (v.isArray()) {
            if (v.isEmpty()) {
                return EMPTY;
            }
            boolean objects = v.get(0).isObject() && v.get(0).has("display");
            if (!objects) {
                return new Cell(scalars(v), null, List.of(), null, false, false);
            }
            List<Cell> items = new ArrayList<>();
            v.forEach(item -> items.add(of(item)));
            return new Cell("", null, items, null, false, false);
        }
        if (v.isBoolean()) {
            return new Cell(v.asBoolean() ? "Yes" : "No", null, List.of(), null, false, false);
        }
        return new Cell(v.asText(), null, List.of(), null, false, false);
    }

    /** A link to a page of this interface. */
    static Cell link(String text, String href) {
        return new Cell(text, href, List.of(), null, false, false);
    }

    static Cell text(String text) {
        return text == null || text.isEmpty() ? EMPTY : new Cell(text, null, List.of(), null, false, false);
    }

    /** The values of a custom_fields object, by name. */
    static Map<String, Cell> fields(JsonNode object) {
        Map<String, Cell> out = new java.util.LinkedHashMap<>();
        if (object != null && object.isObject()) {
            object.fields().forEachRemaining(e -> out.put(e.getKey(), of(e.getValue())));
        }
        return out;
    }

    /** The path of an absolute display_url on this site (links stay on the host the page came from). */
    static String relative(JsonNode url) {
        if (url == null || !url.isTextual()) {
            return null;
        }
        String u = url.asText();
        int scheme = u.indexOf("://");
        if (scheme < 0) {
            return u;
        }
        int slash = u.indexOf('/', scheme + 3);
        return slash < 0 ? "/" : u.substring(slash);
    }

    private static String color(JsonNode v) {
        JsonNode c = v.path("color");
        return c.isTextual() && c.asText().matches("[0-9a-fA-F]{6}") ? c.asText() : null;
    }

    private static String scalars(JsonNode v) {
        StringBuilder out = new StringBuilder();
        v.forEach(item ->
                out.append(out.isEmpty() ? "" : ", ").append(item.isValueNode() ? item.asText() : item.toString()));
        return out.toString();
    }
}
