package org.sourceoftruth.records.api;

import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.Responses;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The one JAX-RS resource behind every model endpoint: {@code /api/<app>/<model>/} and
 * {@code /api/<app>/<model>/<id>/} for GET, POST, PUT, PATCH, DELETE and OPTIONS, driven by
 * the model declarations in {@link ModelRegistry}.
 */
@Path("/api/{app}/{model}/")
public class GenericModelResource {
    @Inject
    ModelRegistry registry;
    @Inject
    ModelService service;
    @Inject
    RequestContext request;
    @Inject
    Access access;
    @Inject
    OptionsWriter optionsWriter;
    @Context
    HttpHeaders headers;
    @Context
    UriInfo uri;
    @Inject
    ApiConfig config;

    // ------------------------------------------------------------- list path

    @GET
    public Response list(@PathParam("app") String app, @PathParam("model") String path) {
        Model model = model(app, path);
        access.require(model, Access.Action.VIEW);
        Map<String, List<String>> query = query();
        Long start = parseStart(query);
        Long limit = effectiveLimit(first(query, "limit"));
        long offset = parseOffset(first(query, "offset"));
        ModelService.Page page = service.list(model, query, options(query, true),
                new ModelService.PageRequest(limit, offset, start));
        ObjectNode env = Json.MAPPER.createObjectNode();
        if (start != null) {
            env.putNull("count");
            boolean full = limit != null && page.results().size() == limit;
            env.put("next", full ? link(query, Map.of("start", String.valueOf(page.lastId() + 1), "limit",
                    String.valueOf(limit)), Set.of("offset")) : null);
            env.putNull("previous");
        } else {
            env.put("count", page.count());
            boolean hasNext = limit != null && offset + limit < page.count();
            env.put("next", hasNext ? link(query, Map.of("limit", String.valueOf(limit), "offset",
                    String.valueOf(offset + limit)), Set.of()) : null);
            if (limit == null || offset <= 0) {
                env.putNull("previous");
            } else if (offset - limit <= 0) {
                env.put("previous", link(query, Map.of("limit", String.valueOf(limit)), Set.of("offset")));
            } else {
                env.put("previous", link(query, Map.of("limit", String.valueOf(limit), "offset",
                        String.valueOf(offset - limit)), Set.of()));
            }
        }
        ArrayNode results = env.putArray("results");
        page.results().forEach(results::add);
        return Responses.json(200, env, headers);
    }

    @POST
    public Response create(@PathParam("app") String app, @PathParam("model") String path, String body) {
        Model model = writable(app, path, "POST");
        access.require(model, Access.Action.ADD);
        JsonNode json = JsonBody.parse(body);
        boolean bulk = json.isArray();
        List<JsonNode> items = bulk ? list(json) : List.of(json);
        if (bulk && items.isEmpty()) {
            throw ApiException.list("Expected a list of items but received an empty list.");
        }
        List<ModelService.Single> created = service.create(model, items, bulk);
        if (bulk) {
            ArrayNode arr = Json.MAPPER.createArrayNode();
            created.forEach(s -> arr.add(s.node()));
            return Responses.json(201, arr, headers);
        }
        return withEtag(Responses.json(201, created.get(0).node(), headers), created.get(0).etag());
    }

    @PUT
    public Response bulkPut(@PathParam("app") String app, @PathParam("model") String path, String body) {
        return bulkUpdate(app, path, body, false);
    }

    @PATCH
    public Response bulkPatch(@PathParam("app") String app, @PathParam("model") String path, String body) {
        return bulkUpdate(app, path, body, true);
    }

    private Response bulkUpdate(String app, String path, String body, boolean partial) {
        Model model = writable(app, path, partial ? "PATCH" : "PUT");
        access.require(model, Access.Action.CHANGE);
        List<JsonNode> items = bulkItems(JsonBody.parse(body));
        List<Long> ids = bulkIds(items);
        List<ModelService.Single> updated = service.update(model, ids, items, partial, true, null);
        ArrayNode arr = Json.MAPPER.createArrayNode();
        updated.forEach(s -> arr.add(s.node()));
        return Responses.json(200, arr, headers);
    }

