package org.sourceoftruth.records.api;

import com.fasterxml.jackson.core.JsonGenerator;
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
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jboss.resteasy.reactive.server.multipart.MultipartFormDataInput;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.DetailQuery;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.RenderedRows;
import org.sourceoftruth.records.memory.HeapBudget;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.ETags;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.JsonResponseBody;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

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
    QueryParameters parameters;

    @Inject
    jakarta.enterprise.inject.Instance<ListExport> exports;

    @Inject
    MultipartBodies multipart;

    @Inject
    HeapBudget heapBudget;

    @Inject
    jakarta.enterprise.inject.Instance<ObjectPost> objectPosts;

    // ------------------------------------------------------------- list path

    @GET
    public Response list(@PathParam("app") String app, @PathParam("model") String path) {
        Model model = model(app, path);
        access.require(model, Access.Action.VIEW);
        Map<String, List<String>> query = query();
        List<String> export = query.get("export");
        if (export != null && !export.isEmpty() && exports.isResolvable()) {
            return exports.get().export(model, export.get(0), query);
        }
        ListQuery.PageRequest pageRequest = parameters.page(model, query);
        ListQuery.Page page = service.list(model, query, parameters.renderOptions(query), pageRequest);
        String listUrl = request.baseUrl() + uri.getPath();
        if (page.rows().isRendered()) {
            return Responses.json(200, PageEnvelope.of(listUrl, query, pageRequest, page), headers);
        }
        return Responses.json(200, PageEnvelope.body(listUrl, query, pageRequest, page, heapBudget), headers);
    }

    @POST
    public Response create(@PathParam("app") String app, @PathParam("model") String path, String body) {
        Model model = writable(app, path, "POST");
        access.require(model, Access.Action.ADD);
        JsonNode json = JsonBody.parse(body);
        boolean bulk = json.isArray();
        List<JsonNode> items = bulk ? BulkItems.of(json) : List.of(json);
        if (bulk && items.isEmpty()) {
            throw ApiException.list("Expected a list of items but received an empty list.");
        }
        List<RenderedObject> created = service.create(model, items, bulk);
        if (bulk) {
            ArrayNode arr = Json.MAPPER.createArrayNode();
            created.forEach(s -> arr.add(s.node()));
            return Responses.json(201, arr, headers);
        }
        return ETags.withETag(
                Responses.json(201, created.get(0).node(), headers),
                created.get(0).etag());
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
        List<JsonNode> items = BulkItems.required(JsonBody.parse(body));
        List<Long> ids = BulkItems.ids(items);
        List<RenderedObject> updated = service.update(model, ids, items, partial, true, null);
        ArrayNode arr = Json.MAPPER.createArrayNode();
        updated.forEach(s -> arr.add(s.node()));
        return Responses.json(200, arr, headers);
    }

    @DELETE
    public Response bulkDelete(@PathParam("app") String app, @PathParam("model") String path, String body) {
        Model model = writable(app, path, "DELETE");
        access.require(model, Access.Action.DELETE);
        List<JsonNode> items = BulkItems.required(JsonBody.parse(body));
        service.delete(model, BulkItems.ids(items), true, null, null);
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
        DetailQuery.Detail one = service.read(model, id, parameters.renderOptions(query()));
        if (one.object().isRendered()) {
            return ETags.withETag(Responses.json(200, one.object().all().get(0), headers), one.etag());
        }
        return ETags.withETag(Responses.json(200, detailBody(model, id, one.object()), headers), one.etag());
    }

    /** A detail whose object is read when it is written, under the heap budget. */
    private JsonResponseBody.Content detailBody(Model model, long id, RenderedRows object) {
        return new JsonResponseBody.Content() {
            @Override
            public void write(JsonGenerator json) throws IOException {
                if (!object.writeOne(json, heapBudget)) {
                    // deleted since its first read: the response is cut short, as for a lost connection
                    throw new IOException(model.contentType() + " " + id + " was deleted while it was sent");
                }
            }

            @Override
            public JsonNode tree() {
                List<ObjectNode> all = object.all();
                if (all.isEmpty()) {
                    throw ApiException.notFound();
                }
                return all.get(0);
            }
        };
    }

    @PUT
    @Path("{id: [0-9]+}/")
    public Response put(
            @PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id, String body) {
        return updateOne(app, path, id, body, false);
    }

    @PATCH
    @Path("{id: [0-9]+}/")
    public Response patch(
            @PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id, String body) {
        return updateOne(app, path, id, body, true);
    }

    private Response updateOne(String app, String path, long id, String body, boolean partial) {
        Model model = writable(app, path, partial ? "PATCH" : "PUT");
        access.require(model, Access.Action.CHANGE);
        JsonNode json = JsonBody.parse(body);
        if (!json.isObject()) {
            throw ApiException.field(
                    "non_field_errors",
                    "Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(json) + ".");
        }
        List<RenderedObject> out = service.update(model, List.of(id), List.of(json), partial, false, ifMatch());
        return ETags.withETag(
                Responses.json(200, out.get(0).node(), headers), out.get(0).etag());
    }

    @DELETE
    @Path("{id: [0-9]+}/")
    public Response delete(
            @PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id, String body) {
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
        return Responses.json(
                200, optionsWriter.describe(model, "Instance", canWrite(model, Access.Action.CHANGE)), headers);
    }

    // ------------------------------------------- multipart bodies (image uploads)

    /** POST of one object as multipart/form-data: models with an image field (pynetbox, curl -F). */
    @POST
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Response createMultipart(
            @PathParam("app") String app, @PathParam("model") String path, MultipartFormDataInput form) {
        Model model = multipartModel(app, path, "POST");
        access.require(model, Access.Action.ADD);
        List<RenderedObject> created = service.create(model, List.of(multipart.read(model, form)), false);
        return ETags.withETag(
                Responses.json(201, created.get(0).node(), headers),
                created.get(0).etag());
    }

    @PUT
    @Path("{id: [0-9]+}/")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Response putMultipart(
            @PathParam("app") String app,
            @PathParam("model") String path,
            @PathParam("id") long id,
            MultipartFormDataInput form) {
        return updateMultipart(app, path, id, form, false);
    }

    @PATCH
    @Path("{id: [0-9]+}/")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Response patchMultipart(
            @PathParam("app") String app,
            @PathParam("model") String path,
            @PathParam("id") long id,
            MultipartFormDataInput form) {
        return updateMultipart(app, path, id, form, true);
    }

    private Response updateMultipart(String app, String path, long id, MultipartFormDataInput form, boolean partial) {
        Model model = multipartModel(app, path, partial ? "PATCH" : "PUT");
        access.require(model, Access.Action.CHANGE);
        List<RenderedObject> out =
                service.update(model, List.of(id), List.of(multipart.read(model, form)), partial, false, ifMatch());
        return ETags.withETag(
                Responses.json(200, out.get(0).node(), headers), out.get(0).etag());
    }

    private Model multipartModel(String app, String path, String method) {
        Model model = model(app, path);
        if (model.isReadOnlyApi()) {
            throw ApiException.detail(405, "Method \"" + method + "\" not allowed.");
        }
        if (!MultipartBodies.accepts(model)) {
            throw ApiException.detail(415, "Unsupported media type \"multipart/form-data\" in request.");
        }
        return model;
    }

    /** A JSON POST on an object: the model's {@link ObjectPost} where it declares one, else 405. */
    @POST
    @Path("{id: [0-9]+}/")
    public Response postOne(
            @PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id, String body) {
        Model model = model(app, path);
        for (ObjectPost post : objectPosts) {
            if (post.contentType().equals(model.contentType())) {
                return post.post(id, body);
            }
        }
        throw ApiException.detail(405, "Method \"POST\" not allowed.");
    }

    // ------------------------------------------------- browsable API form posts

    /** The browsable API's create form: {@code _method=POST}, raw JSON in {@code _content}. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response createForm(
            @PathParam("app") String app,
            @PathParam("model") String path,
            @FormParam("_method") String method,
            @FormParam("_content") String content) {
        checkForm();
        Model model = formModel(app, path);
        access.require(model, Access.Action.ADD);
        JsonNode json = JsonBody.parse(content);
        List<RenderedObject> created =
                service.create(model, json.isArray() ? BulkItems.of(json) : List.of(json), json.isArray());
        String target = json.isArray()
                ? uri.getPath()
                : uri.getPath() + created.get(0).node().get("id").asLong() + "/";
        return Response.seeOther(java.net.URI.create(target)).build();
    }

    /** The browsable API's change and delete forms on a detail page. */
    @POST
    @Path("{id: [0-9]+}/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response changeForm(
            @PathParam("app") String app,
            @PathParam("model") String path,
            @PathParam("id") long id,
            @FormParam("_method") String method,
            @FormParam("_content") String content) {
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
        return ETags.ifMatch(headers.getHeaderString("If-Match"));
    }

    private Map<String, List<String>> query() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        uri.getQueryParameters().forEach((k, v) -> q.put(k, v));
        return q;
    }
}
