package org.sourceoftruth.records.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.engine.query.FilterCompiler;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * /api/schema/: the document the model registry describes is valid OpenAPI for a
 * real parser (swagger-parser), in YAML and JSON, and says what NetBox's drf-spectacular document
 * says: a list, detail and bulk path per served model URL, NetBox's component names and operation
 * ids, every filter the list accepts (what Ansible's inventory plugin reads), the security
 * schemes; Swagger UI answers at /api/schema/swagger-ui/.
 */
@QuarkusTest
class OpenApiDocumentTest {
    private static final String CONTRACT = "/contract/netbox-4.6-contract.json";

    @Inject
    ModelRegistry registry;

    @Inject
    FilterCompiler filters;

    private static String yaml;
    private static String json;
    private static JsonNode document;
    private static JsonNode contract;

    /** Fetched once, by the first test (the application is not up before a test runs). */
    @BeforeEach
    void fetch() throws IOException {
        if (document != null) {
            return;
        }
        yaml = given().get("/api/schema/").then().statusCode(200).extract().asString();
        json = given().get("/api/schema/?format=json")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        document = Json.MAPPER.readTree(json);
        // kept for a look, e.g. with an editor or a client generator
        Path out = Path.of("target", "openapi");
        Files.createDirectories(out);
        Files.writeString(out.resolve("openapi.json"), json);
        Files.writeString(out.resolve("openapi.yaml"), yaml);
        try (InputStream in = OpenApiDocumentTest.class.getResourceAsStream(CONTRACT)) {
            contract = Json.MAPPER.readTree(in);
        }
    }

    @AfterEach
    void lenient() {
        filters.strictFiltering(null);
    }

    // ------------------------------------------------------------------- validity

    @Test
    void yamlAndJsonParseWithoutAnyMessage() {
        assertTrue(yaml.startsWith("---") || yaml.startsWith("openapi"), yaml.substring(0, 40));
        for (String text : List.of(yaml, json)) {
            SwaggerParseResult result = parse(text);
            assertEquals(List.of(), result.getMessages(), "swagger-parser messages");
            assertNotNull(result.getOpenAPI());
            assertEquals("3.0.3", result.getOpenAPI().getOpenapi());
            assertEquals(
                    document.get("paths").size(), result.getOpenAPI().getPaths().size());
            assertEquals(
                    document.get("components").get("schemas").size(),
                    result.getOpenAPI().getComponents().getSchemas().size());
        }
    }

    /**
     * The check above can fail: the same parser reports a dangling reference and a parameter in a
     * place OpenAPI 3 has not. (It does not check a schema's {@code type} value: an earlier
     * version of this test set one to "text" and passed only because the dangling reference's
     * message named VirtualMachineWithConfig<i>Context</i>.)
     */
    @Test
    void theValidatorReportsABrokenDocument() {
        ObjectNode broken = document.deepCopy();
        ((ObjectNode) broken.get("components").get("schemas")).remove("BriefSite");
        ((ObjectNode) broken.at("/paths/~1api~1dcim~1sites~1/get/parameters/0")).put("in", "body");
        SwaggerParseResult result = parse(broken.toString());
        assertTrue(
                result.getMessages().stream().anyMatch(m -> m.contains("BriefSite")),
                result.getMessages().toString());
        assertTrue(
                result.getMessages().stream()
                        .anyMatch(m -> m.contains("'/api/dcim/sites/'(get).parameters")
                                && m.contains("query|header|path|cookie")),
                result.getMessages().toString());
    }

    static {
        // swagger-parser refuses YAML beyond 3 Mi code points by default; the document (every
        // model's filters, cables' included) is larger
        System.setProperty("maxYamlCodePoints", String.valueOf(16 * 1024 * 1024));
    }

    private static SwaggerParseResult parse(String text) {
        // the YAML form outgrows swagger-parser's default cap of 3 Mi code points as models are
        // served (NetBox's own document is larger still); the cap guards against hostile input,
        // not against a document this service writes itself
        io.swagger.v3.parser.util.DeserializationUtils.getOptions().setMaxYamlCodePoints(64 * 1024 * 1024);
        ParseOptions options = new ParseOptions();
        options.setResolve(false); // report references as written, resolve nothing away
        options.setValidateInternalRefs(true);
        return new OpenAPIV3Parser().readContents(text, null, options);
    }

    // ---------------------------------------------------------------------- paths

    @Test
    void everyServedModelUrlHasListDetailAndBulkPathsWithNetBoxOperationIds() {
        JsonNode paths = document.get("paths");
        int checked = 0;
        for (Model m : registry.all()) {
            List<String> urls = new ArrayList<>(List.of(m.app() + "/" + m.path()));
            urls.addAll(m.aliasPaths());
            for (String url : urls) {
                String stem = url.replace('/', '_').replace('-', '_');
                JsonNode list = paths.get("/api/" + url + "/");
                JsonNode detail = paths.get("/api/" + url + "/{id}/");
                assertNotNull(list, "no list path for " + url);
                assertNotNull(detail, "no detail path for " + url);
                assertEquals(stem + "_list", list.get("get").get("operationId").asText());
                assertEquals(
                        stem + "_retrieve", detail.get("get").get("operationId").asText());
                assertEquals(
                        url.substring(0, url.indexOf('/')),
                        list.get("get").get("tags").get(0).asText());
                Map<String, String> listOps = Map.of(
                        "post",
                        "_create",
                        "put",
                        "_bulk_update",
                        "patch",
                        "_bulk_partial_update",
                        "delete",
                        "_bulk_destroy");
                Map<String, String> detailOps =
                        Map.of("put", "_update", "patch", "_partial_update", "delete", "_destroy");
                for (Map.Entry<String, String> op : listOps.entrySet()) {
                    assertEquals(!m.isReadOnlyApi(), list.has(op.getKey()), url + " " + op.getKey());
                    if (!m.isReadOnlyApi()) {
                        assertEquals(
                                stem + op.getValue(),
                                list.get(op.getKey()).get("operationId").asText());
                    }
                }
                for (Map.Entry<String, String> op : detailOps.entrySet()) {
                    assertEquals(!m.isReadOnlyApi(), detail.has(op.getKey()), url + " " + op.getKey());
                    if (!m.isReadOnlyApi()) {
                        assertEquals(
                                stem + op.getValue(),
                                detail.get(op.getKey()).get("operationId").asText());
                    }
                }
                checked++;
            }
        }
        assertTrue(checked >= 40, "models checked: " + checked);
        Iterator<String> names = paths.fieldNames();
        Set<String> operationIds = new LinkedHashSet<>();
        while (names.hasNext()) {
            String path = names.next();
            assertTrue(path.startsWith("/api/") && path.endsWith("/"), path);
            assertFalse(path.contains("{app}") || path.contains("{model}") || path.contains("{parent}"), path);
            paths.get(path).fields().forEachRemaining(op -> {
                if (op.getValue().has("operationId")) {
                    assertTrue(
                            operationIds.add(op.getValue().get("operationId").asText()),
                            "operationId twice: " + op.getValue().get("operationId"));
                }
            });
        }
        // actions served by resources of their own
        assertEquals(
                "ipam_prefixes_available_ips_create",
                paths.at("/~1api~1ipam~1prefixes~1{id}~1available-ips~1/post/operationId")
                        .asText());
        assertEquals(
                "ipam_ip_ranges_available_ips_list",
                paths.at("/~1api~1ipam~1ip-ranges~1{id}~1available-ips~1/get/operationId")
                        .asText());
        assertEquals(
                "users_tokens_provision_create",
                paths.at("/~1api~1users~1tokens~1provision~1/post/operationId").asText());
        assertEquals(
                "status_retrieve", paths.at("/~1api~1status~1/get/operationId").asText());
        assertEquals(
                "users_config_partial_update",
                paths.at("/~1api~1users~1config~1/patch/operationId").asText());
        assertEquals(
                "core_background_tasks_requeue_create",
                paths.at("/~1api~1core~1background-tasks~1{id}~1requeue~1/post/operationId")
                        .asText());
        // cable traces and paths: every trace/ and paths/ action of the contract that is served here
        JsonNode endpoints = contract.get("endpoints");
        List<String> undocumented = new ArrayList<>();
        endpoints
                .fields()
                .forEachRemaining(e -> e.getValue().path("actions").fieldNames().forEachRemaining(action -> {
                    String url = e.getValue().path("path").asText() + action;
                    if ((action.equals("{id}/trace/") || action.equals("{id}/paths/"))
                            && !url.contains("virtual-circuit")
                            && !paths.has(url)) {
                        undocumented.add(url);
                    }
                }));
        assertEquals(List.of(), undocumented);
        assertEquals(
                "dcim_interfaces_trace_retrieve",
                paths.at("/~1api~1dcim~1interfaces~1{id}~1trace~1/get/operationId")
                        .asText());
        assertEquals(
                "#/components/schemas/CableTraceSegment",
                paths.at("/~1api~1dcim~1power-feeds~1{id}~1trace~1/get"
                                + "/responses/200/content/application~1json/schema/items/$ref")
                        .asText());
        assertEquals(
                "circuits_circuit_terminations_paths_retrieve",
                paths.at("/~1api~1circuits~1circuit-terminations~1{id}~1paths~1/get/operationId")
                        .asText());
        assertEquals(
                "#/components/schemas/CablePath",
                paths.at("/~1api~1dcim~1rear-ports~1{id}~1paths~1/get"
                                + "/responses/200/content/application~1json/schema/items/$ref")
                        .asText());
        JsonNode connected = paths.at("/~1api~1dcim~1connected-device~1/get");
        assertEquals("dcim_connected_device_list", connected.path("operationId").asText());
        assertEquals(2, connected.path("parameters").size());
        connected.path("parameters").forEach(p -> assertTrue(p.path("required").asBoolean(), p.toString()));
        assertEquals(
                "#/components/schemas/Device",
                connected
                        .at("/responses/200/content/application~1json/schema/$ref")
                        .asText());
        JsonNode device = document.at("/components/schemas/Device/properties");
        assertTrue(device.has("primary_ip") && !device.has("config_context"), device.toString());
    }

    // ----------------------------------------------------------------- components

    /** Component names are NetBox's, for every endpoint served here that the contract knows. */
    @Test
    void componentNamesAreNetBoxs() {
        JsonNode schemas = document.get("components").get("schemas");
        List<String> wrong = new ArrayList<>();
        int compared = 0;
        for (Model m : registry.all()) {
            JsonNode endpoint = contract.get("endpoints").get(m.app() + "/" + m.path());
            if (endpoint == null) {
                continue;
            }
            compared++;
            String full = endpoint.path("schema").asText();
            expect(wrong, schemas, full, "full of " + m.path());
            expect(wrong, schemas, "Paginated" + full + "List", "page of " + m.path());
            String brief = endpoint.path("brief_schema").asText("");
            // NetBox names a few brief forms Nested<X> (tree parents); Brief<X> is the rule
            expect(wrong, schemas, "Brief" + m.apiName(), "brief of " + m.path());
            if (brief.startsWith("Brief") && !brief.equals("Brief" + m.apiName())) {
                wrong.add(m.path() + ": brief " + brief + " is Brief" + m.apiName() + " here");
            }
            // an endpoint NetBox serves read-only (no request schema) may still take writes here
            if (!m.isReadOnlyApi() && endpoint.hasNonNull("write_schema")) {
                expect(wrong, schemas, endpoint.path("write_schema").asText(), "request of " + m.path());
                expect(wrong, schemas, endpoint.path("patch_schema").asText(), "patch of " + m.path());
                JsonNode create = document.at("/paths/~1api~1" + m.app() + "~1" + m.path()
                        + "~1/post/requestBody/content/application~1json/schema/$ref");
                assertEquals(
                        "#/components/schemas/" + endpoint.path("write_schema").asText(), create.asText());
            }
        }
        assertTrue(compared >= 40, "endpoints compared: " + compared);
        assertEquals(List.of(), wrong);
        assertTrue(schemas.has("NestedTag") && schemas.has("NestedTagRequest"));
    }

    private static void expect(List<String> wrong, JsonNode schemas, String name, String what) {
        if (!schemas.has(name)) {
            wrong.add(what + ": no component " + name);
        }
    }

    @Test
    void siteComponentsHaveNetBoxsShapes() {
        JsonNode site = document.at("/components/schemas/Site/properties");
        assertEquals("integer", site.at("/id/type").asText());
        assertTrue(site.at("/id/readOnly").asBoolean());
        assertEquals("uri", site.at("/url/format").asText());
        // a choice: {value, label} with the values as an enum
        assertEquals("object", site.at("/status/type").asText());
        assertTrue(enumOf(site.at("/status/properties/value")).containsAll(List.of("planned", "active", "retired")));
        assertTrue(enumOf(site.at("/status/properties/label")).contains("Decommissioning"));
        // a nullable relation: the target's brief form
        assertEquals(
                "#/components/schemas/BriefRegion",
                site.at("/region/allOf/0/$ref").asText());
        assertTrue(site.at("/region/nullable").asBoolean());
        assertEquals(
                "#/components/schemas/NestedTag", site.at("/tags/items/$ref").asText());
        // custom fields are dynamic: a free object
        assertEquals("object", site.at("/custom_fields/type").asText());
        assertEquals("date-time", site.at("/created/format").asText());
        assertEquals("int64", site.at("/device_count/format").asText());
        assertTrue(site.at("/latitude/nullable").asBoolean());

        JsonNode writable = document.at("/components/schemas/WritableSiteRequest");
        assertEquals(Set.of("name", "slug"), Set.copyOf(strings(writable.get("required"))));
        assertEquals(100, writable.at("/properties/name/maxLength").asInt());
        assertEquals("^[-a-zA-Z0-9_]+$", writable.at("/properties/slug/pattern").asText());
        assertEquals(
                List.of("planned", "staging", "active", "decommissioning", "retired"),
                enumOf(writable.at("/properties/status")));
        assertEquals("integer", writable.at("/properties/region/oneOf/0/type").asText());
        assertEquals(
                "#/components/schemas/BriefRegionRequest",
                writable.at("/properties/region/oneOf/1/$ref").asText());
        assertTrue(writable.at("/properties/id").isMissingNode(), "id is read-only");
        assertTrue(writable.at("/properties/device_count").isMissingNode(), "counts are read-only");
        assertFalse(
                document.at("/components/schemas/PatchedWritableSiteRequest").has("required"));
        assertEquals(
                List.of("id", "url", "display", "name", "slug", "description"),
                fieldNames(document.at("/components/schemas/BriefSite/properties")));
        JsonNode page = document.at("/components/schemas/PaginatedSiteList/properties");
        assertEquals("#/components/schemas/Site", page.at("/results/items/$ref").asText());
        assertTrue(page.at("/next/nullable").asBoolean());
        // a numeric choice set is an integer enum (a rack's width)
        assertEquals(
                "integer",
                document.at("/components/schemas/WritableRackRequest/properties/width/type")
                        .asText());
    }

    // -------------------------------------------------------------------- filters

    @Test
    void deviceListDocumentsTheDeviceFilters() {
        Map<String, JsonNode> parameters = listParameters("/api/dcim/devices/");
        for (String name : List.of(
                "site",
                "site_id",
                "role",
                "role_id",
                "name",
                "name__ic",
                "name__n",
                "tag",
                "tag__n",
                "q",
                "limit",
                "offset",
                "ordering",
                "brief",
                "status",
                "status__n",
                "region",
                "region_id",
                "tenant_group",
                "cluster_group_id",
                "id__gte",
                "created__gte",
                "serial__ic",
                "has_primary_ip")) {
            assertTrue(parameters.containsKey(name), "device filter " + name + " missing: " + parameters.keySet());
        }
        JsonNode siteId = parameters.get("site_id");
        assertEquals("query", siteId.get("in").asText());
        assertEquals("array", siteId.at("/schema/type").asText());
        assertEquals("integer", siteId.at("/schema/items/type").asText());
        assertTrue(siteId.get("explode").asBoolean());
        assertEquals("form", siteId.get("style").asText());
        assertTrue(enumOf(parameters.get("status").at("/schema/items")).contains("offline"));
        assertEquals("boolean", parameters.get("name__empty").at("/schema/type").asText());
        assertEquals(
                "date-time",
                parameters.get("created__gte").at("/schema/items/format").asText());
        assertEquals("integer", parameters.get("limit").at("/schema/type").asText());
    }

    /**
     * The other way round: every filter of NetBox's (the contract's, for the endpoints served
     * here) that this service's lists accept is documented, so that a client reading the document
     * misses none it could use.
     */
    @Test
    void everyNetBoxFilterTheListsAcceptIsDocumented() {
        filters.strictFiltering(true);
        List<String> undocumented = new ArrayList<>();
        int accepted = 0;
        int contractFilters = 0;
        Iterator<Map.Entry<String, JsonNode>> endpoints =
                contract.get("endpoints").fields();
        while (endpoints.hasNext()) {
            Map.Entry<String, JsonNode> endpoint = endpoints.next();
            String url = "/api/" + endpoint.getKey() + "/";
            if (!document.get("paths").has(url) || !endpoint.getValue().has("filters")) {
                continue;
            }
            if (endpoint.getKey().equals("dcim/connected-device")) {
                continue; // two required lookups, not a list's filters: names that match nothing are a 404
            }
            Map<String, JsonNode> documented = listParameters(url);
            Map<String, String> typed = new LinkedHashMap<>();
            endpoint.getValue()
                    .get("filters")
                    .fields()
                    .forEachRemaining(f -> typed.put(f.getKey(), f.getValue().asText()));
            contractFilters += typed.size();
            Set<String> known = acceptedOf(url, typed);
            accepted += known.size();
            known.stream()
                    .filter(name -> !documented.containsKey(name))
                    .forEach(name -> undocumented.add(url + "?" + name));
        }
        System.out.println("openapi: NetBox filters accepted here " + accepted + "/" + contractFilters
                + ", of those not documented: " + undocumented.size());
        assertTrue(accepted > 3000, "accepted filters: " + accepted);
        assertEquals(List.of(), undocumented, "filters the lists accept that the document does not list");
    }

    /** Of the given filters (name → the contract's type code), those the list does not call unknown. */
    private static Set<String> acceptedOf(String url, Map<String, String> typed) {
        Set<String> known = new LinkedHashSet<>();
        List<String> names = new ArrayList<>(typed.keySet());
        for (int from = 0; from < names.size(); from += 80) {
            List<String> batch = names.subList(from, Math.min(names.size(), from + 80));
            StringBuilder query = new StringBuilder("?limit=1");
            if (batch.stream().allMatch(FilterCompiler.RESERVED::contains)) {
                continue; // paging and representation parameters (NetBox 4.6 lists them): no filters
            }
            for (String name : batch) {
                if (!Set.of("limit", "offset", "ordering").contains(name)) {
                    query.append('&').append(name).append('=').append(sampleOfCode(typed.get(name)));
                }
            }
            io.restassured.response.Response r =
                    Api.auth().urlEncodingEnabled(false).get(url + query);
            assertTrue(r.statusCode() == 200 || r.statusCode() == 400, url + query + " → " + r.statusCode());
            JsonNode body =
                    r.statusCode() == 400 ? Json.MAPPER.valueToTree(r.jsonPath().getMap("$")) : null;
            for (String name : batch) {
                boolean filter = !FilterCompiler.RESERVED.contains(name);
                if (filter && (body == null || !body.path(name).toString().contains("Unknown filter"))) {
                    known.add(name);
                }
            }
        }
        return known;
    }

    private static String sampleOfCode(String code) {
        if (code.startsWith("integer")) {
            return "1";
        }
        if (code.startsWith("number")) {
            return "1.5";
        }
        if (code.startsWith("boolean")) {
            return "true";
        }
        if (code.contains("date-time")) {
            return "2024-01-01T00:00:00Z";
        }
        if (code.contains("(date)")) {
            return "2024-01-01";
        }
        if (code.contains("uuid")) {
            return UUID.randomUUID().toString();
        }
        return "x";
    }

    /**
     * Every documented filter of every list is one the filter compiler knows: under
     * STRICT_FILTERING an unknown one would be a 400 naming it.
     */
    @Test
    void everyDocumentedFilterIsAcceptedByItsList() {
        filters.strictFiltering(true);
        int checked = 0;
        List<String> unknown = new ArrayList<>();
        for (Model m : registry.all()) {
            String url = "/api/" + m.app() + "/" + m.path() + "/";
            List<Map.Entry<String, JsonNode>> params =
                    new ArrayList<>(listParameters(url).entrySet());
            for (int from = 0; from < params.size(); from += 80) {
                StringBuilder query = new StringBuilder("?limit=1");
                List<String> names = new ArrayList<>();
                for (Map.Entry<String, JsonNode> p : params.subList(from, Math.min(params.size(), from + 80))) {
                    if (Set.of("limit", "offset", "ordering", "brief", "fields", "omit")
                            .contains(p.getKey())) {
                        continue;
                    }
                    names.add(p.getKey());
                    query.append('&')
                            .append(p.getKey())
                            .append('=')
                            .append(sample(p.getValue().get("schema")));
                }
                io.restassured.response.Response r =
                        Api.auth().urlEncodingEnabled(false).get(url + query);
                assertTrue(
                        r.statusCode() == 200 || r.statusCode() == 400,
                        url + query + " → " + r.statusCode() + " " + r.asString());
                if (r.statusCode() == 400) {
                    JsonNode body = Json.MAPPER.valueToTree(r.jsonPath().getMap("$"));
                    for (String name : names) {
                        if (body.path(name).toString().contains("Unknown filter")) {
                            unknown.add(m.path() + "?" + name);
                        }
                    }
                }
                checked += names.size();
            }
        }
        assertTrue(checked > 2000, "filters checked: " + checked);
        assertEquals(List.of(), unknown, "documented filters the compiler does not know");
    }

    /** A value of the parameter's type (it need not match anything). */
    private static String sample(JsonNode schema) {
        JsonNode value = schema.has("items") ? schema.get("items") : schema;
        if (value.has("enum")) {
            return value.get("enum").get(0).asText();
        }
        String format = value.path("format").asText();
        return switch (value.path("type").asText()) {
            case "integer" -> "1";
            case "number" -> "1.5";
            case "boolean" -> "true";
            default ->
                switch (format) {
                    case "date-time" -> "2024-01-01T00:00:00Z";
                    case "date" -> "2024-01-01";
                    case "uuid" -> UUID.randomUUID().toString();
                    default -> "x";
                };
        };
    }

    // ------------------------------------------------------------------- security

    @Test
    void securitySchemesAreNetBoxs() {
        JsonNode schemes = document.at("/components/securitySchemes");
        assertEquals("apiKey", schemes.at("/tokenAuth/type").asText());
        assertEquals("header", schemes.at("/tokenAuth/in").asText());
        assertEquals("Authorization", schemes.at("/tokenAuth/name").asText());
        assertEquals("apiKey", schemes.at("/cookieAuth/type").asText());
        assertEquals("cookie", schemes.at("/cookieAuth/in").asText());
        assertEquals("sessionid", schemes.at("/cookieAuth/name").asText());
        Set<String> required = new LinkedHashSet<>();
        document.get("security").forEach(s -> s.fieldNames().forEachRemaining(required::add));
        assertEquals(Set.of("tokenAuth", "cookieAuth"), required);
    }

    @Test
    void swaggerUiAnswersAndLoadsThisDocument() {
        String page = given().get("/api/schema/swagger-ui/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertTrue(page.contains("swagger-ui"), page);
        assertTrue(page.contains("/api/schema"), "the UI must load /api/schema: " + page);
    }

    // ------------------------------------------------------------------- helpers

    private static Map<String, JsonNode> listParameters(String path) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        document.get("paths")
                .get(path)
                .path("get")
                .path("parameters")
                .forEach(p -> out.put(p.get("name").asText(), p));
        return out;
    }

    private static List<String> enumOf(JsonNode schema) {
        return strings(schema.get("enum"));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(v -> out.add(v.asText()));
        }
        return out;
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
