package org.sourceoftruth.records.web;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sourceoftruth.model.Json;

/**
 * Every request body of the API is read here, as DRF's JSONParser and serializers would take
 * it:
 * <ul>
 *   <li>one JSON document and nothing after it (else 400 "JSON parse error - Extra data: ...");
 *   <li>a syntax error is 400 {@code {"detail": "JSON parse error - <message>: line L column C
 *       (char N)"}} with Python's json wording; so are a byte order mark and DRF's strict JSON
 *       constants ({@code NaN}, {@code Infinity}). The parser's own text, which names its
 *       classes and settings, never reaches the client;
 *   <li>the parser's bounds (nesting depth, number length, field name length) are parse errors
 *       with a message of their own;
 *   <li>no NUL character in any string, which PostgreSQL cannot store (400 "Null characters are
 *       not allowed." under the field that holds it, DRF's CharField message), and no lone UTF-16
 *       surrogate ({@code "\ud800"}), which no UTF-8 text can hold (400 "Surrogate characters are
 *       not allowed: U+D800.", DRF's message). A surrogate pair is one character and is kept.
 * </ul>
 * Bytes that are not UTF-8 are refused before, when the body is decoded ({@link StrictTextBodyReader}).
 */
public final class JsonBody {
    static final String NULL_CHARACTERS = "Null characters are not allowed.";

    private static final Pattern NON_STANDARD_CONSTANT = Pattern.compile("^Non-standard token '(NaN|-?Infinity)'");

    private JsonBody() {}

