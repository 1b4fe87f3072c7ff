package org.sourceoftruth.records.graphql;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import graphql.introspection.IntrospectionQuery;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;

/**
 * The schema /graphql/ serves, by introspection, against NetBox 4.6.8's
 * (contract/netbox-4.6-graphql-schema.json, taken by introspection from a running NetBox): its
 * query fields with their arguments and types, its object types and their fields, its input types
 * (filters, lookups, pagination) and their fields, its enums and unions. Every difference is
 * printed; the floors are a ratchet, as in the REST contract test: they hold today and fail the
 * build when parity regresses. Raise them with every change that raises parity.
 */
@QuarkusTest
class GraphqlSchemaTest {
    // Ratchet: what holds today.
    static final int QUERY_FIELDS_FLOOR = 246;
    static final int QUERY_FIELDS_EXACT_FLOOR = 246;
    static final int OBJECT_TYPES_FLOOR = 126;
    static final double OBJECT_FIELDS_FLOOR = 94.4;
    static final int INPUT_TYPES_FLOOR = 244;
    static final double INPUT_FIELDS_FLOOR = 97.1;

    @Test
    void theSchemaHasNetBoxsNames() throws IOException {
        Map<String, JsonNode> netbox = types(reference());
        JsonNode served = Api.auth()
                .body(Map.of("query", IntrospectionQuery.INTROSPECTION_QUERY))
                .post("/graphql/")
                .then()
                .statusCode(200)
                .extract()
                .as(JsonNode.class);
        assertTrue(served.path("errors").isMissingNode(), () -> "introspection failed: " + served.get("errors"));
        Map<String, JsonNode> ours = types(served.get("data").get("__schema"));

        Report report = new Report();
        // query fields
        Map<String, JsonNode> nbQuery = fields(netbox.get("Query"), "fields");
        Map<String, JsonNode> ourQuery = fields(ours.get("Query"), "fields");
        int queryPresent = 0;
        int queryExact = 0;
        for (Map.Entry<String, JsonNode> e : nbQuery.entrySet()) {
            JsonNode mine = ourQuery.get(e.getKey());
            if (mine == null) {
                report.add("query field missing", e.getKey());
                continue;
            }
            queryPresent++;
            String want = signature(e.getValue());
            String got = signature(mine);
            if (want.equals(got)) {
                queryExact++;
            } else {
                report.add("query field differs", e.getKey() + ": NetBox " + want + ", here " + got);
            }
        }
        // object and input types, their fields
        int objects = 0;
        int objectsHere = 0;
        int objectFields = 0;
        int objectFieldsHere = 0;
        int inputs = 0;
        int inputsHere = 0;
        int inputFields = 0;
        int inputFieldsHere = 0;
        for (Map.Entry<String, JsonNode> e : netbox.entrySet()) {
            String name = e.getKey();
            String kind = e.getValue().get("kind").asText();
            if (name.startsWith("__") || name.equals("Query")) {
                continue;
            }
            JsonNode mine = ours.get(name);
            switch (kind) {
                case "OBJECT", "INPUT_OBJECT" -> {
                    boolean object = kind.equals("OBJECT");
                    String member = object ? "fields" : "inputFields";
                    Map<String, JsonNode> want = fields(e.getValue(), member);
                    Map<String, JsonNode> got = mine == null ? Map.of() : fields(mine, member);
                    if (object) {
                        objects++;
                        objectFields += want.size();
                    } else {
                        inputs++;
                        inputFields += want.size();
                    }
                    if (mine == null) {
                        report.add(object ? "object type missing" : "input type missing", name);
                        continue;
                    }
                    if (object) {
                        objectsHere++;
                    } else {
                        inputsHere++;
                    }
                    List<String> missing = new ArrayList<>();
                    for (Map.Entry<String, JsonNode> f : want.entrySet()) {
                        JsonNode g = got.get(f.getKey());
                        if (g == null) {
                            missing.add(f.getKey());
                            continue;
                        }
                        if (object) {
                            objectFieldsHere++;
                        } else {
                            inputFieldsHere++;
                        }
                        String w = typeName(f.getValue().get("type"));
                        String h = typeName(g.get("type"));
                        if (!w.equals(h)) {
                            report.add(
                                    object ? "object field type differs" : "input field type differs",
                                    name + "." + f.getKey() + ": NetBox " + w + ", here " + h);
                        }
                    }
                    if (!missing.isEmpty()) {
                        report.add(object ? "object fields missing" : "input fields missing", name + ": " + missing);
                    }
                }
                case "ENUM", "UNION", "SCALAR" -> {
                    if (mine == null) {
                        report.add(kind.toLowerCase() + " missing", name);
                    }
                }
                default -> {}
            }
        }
        double objectFieldShare = percent(objectFieldsHere, objectFields);
        double inputFieldShare = percent(inputFieldsHere, inputFields);
        report.print();
        System.out.printf(
                "GraphQL schema parity: query fields %d/%d present, %d exact; object types %d/%d, their fields"
                        + " %.1f%%; input types %d/%d, their fields %.1f%%%n",
                queryPresent,
                nbQuery.size(),
                queryExact,
                objectsHere,
                objects,
                objectFieldShare,
                inputsHere,
                inputs,
                inputFieldShare);
        assertTrue(queryPresent >= QUERY_FIELDS_FLOOR, "query fields regressed: " + queryPresent);
        assertTrue(queryExact >= QUERY_FIELDS_EXACT_FLOOR, "exact query fields regressed: " + queryExact);
        assertTrue(objectsHere >= OBJECT_TYPES_FLOOR, "object types regressed: " + objectsHere);
        assertTrue(objectFieldShare >= OBJECT_FIELDS_FLOOR, "object fields regressed: " + objectFieldShare);
        assertTrue(inputsHere >= INPUT_TYPES_FLOOR, "input types regressed: " + inputsHere);
        assertTrue(inputFieldShare >= INPUT_FIELDS_FLOOR, "input fields regressed: " + inputFieldShare);
    }