    @DELETE
    public Response bulkDelete(@PathParam("app") String app, @PathParam("model") String path, String body) {
        Model model = writable(app, path, "DELETE");
        access.require(model, Access.Action.DELETE);
        List<JsonNode> items = bulkItems(JsonBody.parse(body));
        service.delete(model, bulkIds(items), true, null, null);
        return Response.noContent().build();
    }

    /** OPTIONS needs no model permission (NetBox's perms_map); write actions are shown to those who may write. */
    @OPTIONS
    public Response options(@PathParam("app") String app, @PathParam("model") String path) {
        Model model = model(app, path);
        access.requireAuthenticated();
        return Responses.json(200, optionsWriter.describe(model, "List", canWrite(model, Access.Action.ADD)), headers);
    }

    // ------------------------------------------------------------ detail path

    @GET
    @Path("{id: [0-9]+}/")
    public Response get(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id) {
        Model model = model(app, path);
        access.require(model, Access.Action.VIEW);
        ModelService.Single one = service.get(model, id, options(query(), false));
        return withEtag(Responses.json(200, one.node(), headers), one.etag());
    }

    @PUT
    @Path("{id: [0-9]+}/")
    public Response put(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id,
                        String body) {
        return updateOne(app, path, id, body, false);
    }

    @PATCH
    @Path("{id: [0-9]+}/")
    public Response patch(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id,
                          String body) {
        return updateOne(app, path, id, body, true);
    }

    private Response updateOne(String app, String path, long id, String body, boolean partial) {
        Model model = writable(app, path, partial ? "PATCH" : "PUT");
        access.require(model, Access.Action.CHANGE);
        JsonNode json = JsonBody.parse(body);
        if (!json.isObject()) {
            throw ApiException.field("non_field_errors", "Invalid data. Expected a dictionary, but got "
                    + ErrorMapper.jsonType(json) + ".");
        }
        List<ModelService.Single> out = service.update(model, List.of(id), List.of(json), partial, false, ifMatch());
        return withEtag(Responses.json(200, out.get(0).node(), headers), out.get(0).etag());
    }

    @DELETE
    @Path("{id: [0-9]+}/")
    public Response delete(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id,
                           String body) {
        Model model = writable(app, path, "DELETE");
        access.require(model, Access.Action.DELETE);
        String message = null;
        if (body != null && !body.isBlank()) {
            JsonNode json = JsonBody.parse(body);
            if (json.has("changelog_message")) {
                message = json.get("changelog_message").asText();
            }
        }
        service.delete(model, List.of(id), false, ifMatch(), message);
        return Response.noContent().build();
    }

    @OPTIONS
    @Path("{id: [0-9]+}/")
    public Response optionsOne(@PathParam("app") String app, @PathParam("model") String path) {
        Model model = model(app, path);
        access.requireAuthenticated();
        return Responses.json(200, optionsWriter.describe(model, "Instance", canWrite(model, Access.Action.CHANGE)), headers);
    }

    // ------------------------------------------------- browsable API form posts

