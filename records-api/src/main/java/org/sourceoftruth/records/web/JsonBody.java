package org.sourceoftruth.records.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import org.sourceoftruth.model.Json;

/**
 * Every request body of the API is read here, as DRF's JSONParser and serializers would take
 * it: one JSON document and nothing after it (else 400 "JSON parse error - Extra data: ...",
 * Python's message), and no NUL character in any string, which PostgreSQL cannot store (400
 * "Null characters are not allowed." under the field that holds it, DRF's CharField message).
 */
public final class JsonBody {
    static final String NULL_CHARACTERS = "Null characters are not allowed.";

    private JsonBody() {}

    public static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            throw parseError("Expecting value: line 1 column 1 (char 0)");
        }
        JsonNode tree;
        long end;
        try (JsonParser parser = Json.MAPPER.createParser(body)) {
            tree = Json.MAPPER.readTree(parser);
            end = parser.currentLocation().getCharOffset();
        } catch (JsonProcessingException e) {
            throw parseError(e.getOriginalMessage());
        } catch (IOException e) {
            throw parseError("Expecting value: line 1 column 1 (char 0)");
        }
        refuseTrailingContent(body, (int) Math.max(0, end));
        refuseNullCharacters(tree);
        return tree;
    }

    /** Anything but white space after the document is Python's "Extra data" error. */
    private static void refuseTrailingContent(String body, int from) {
        for (int i = from; i < body.length(); i++) {
            if (!Character.isWhitespace(body.charAt(i))) {
                int line = 1;
                int lineStart = 0;
                for (int k = 0; k < i; k++) {
                    if (body.charAt(k) == '\n') {
                        line++;
                        lineStart = k + 1;
                    }
                }
                throw parseError("Extra data: line " + line + " column " + (i - lineStart + 1) + " (char " + i + ")");
            }
        }
    }

    /**
     * NUL in any string (or key) of an object is reported under the object's top-level field;
     * in a list of objects, per item as bulk errors are ({@code [{}, {"name": [...]}]}).
     */
    private static void refuseNullCharacters(JsonNode tree) {
        if (!containsNul(tree)) {
            return;
        }
        if (tree.isArray()) {
            ArrayNode items = Json.MAPPER.createArrayNode();
            tree.forEach(item -> items.add(item.isObject() ? fieldErrors((ObjectNode) item) : itemError(item)));
            throw new ApiException(400, items);
        }
        throw new ApiException(400, tree.isObject() ? fieldErrors((ObjectNode) tree) : itemError(tree));
    }

    private static ObjectNode fieldErrors(ObjectNode object) {
        ObjectNode errors = Json.MAPPER.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().indexOf('\0') >= 0 || containsNul(e.getValue())) {
                errors.putArray(e.getKey().replace("\0", "")).add(NULL_CHARACTERS);
            }
        }
        return errors;
    }

    private static ObjectNode itemError(JsonNode item) {
        ObjectNode errors = Json.MAPPER.createObjectNode();
        if (containsNul(item)) {
            errors.putArray("non_field_errors").add(NULL_CHARACTERS);
        }
        return errors;
    }

    private static boolean containsNul(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue().indexOf('\0') >= 0;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().indexOf('\0') >= 0 || containsNul(e.getValue())) {
                    return true;
                }
            }
            return false;
        }
        if (node.isArray()) {
            for (JsonNode item : node) {
                if (containsNul(item)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static ApiException parseError(String message) {
        return ApiException.detail(400, "JSON parse error - " + message);
    }
}