    public static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            throw parseError("Expecting value", body == null ? "" : body, body == null ? 0 : body.length());
        }
        if (body.charAt(0) == '\uFEFF') {
            throw parseError("Unexpected UTF-8 BOM (decode using utf-8-sig)", body, 0);
        }
        JsonNode tree;
        long end;
        try (JsonParser parser = Json.MAPPER.createParser(body)) {
            tree = Json.MAPPER.readTree(parser);
            end = parser.currentLocation().getCharOffset();
        } catch (JsonProcessingException e) {
            if (e instanceof StreamConstraintsException
                    || String.valueOf(e.getOriginalMessage()).contains("StreamReadConstraints")) {
                throw ApiException.detail(400, "JSON parse error - " + exceededBound(e));
            }
            Matcher constant = NON_STANDARD_CONSTANT.matcher(String.valueOf(e.getOriginalMessage()));
            if (constant.find()) {
                // DRF's JSONParser is strict: Python's json reads these constants, DRF refuses them
                // (a ValueError of its own, without a position)
                throw ApiException.detail(
                        400,
                        "JSON parse error - Out of range float values are not JSON compliant: '" + constant.group(1)
                                + "'");
            }
            JsonLocation at = e.getLocation();
            long offset = at == null ? 0 : Math.max(0, at.getCharOffset());
            throw parseError(pythonWording(e.getOriginalMessage()), body, (int) Math.min(offset, body.length()));
        } catch (IOException e) {
            throw parseError("Expecting value", body, 0);
        }
        refuseTrailingContent(body, (int) Math.max(0, end));
        refuseUnstorableCharacters(tree);
        return tree;
    }

    /**
     * The message Python's json module gives for the parser's complaint. Jackson's messages are
     * matched here only to pick a wording; none of their text is passed on.
     */
    static String pythonWording(String jackson) {
        String m = jackson == null ? "" : jackson;
        if (m.contains("double-quote to start field name")) {
            return "Expecting property name enclosed in double quotes";
        }
        if (m.contains("was expecting comma") || m.contains("expected close marker")) {
            return "Expecting ',' delimiter";
        }
        if (m.contains("was expecting a colon")) {
            return "Expecting ':' delimiter";
        }
        if (m.contains("closing quote for a string value")) {
            return "Unterminated string starting at";
        }
        if (m.contains("Illegal unquoted character")) {
            return "Invalid control character at";
        }
        if (m.contains("hex-digit for character escape")) {
            return "Invalid \\uXXXX escape";
        }
        if (m.contains("Unrecognized character escape")) {
            return "Invalid \\escape";
        }
        return "Expecting value";
    }

    /** One of the parser's bounds ({@code StreamReadConstraints}), said without its names. */
    private static String exceededBound(JsonProcessingException e) {
        String m = String.valueOf(e.getOriginalMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("nesting depth")) {
            return "Maximum nesting depth exceeded: objects and arrays may nest at most 1000 levels deep.";
        }
        if (m.contains("number value length")) {
            return "Number too long: a number may have at most 1000 characters.";
        }
        if (m.contains("name length")) {
            return "Property name too long: a name may have at most 50000 characters.";
        }
        return "The document exceeds the size the API reads.";
    }

    /** Anything but white space after the document is Python's "Extra data" error. */
    private static void refuseTrailingContent(String body, int from) {
        for (int i = from; i < body.length(); i++) {
            if (!Character.isWhitespace(body.charAt(i))) {
                throw parseError("Extra data", body, i);
            }
        }
    }

    /**
     * A NUL or a lone surrogate in any string (or key) of an object is reported under the
     * object's top-level field; in a list of objects, per item as bulk errors are
     * ({@code [{}, {"name": [...]}]}).
     */
    private static void refuseUnstorableCharacters(JsonNode tree) {
        if (!containsUnstorable(tree)) {
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
            ArrayNode messages = Json.MAPPER.createArrayNode();
            describe(e.getKey(), e.getValue(), messages);
            if (!messages.isEmpty()) {
                errors.set(printable(e.getKey()), messages);
            }
        }
        return errors;
    }

    private static ObjectNode itemError(JsonNode item) {
        ObjectNode errors = Json.MAPPER.createObjectNode();
        ArrayNode messages = Json.MAPPER.createArrayNode();
        describe("", item, messages);
        if (!messages.isEmpty()) {
            errors.set("non_field_errors", messages);
        }
        return errors;
    }

    /** DRF's CharField messages for the first NUL and the first lone surrogate under a field. */
    private static void describe(String key, JsonNode value, ArrayNode messages) {
        int[] found = {-1, -1}; // found[0]: 1 once a NUL is seen; found[1]: the first lone surrogate
        scan(key, found);
        scanTree(value, found);
        if (found[0] > 0) {
            messages.add(NULL_CHARACTERS);
        }
        if (found[1] >= 0) {
            messages.add("Surrogate characters are not allowed: U+"
                    + Integer.toHexString(found[1]).toUpperCase(Locale.ROOT) + ".");
        }
    }

    private static void scanTree(JsonNode node, int[] found) {
        if (node.isTextual()) {
            scan(node.textValue(), found);
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                scan(e.getKey(), found);
                scanTree(e.getValue(), found);
            }
        } else if (node.isArray()) {
            node.forEach(item -> scanTree(item, found));
        }
    }

    private static void scan(String s, int[] found) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\0') {
                found[0] = 1;
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++; // a pair: one supplementary character
                } else if (found[1] < 0) {
                    found[1] = c;
                }
            }
        }
    }

    private static boolean containsUnstorable(JsonNode tree) {
        int[] found = {-1, -1};
        scanTree(tree, found);
        return found[0] > 0 || found[1] >= 0;
    }

    /** A key as an error body can carry it: without NULs, a lone surrogate shown as U+FFFD. */
    private static String printable(String key) {
        StringBuilder sb = new StringBuilder(key.length());
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '\0') {
                continue;
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c)
                        && i + 1 < key.length()
                        && Character.isLowSurrogate(key.charAt(i + 1))) {
                    sb.append(c).append(key.charAt(++i));
                } else {
                    sb.append('\uFFFD');
                }
                continue;
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** Python's "<message>: line L column C (char N)", N counting characters from 0. */
    private static ApiException parseError(String message, String body, int at) {
        int line = 1;
        int lineStart = 0;
        for (int k = 0; k < at; k++) {
            if (body.charAt(k) == '\n') {
                line++;
                lineStart = k + 1;
            }
        }
        return ApiException.detail(
                400,
                "JSON parse error - " + message + ": line " + line + " column " + (at - lineStart + 1) + " (char " + at
                        + ")");
    }
}
