package org.sourceoftruth.records.engine.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/** Turns the relative URLs of rendered objects into absolute ones for the request's host. */
public final class AbsoluteUrls {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AbsoluteUrls() {
    }

    /**
     * Prefixes relative "url"/"display_url" values with the request's base URL, in place; user
     * data (custom fields, config contexts) is left as it was written.
     */
    public static void absolutize(JsonNode node, String baseUrl) {
        if (baseUrl.isEmpty()) {
            return;
        }
        if (node instanceof ObjectNode obj) {
            Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if ((e.getKey().equals("url") || e.getKey().equals("display_url")) && v.isTextual()
                        && v.asText().startsWith("/")) {
                    e.setValue(NODES.textNode(baseUrl + v.asText()));
                } else if (v.isContainerNode() && !e.getKey().equals("custom_fields") && !e.getKey().equals("config_context")
                        && !e.getKey().equals("local_context_data")) {
                    absolutize(v, baseUrl);
                }
            }
        } else if (node instanceof ArrayNode arr) {
            arr.forEach(n -> absolutize(n, baseUrl));
        }
    }
}
