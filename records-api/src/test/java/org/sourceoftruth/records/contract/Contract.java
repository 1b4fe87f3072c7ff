package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.model.Json;

/**
 * NetBox 4.6.8's REST API as a fact table (test resource contract/netbox-4.6-contract.json, the
 * layout of contract/netbox-4.4-contract.json, which stays as the record of the 4.4 API; what
 * it holds is in docs/netbox-parity.md): one {@link Endpoint} per API endpoint, plus the schema
 * index that maps an OpenAPI schema name to its endpoint.
 */
final class Contract {
    static final String RESOURCE = "/contract/netbox-4.6-contract.json";

    private static final Map<String, JsonNode> MINIMAL_NESTED = minimalNested();

    private final JsonNode root;
    private final Map<String, Endpoint> endpoints = new LinkedHashMap<>();

    /**
     * Brief schemas NetBox's OpenAPI document takes from another nested variant of the serializer:
     * drf-spectacular names every nested IPAddressSerializer BriefIPAddress, and the last one it
     * meets is a device's primary IP, rendered with brief_fields plus dns_name, nat_inside and
     * nat_outside (dcim/api/serializers_/devices.py). What NetBox 4.6.8 sends for ?brief=1 and for
     * an address nested anywhere else (a service's ipaddresses, a tunnel termination's outside_ip)
     * is IPAddressSerializer.Meta.brief_fields: family, address, description. The table keeps the
     * document's facts; these fields of the variant are taken out of the endpoint's brief set.
     */
    private static final Map<String, List<String>> VARIANT_ONLY_BRIEF_FIELDS =
            Map.of("BriefIPAddress", List.of("dns_name", "nat_inside", "nat_outside"));

    private Contract(JsonNode root) {
        this.root = root;
        root.get("endpoints").fields().forEachRemaining(e -> {
            JsonNode spec = e.getValue();
            List<String> variantOnly =
                    VARIANT_ONLY_BRIEF_FIELDS.get(spec.path("brief_schema").asText(""));
            if (variantOnly != null && spec.get("brief_fields") instanceof ObjectNode brief) {
                brief.remove(variantOnly);
            }
            endpoints.put(e.getKey(), new Endpoint(e.getKey(), spec));
        });
    }

    static Contract load() {
        try (InputStream in = Contract.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("test resource " + RESOURCE + " is missing");
            }
            return new Contract(Json.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
    }

    /** The number of endpoints NetBox 4.6 has (the denominator of "endpoints X/138"). */
    int endpointCount() {
        return root.get("endpoint_count").asInt();
    }

    List<Endpoint> endpoints() {
        return new ArrayList<>(endpoints.values());
    }

    Endpoint endpoint(String key) {
        return key == null ? null : endpoints.get(key);
    }

    /**
     * Schemas of nested forms the table's schema index does not map: NetBox's ASNSiteSerializer
     * is a site's brief form under another name (it only avoids a circular import).
     */
    private static final Map<String, String> UNINDEXED_SCHEMAS = Map.of("ASNSite", "dcim/sites");

    /** The endpoint serving an OpenAPI schema (e.g. BriefManufacturer → dcim/manufacturers), or null. */
    Endpoint endpointOfSchema(String schema) {
        JsonNode ep = root.path("schema_index").get(schema);
        if (ep == null && UNINDEXED_SCHEMAS.containsKey(schema)) {
            return endpoints.get(UNINDEXED_SCHEMAS.get(schema));
        }
        return ep == null ? null : endpoints.get(ep.asText());
    }

    /** The endpoint of a content type such as {@code dcim.site}: same app, schema named like the model. */
    Endpoint endpointOfContentType(String contentType) {
        String app = contentType.substring(0, contentType.indexOf('.'));
        String model = contentType.substring(contentType.indexOf('.') + 1);
        for (Endpoint e : endpoints.values()) {
            // devices and virtual machines are rendered by NetBox's *WithConfigContext serializers
            if (e.app().equals(app)
                    && e.isModel()
                    && model.equalsIgnoreCase(e.schema().replace("WithConfigContext", ""))) {
                return e;
            }
        }
        return null;
    }

    /**
     * The field specs an object rendered with {@code schema} carries: the brief set when the
     * schema is the endpoint's brief schema, the full set when it is its full schema, else null
     * (NetBox's Nested* and generic serializers, which the contract does not spell out).
     */
    Map<String, JsonNode> fieldsOfSchema(String schema, String endpointKey) {
        Endpoint ep = endpointKey != null ? endpoint(endpointKey) : endpointOfSchema(schema);
        if (ep == null) {
            ep = endpointOfSchema(schema);
        }
        if (ep == null) {
            return null;
        }
        if (schema.equals(ep.briefSchema()) && !ep.briefFields().isEmpty()) {
            return ep.briefFields();
        }
        if (schema.equals(ep.schema())) {
            // NetBox's OpenAPI names the full schema for nested to-many relations (a site's asns,
            // an interface's tagged_vlans, a config context's regions: SerializedPKRelatedField
            // with nested=True), but renders them in brief form; expect what NetBox sends.
            // Without a brief schema in the contract the nested form is unknown: expect the
            // fields every NetBox object carries (id, url, display).
            return ep.briefFields().isEmpty() ? MINIMAL_NESTED : ep.briefFields();
        }
        return null;
    }

    private static Map<String, JsonNode> minimalNested() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        out.put("id", Json.MAPPER.createObjectNode().put("type", "integer"));
        out.put("url", Json.MAPPER.createObjectNode().put("type", "string"));
        out.put("display", Json.MAPPER.createObjectNode().put("type", "string"));
        return out;
    }

