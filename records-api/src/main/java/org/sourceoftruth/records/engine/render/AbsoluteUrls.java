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
    /**
     * The keys holding URLs: the object's own, and the /media/ URLs of NetBox's image fields (an
     * attachment's image, a device type's front and rear images; no NetBox model has a text field
     * of these names).
     */
    private static final java.util.Set<String> URL_KEYS =
            java.util.Set.of("url", "display_url", "image", "front_image", "rear_image");

    private AbsoluteUrls() {}

    /**
     * Prefixes relative "url"/"display_url" (and image) values with the request's base URL, in place; user
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
                if (URL_KEYS.contains(e.getKey()) && v.isTextual() && v.asText().startsWith("/")) {
                    e.setValue(NODES.textNode(baseUrl + v.asText()));
                } else if (v.isContainerNode()
                        && !e.getKey().equals("custom_fields")
                        && !e.getKey().equals("config_context")
                        && !e.getKey().equals("local_context_data")) {
                    absolutize(v, baseUrl);
                }
            }
        } else if (node instanceof ArrayNode arr) {
            arr.forEach(n -> absolutize(n, baseUrl));
        }
    }
}
