package org.sourceoftruth.dispatcher.admin;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.net.URI;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.replay.Replay;
import org.sourceoftruth.dispatcher.replay.ReplayRunner;
import org.sourceoftruth.dispatcher.replay.ReplayStore;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.model.Json;

/**
 * Replays (/api/core/webhook-replays/): re-deliver past changes to one webhook, for a receiver
 * added since or one that lost its data. {@code POST} starts one ({@link ReplayRequests} says what
 * it takes), {@code GET <id>/} shows its progress, {@code POST <id>/cancel/} stops it and its
 * deliveries not sent yet. Superusers only (see {@link ApiFilters}).
 */
@Path("/api/core/webhook-replays/")
@Produces(MediaType.APPLICATION_JSON)
public class ReplayResource {

    @Inject
    ReplayStore store;

    @Inject
    ReplayRunner runner;

    @Inject
    RuleCache rules;

    @Inject
    ReplayActions actions;

    @Inject
    DispatcherConfig config;

    @GET
    @Operation(summary = "List replays, newest first (limit/offset)")
    public Map<String, Object> list(@Context UriInfo uri) throws SQLException {
        Map<String, List<String>> query = uri.getQueryParameters();
        Integer limit = Pagination.limit(
                Pagination.first(query, "limit"),
                config.api().paginateCount(),
                config.api().maxPageSize());
        int offset = Pagination.offset(Pagination.first(query, "offset"));
        URI base = uri.getAbsolutePath();
        ReplayStore.Page page = store.list(limit, offset);
        List<Object> results = new ArrayList<>();
        for (Replay replay : page.replays()) {
            results.add(actions.represent(replay, base.toString()));
        }
        return Pagination.envelope(base, query, limit, offset, page.count(), results);
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    @Operation(
            summary =
                    "Start a replay: {webhook, change_id | since [+ until], object_types, rate} (deliveries per second)")
    public Response create(byte[] body, @Context UriInfo uri, @Context ContainerRequestContext request)
            throws SQLException {
        JsonNode json;
        try {
            json = body == null || body.length == 0 ? null : Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw ApiException.detail(400, "JSON parse error: the body is not valid JSON.");
        }
        Caller caller = (Caller) request.getProperty("caller");
        ReplayStore.Request asked =
                ReplayRequests.parse(ReplayRequests.fields(json), rules, caller == null ? null : caller.username());
        Replay replay = store.create(asked);
        runner.wake();
        return Response.status(201)
                .entity(actions.represent(replay, collectionUrl(uri)))
                .build();
    }

    @GET
    @Path("{id}/")
    @Operation(summary = "One replay with its progress: changes read, deliveries recorded and by state")
    public Map<String, Object> get(@PathParam("id") String id, @Context UriInfo uri) throws SQLException {
        return actions.represent(actions.find(BackgroundTaskResource.parseId(id)), collectionUrl(uri));
    }

    @POST
    @Path("{id}/cancel/")
    @Operation(summary = "Stop a running replay; its deliveries not sent yet fail with the reason")
    public Map<String, Object> cancel(
            @PathParam("id") String id, @Context UriInfo uri, @Context ContainerRequestContext request)
            throws SQLException {
        long replayId = BackgroundTaskResource.parseId(id);
        Caller caller = (Caller) request.getProperty("caller");
        actions.cancel(replayId, caller == null ? "an operator" : caller.username());
        return actions.represent(actions.find(replayId), collectionUrl(uri));
    }

    private static String collectionUrl(UriInfo uri) {
        return uri.getBaseUriBuilder()
                .path("/api/core/webhook-replays/")
                .build()
                .toString();
    }
}