    /** The browsable API's create form: {@code _method=POST}, raw JSON in {@code _content}. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response createForm(@PathParam("app") String app, @PathParam("model") String path,
                               @FormParam("_method") String method, @FormParam("_content") String content) {
        checkForm();
        Model model = formModel(app, path);
        access.require(model, Access.Action.ADD);
        JsonNode json = JsonBody.parse(content);
        List<ModelService.Single> created = service.create(model, json.isArray() ? list(json) : List.of(json), json.isArray());
        String target = json.isArray() ? uri.getPath() : uri.getPath() + created.get(0).node().get("id").asLong() + "/";
        return Response.seeOther(java.net.URI.create(target)).build();
    }

    /** The browsable API's change and delete forms on a detail page. */
    @POST
    @Path("{id: [0-9]+}/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response changeForm(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id,
                               @FormParam("_method") String method, @FormParam("_content") String content) {
        checkForm();
        Model model = formModel(app, path);
        String listPath = "/api/" + app + "/" + path + "/";
        if ("DELETE".equalsIgnoreCase(method)) {
            access.require(model, Access.Action.DELETE);
            service.delete(model, List.of(id), false, null, null);
            return Response.seeOther(java.net.URI.create(listPath)).build();
        }
        if (!"PATCH".equalsIgnoreCase(method) && !"PUT".equalsIgnoreCase(method)) {
            throw ApiException.detail(405, "Method \"" + method + "\" not allowed.");
        }
        access.require(model, Access.Action.CHANGE);
        JsonNode json = JsonBody.parse(content);
        service.update(model, List.of(id), List.of(json), "PATCH".equalsIgnoreCase(method), false, null);
        return Response.seeOther(java.net.URI.create(listPath + id + "/")).build();
    }

    private Model formModel(String app, String path) {
        Model model = model(app, path);
        if (model.isReadOnlyApi()) {
            throw ApiException.detail(405, "Method \"POST\" not allowed.");
        }
        return model;
    }

    /** A form post needs a caller; its CSRF token was checked with the session (AuthFilter). */
    private void checkForm() {
        if (request.caller() == null) {
            throw ApiException.detail(403, "Authentication credentials were not provided.");
        }
    }

    // ------------------------------------------------------------------ helpers

    private Model model(String app, String path) {
        return registry.byPath(app, path).orElseThrow(ApiException::notFound);
    }

    private Model writable(String app, String path, String method) {
        Model model = model(app, path);
        if (model.isReadOnlyApi()) {
            throw ApiException.detail(405, "Method \"" + method + "\" not allowed.");
        }
        String type = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (type != null && !type.isBlank() && !type.toLowerCase().startsWith("application/json")) {
            throw ApiException.detail(415, "Unsupported media type \"" + type + "\" in request.");
        }
        return model;
    }

    private boolean canWrite(Model model, Access.Action action) {
        return !model.isReadOnlyApi() && access.allows(model, action);
    }

    /** If-Match on detail writes (NetBox 4.6): a mismatch is 412 with the current ETag. */
    private Function<Row, String> ifMatch() {
        String header = headers.getHeaderString("If-Match");
        if (header == null || header.isBlank()) {
            return null;
        }
        Set<String> wanted = new HashSet<>();
        Arrays.stream(header.split(",")).map(String::trim).forEach(wanted::add);
        return row -> {
            String current = ModelService.etag(row);
            if (wanted.contains("*") || wanted.contains(current)) {
                return current;
            }
            throw ApiException.detail(412, "Precondition failed.").withHeader("ETag", current);
        };
    }

    private static Response withEtag(Response r, String etag) {
        if (etag == null) {
            return r;
        }
        return Response.fromResponse(r).header("ETag", etag).build();
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items;
    }

    private static List<JsonNode> bulkItems(JsonNode json) {
        if (!json.isArray()) {
            throw ApiException.list("Expected a list of objects, but got " + ErrorMapper.jsonType(json) + ".");
        }
        if (json.isEmpty()) {
            throw ApiException.list("Expected a list of items but received an empty list.");
        }
        return list(json);
    }

