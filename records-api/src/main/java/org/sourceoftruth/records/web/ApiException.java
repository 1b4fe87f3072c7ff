package org.sourceoftruth.records.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.model.Json;

/**
 * An HTTP error with NetBox's JSON body. Thrown anywhere in a request; a write transaction it
 * crosses is rolled back, so a rejected request changes nothing.
 */
public class ApiException extends RuntimeException {
    private final int status;
    private final transient JsonNode body;
    private final java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();

    public ApiException(int status, JsonNode body) {
        super(body.toString(), null, false, false);
        this.status = status;
        this.body = body;
    }

    public int status() {
        return status;
    }

    public JsonNode body() {
        return body;
    }

    /** Extra response headers (e.g. the current ETag on a 412). */
    public java.util.Map<String, String> headers() {
        return headers;
    }

    public ApiException withHeader(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public static ApiException detail(int status, String detail) {
        ObjectNode node = Json.MAPPER.createObjectNode().put("detail", detail);
        return new ApiException(status, node);
    }

    public static ApiException notFound() {
        return detail(404, "Not found.");
    }

    public static ApiException forbidden() {
        return detail(403, "You do not have permission to perform this action.");
    }

    /** 400 {field: [message]}. */
    public static ApiException field(String field, String message) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.putArray(field).add(message);
        return new ApiException(400, node);
    }

    /** 400 {field: [messages...], ...}. */
    public static ApiException fields(Map<String, List<String>> errors) {
        return new ApiException(400, errorsNode(errors));
    }

    /** 400 with a DRF list body, e.g. {@code ["'start' and 'offset' are mutually exclusive."]}. */
    public static ApiException list(String message) {
        ArrayNode node = Json.MAPPER.createArrayNode().add(message);
        return new ApiException(400, node);
    }

    public static ObjectNode errorsNode(Map<String, List<String>> errors) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        errors.forEach((k, v) -> {
            ArrayNode arr = node.putArray(k);
            v.forEach(arr::add);
        });
        return node;
    }
}
