package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.Responses;

/**
 * The allocation endpoints automation uses most: {@code GET|POST
 * /api/ipam/prefixes/<id>/available-ips/}, {@code .../available-prefixes/} and
 * {@code /api/ipam/ip-ranges/<id>/available-ips/}. GET lists free space (not paginated, at most
 * {@code limit}); POST creates the next free objects (201), or answers 409 when there is not
 * enough room.
 */
// The class path names the action so that it never matches a plain detail URL, which belongs to
// the generic resource (JAX-RS picks one resource class per request before looking at methods).
@Path("/api/ipam/{parent: prefixes|ip-ranges}/{id: [0-9]+}/{action: available-ips|available-prefixes}/")
public class AvailabilityResource implements AnswersOptions {
    /** "Everything" when MAX_PAGE_SIZE is 0; an IPv6 /64 must not be listed address by address. */
    private static final int UNLIMITED = 10_000;

    @Inject
    Availability availability;

    @Inject
    ModelRegistry registry;

    @Inject
    Access access;

    @Context
    HttpHeaders headers;

    @Inject
    ApiConfig config;

    @GET
    @Operation(hidden = true) // described per URL by AvailabilityDocumentation
    public Response get(
            @PathParam("parent") String parent,
            @PathParam("id") long id,
            @PathParam("action") String action,
            @QueryParam("limit") String limit) {
        return action.equals("available-ips") ? availableIps(parent, id, limit) : availablePrefixes(parent, id);
    }

    @POST
    @Operation(hidden = true)
    public Response post(
            @PathParam("parent") String parent,
            @PathParam("id") long id,
            @PathParam("action") String action,
            String body) {
        return action.equals("available-ips") ? allocateIps(parent, id, body) : allocatePrefixes(parent, id, body);
    }

    private Response availableIps(String parent, long id, String limit) {
        Availability.ParentKind kind = kind(parent);
        access.require(registry.require(kind.contentType), Access.Action.VIEW);
        access.require(registry.require("ipam.ipaddress"), Access.Action.VIEW);
        return list(availability.availableIps(kind, id, limit(limit)));
    }

    private Response allocateIps(String parent, long id, String body) {
        Availability.ParentKind kind = kind(parent);
        access.require(registry.require("ipam.ipaddress"), Access.Action.ADD);
        JsonNode json = JsonBody.parse(body);
        return created(availability.allocateIps(kind, id, items(json), json.isArray()), json.isArray());
    }

    private Response availablePrefixes(String parent, long id) {
        requirePrefix(parent);
        access.require(registry.require("ipam.prefix"), Access.Action.VIEW);
        return list(availability.availablePrefixes(id));
    }

    private Response allocatePrefixes(String parent, long id, String body) {
        requirePrefix(parent);
        access.require(registry.require("ipam.prefix"), Access.Action.ADD);
        JsonNode json = JsonBody.parse(body);
        return created(availability.allocatePrefixes(id, items(json), json.isArray()), json.isArray());
    }

    private static Availability.ParentKind kind(String parent) {
        return parent.equals("prefixes") ? Availability.ParentKind.PREFIX : Availability.ParentKind.IP_RANGE;
    }

    /** available-prefixes exists on prefixes only. */
    private static void requirePrefix(String parent) {
        if (!parent.equals("prefixes")) {
            throw ApiException.notFound();
        }
    }

    /** A single object or a list of objects; NetBox answers in the same shape. */
    static List<JsonNode> items(JsonNode json) {
        List<JsonNode> items = new ArrayList<>();
        if (json.isArray()) {
            json.forEach(items::add);
            if (items.isEmpty()) {
                throw ApiException.list("Expected a list of items but received an empty list.");
            }
        } else {
            items.add(json);
        }
        return items;
    }

    private int limit(String raw) {
        return resultsLimit(config, raw);
    }

    /** NetBox's get_results_limit: ?limit= (0 = MAX_PAGE_SIZE), else PAGINATE_COUNT, capped by MAX_PAGE_SIZE. */
    static int resultsLimit(ApiConfig config, String raw) {
        int limit;
        try {
            limit = raw == null ? config.paginateCount() : Integer.parseInt(raw.trim());
            if (limit == 0) {
                limit = config.maxPageSize() > 0 ? config.maxPageSize() : UNLIMITED;
            }
        } catch (NumberFormatException e) {
            limit = config.paginateCount();
        }
        if (limit < 0) {
            limit = config.paginateCount();
        }
        return config.maxPageSize() > 0 ? Math.min(limit, config.maxPageSize()) : limit;
    }

    private Response list(List<JsonNode> nodes) {
        return list(nodes, headers);
    }

    static Response list(List<JsonNode> nodes, HttpHeaders headers) {
        ArrayNode arr = Json.MAPPER.createArrayNode();
        nodes.forEach(arr::add);
        return Responses.json(200, arr, headers);
    }

    private Response created(List<RenderedObject> created, boolean bulk) {
        return created(created, bulk, headers);
    }

    static Response created(List<RenderedObject> created, boolean bulk, HttpHeaders headers) {
        if (bulk) {
            ArrayNode arr = Json.MAPPER.createArrayNode();
            created.forEach(s -> arr.add(s.node()));
            return Responses.json(201, arr, headers);
        }
        return Responses.json(201, created.get(0).node(), headers);
    }
}