    /** Bulk items must each carry an integer id; errors come back as a list aligned with the input. */
    private static List<Long> bulkIds(List<JsonNode> items) {
        List<Long> ids = new ArrayList<>();
        ArrayNode errors = Json.MAPPER.createArrayNode();
        boolean bad = false;
        Set<Long> seen = new HashSet<>();
        for (JsonNode item : items) {
            ObjectNode err = Json.MAPPER.createObjectNode();
            JsonNode id = item.isObject() ? item.get("id") : null;
            if (!item.isObject()) {
                err.putArray("non_field_errors").add("Invalid data. Expected a dictionary, but got "
                        + ErrorMapper.jsonType(item) + ".");
            } else if (id == null || id.isNull()) {
                err.putArray("id").add("This field is required.");
            } else if (!(id.canConvertToLong() && id.isIntegralNumber()) && !(id.isTextual() && id.asText().matches("\\d{1,18}"))) {
                err.putArray("id").add("A valid integer is required.");
            } else if (!seen.add(id.asLong())) {
                err.putArray("id").add("Each object may be specified only once; ID " + id.asLong() + " is listed more than once.");
            } else {
                ids.add(id.asLong());
            }
            bad |= !err.isEmpty();
            errors.add(err);
        }
        if (bad) {
            throw new ApiException(400, errors);
        }
        return ids;
    }

    private Map<String, List<String>> query() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        uri.getQueryParameters().forEach((k, v) -> q.put(k, v));
        return q;
    }

    private static String first(Map<String, List<String>> q, String name) {
        List<String> v = q.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    private Renderer.Options options(Map<String, List<String>> q, boolean listMode) {
        String brief = first(q, "brief");
        Set<String> include = null;
        String fields = first(q, "fields");
        if (fields != null && !fields.isBlank()) {
            include = new HashSet<>(Arrays.asList(fields.split(",")));
            include.removeIf(String::isBlank);
        }
        Set<String> omit = new HashSet<>();
        String omitParam = first(q, "omit");
        if (omitParam != null) {
            omit.addAll(Arrays.asList(omitParam.split(",")));
        }
        String exclude = first(q, "exclude");
        if (exclude != null && exclude.contains("config_context")) {
            omit.add("config_context");
        }
        boolean briefMode = brief != null && !brief.isEmpty() && include == null;
        return new Renderer.Options(request.baseUrl(), briefMode ? Renderer.Mode.BRIEF : Renderer.Mode.FULL, include, omit);
    }

    /** NetBox's effective limit: default page size, capped by MAX_PAGE_SIZE; 0 = all when unlimited. */
    private Long effectiveLimit(String raw) {
        long limit;
        try {
            limit = raw == null ? -1 : Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            limit = -1;
        }
        boolean unlimited = config.maxPageSize() <= 0;
        if (limit < 0) {
            return unlimited ? (long) config.paginateCount() : Math.min(config.paginateCount(), config.maxPageSize());
        }
        if (limit == 0) {
            return unlimited ? null : (long) config.maxPageSize();
        }
        return unlimited ? limit : Math.min(limit, config.maxPageSize());
    }

    private static long parseOffset(String raw) {
        try {
            return raw == null ? 0 : Math.max(0, Long.parseLong(raw.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Long parseStart(Map<String, List<String>> q) {
        String raw = first(q, "start");
        if (raw == null) {
            return null;
        }
        if (first(q, "offset") != null) {
            throw ApiException.list("'start' and 'offset' are mutually exclusive.");
        }
        if (first(q, "ordering") != null) {
            throw ApiException.list("Ordering cannot be specified in conjunction with cursor-based pagination.");
        }
        try {
            long v = Long.parseLong(raw.trim());
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw ApiException.list("Invalid 'start' parameter: must be a non-negative integer.");
        }
    }

    /** The list URL with some parameters replaced or removed, re-encoded sorted by name (as DRF). */
    private String link(Map<String, List<String>> q, Map<String, String> replace, Set<String> remove) {
        TreeMap<String, List<String>> params = new TreeMap<>(q);
        remove.forEach(params::remove);
        replace.forEach((k, v) -> params.put(k, List.of(v)));
        StringBuilder sb = new StringBuilder(request.baseUrl()).append(uri.getPath());
        char sep = '?';
        for (Map.Entry<String, List<String>> e : params.entrySet()) {
            for (String v : e.getValue()) {
                sb.append(sep).append(enc(e.getKey())).append('=').append(enc(v));
                sep = '&';
            }
        }
        return sb.toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