    /** One endpoint of the contract, keyed {@code <app>/<model-path>}. */
    record Endpoint(String key, JsonNode spec) {
        String app() {
            return key.substring(0, key.indexOf('/'));
        }

        String path() {
            return spec.path("path").asText();
        }

        /** The detail URL of object {@code id}, or null for endpoints without one. */
        String detailPath(long id) {
            JsonNode d = spec.get("detail_path");
            return d == null || d.isNull() ? null : d.asText().replace("{id}", String.valueOf(id));
        }

        String kind() {
            return spec.path("kind").asText();
        }

        boolean isModel() {
            return kind().equals("model");
        }

        boolean paginated() {
            return spec.path("paginated").asBoolean();
        }

        String schema() {
            return spec.path("schema").asText(null);
        }

        String briefSchema() {
            return spec.path("brief_schema").asText(null);
        }

        boolean allows(String method) {
            for (JsonNode m : spec.path("methods")) {
                if (m.asText().equals(method)) {
                    return true;
                }
            }
            return false;
        }

        /** A model endpoint a client can POST to (has a writable schema). */
        boolean creatable() {
            return isModel() && allows("post") && spec.has("write_fields");
        }

        Map<String, JsonNode> fields() {
            return map(spec.get("fields"));
        }

        Map<String, JsonNode> briefFields() {
            return map(spec.get("brief_fields"));
        }

        Map<String, JsonNode> writeFields() {
            return map(spec.get("write_fields"));
        }

        List<String> required() {
            List<String> out = new ArrayList<>();
            spec.path("required").forEach(n -> out.add(n.asText()));
            return out;
        }

        /** filter parameter → type code ({@code string[]}, {@code integer[]}, {@code boolean}, ...). */
        Map<String, String> filters() {
            Map<String, String> out = new LinkedHashMap<>();
            spec.path("filters")
                    .fields()
                    .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
            return out;
        }

        /** generic relation name → [type field, id field], e.g. scope → [scope_type, scope_id]. */
        Map<String, List<String>> genericFks() {
            Map<String, List<String>> out = new LinkedHashMap<>();
            spec.path("generic_fk")
                    .fields()
                    .forEachRemaining(e -> out.put(
                            e.getKey(),
                            List.of(
                                    e.getValue().get(0).asText(),
                                    e.getValue().get(1).asText())));
            return out;
        }

        /** action path (relative to the list URL, e.g. {@code {id}/trace/}) → HTTP methods. */
        Map<String, List<String>> actions() {
            Map<String, List<String>> out = new LinkedHashMap<>();
            spec.path("actions").fields().forEachRemaining(e -> {
                List<String> methods = new ArrayList<>();
                e.getValue().forEach(m -> methods.add(m.asText()));
                out.put(e.getKey(), methods);
            });
            return out;
        }

        private static Map<String, JsonNode> map(JsonNode node) {
            Map<String, JsonNode> out = new LinkedHashMap<>();
            if (node != null && node.isObject()) {
                node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
            }
            return out;
        }
    }
}
