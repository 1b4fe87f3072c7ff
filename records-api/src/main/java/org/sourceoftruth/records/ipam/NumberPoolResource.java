package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.JsonBody;

/**
 * {@code GET|POST <pool>/<id>/available-<items>/} of a {@link NumberPool}: the free numbers (not
 * paginated, at most {@code limit}), and objects created at the next free ones (201), or 409 when
 * the pool has too few left. A subclass names the path and the pool.
 */
abstract class NumberPoolResource implements AnswersOptions {
    @Context
    HttpHeaders headers;

    @Inject
    ModelRegistry registry;

    @Inject
    Access access;

    @Inject
    ApiConfig config;

    abstract NumberPool pool();

    @GET
    @Operation(hidden = true) // described by AvailabilityDocumentation
    public Response get(@PathParam("id") long id, @QueryParam("limit") String limit) {
        access.require(registry.require(pool().poolType()), Access.Action.VIEW);
        access.require(registry.require(pool().itemType()), Access.Action.VIEW);
        return AvailabilityResource.list(
                pool().available(id, AvailabilityResource.resultsLimit(config, limit)), headers);
    }

    @POST
    @Operation(hidden = true)
    public Response post(@PathParam("id") long id, String body) {
        access.require(registry.require(pool().itemType()), Access.Action.ADD);
        JsonNode json = JsonBody.parse(body);
        return AvailabilityResource.created(
                pool().allocate(id, AvailabilityResource.items(json), json.isArray()), json.isArray(), headers);
    }
}