    private static double percent(int part, int whole) {
        return whole == 0 ? 100 : Math.floor(1000.0 * part / whole) / 10.0;
    }

    /** The differences by category, each listed in full. */
    private static final class Report {
        private final Map<String, List<String>> byCategory = new TreeMap<>();

        void add(String category, String item) {
            byCategory.computeIfAbsent(category, k -> new ArrayList<>()).add(item);
        }

        void print() {
            for (Map.Entry<String, List<String>> e : byCategory.entrySet()) {
                System.out.println("== " + e.getKey() + " (" + e.getValue().size() + ")");
                e.getValue().forEach(item -> System.out.println("   " + item));
            }
        }
    }

    private static JsonNode reference() throws IOException {
        try (InputStream in = GraphqlSchemaTest.class.getResourceAsStream("/contract/netbox-4.6-graphql-schema.json")) {
            return Json.MAPPER.readTree(in).get("data").get("__schema");
        }
    }

    private static Map<String, JsonNode> types(JsonNode schema) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        schema.get("types").forEach(t -> out.put(t.get("name").asText(), t));
        return out;
    }

    private static Map<String, JsonNode> fields(JsonNode type, String member) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        JsonNode list = type.get(member);
        if (list != null && list.isArray()) {
            list.forEach(f -> out.put(f.get("name").asText(), f));
        }
        return out;
    }

    /** {@code (id: ID!): DeviceType!}. */
    private static String signature(JsonNode field) {
        List<String> args = new ArrayList<>();
        field.get("args").forEach(a -> args.add(a.get("name").asText() + ": " + typeName(a.get("type"))));
        return "(" + String.join(", ", args) + "): " + typeName(field.get("type"));
    }

    /**
     * {@code [DeviceType!]!}; the reference's introspection stops after four levels of wrappers,
     * so both sides are read that deep.
     */
    private static String typeName(JsonNode t) {
        return typeName(t, 0);
    }

    private static String typeName(JsonNode t, int depth) {
        if (t == null || t.isNull() || depth > 4) {
            return "?";
        }
        return switch (t.get("kind").asText()) {
            case "NON_NULL" -> typeName(t.get("ofType"), depth + 1) + "!";
            case "LIST" -> "[" + typeName(t.get("ofType"), depth + 1) + "]";
            default -> t.get("name").asText();
        };
    }
}
