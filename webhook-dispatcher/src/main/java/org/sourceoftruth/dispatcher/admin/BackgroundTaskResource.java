package org.sourceoftruth.dispatcher.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

import java.net.URI;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NetBox 4's background tasks (/api/core/background-tasks/), served by the dispatcher: one task
 * per webhook delivery, listed with NetBox's pagination envelope, and failed ones requeued.
 * Superusers only (see {@link ApiFilters}).
 */
@Path("/api/core/background-tasks/")
@Produces(MediaType.APPLICATION_JSON)
public class BackgroundTaskResource {

    @Inject
    BackgroundTaskQueries queries;
    @Inject
    TaskRequeue taskRequeue;
    @Inject
    DispatcherConfig config;

    @GET
    @Operation(summary = "List webhook deliveries (filters: status, webhook_id, event_rule_id, model, request_id, "
            + "object_id, event; limit/offset)")
    public Map<String, Object> list(@Context UriInfo uri) throws SQLException {
        Map<String, List<String>> query = uri.getQueryParameters();
        TaskFilter filter = TaskFilter.from(query);
        Integer limit = Pagination.limit(query.getOrDefault("limit", List.of()).stream().findFirst().orElse(null),
                config.api().paginateCount(), config.api().maxPageSize());
        int offset = Pagination.offset(query.getOrDefault("offset", List.of()).stream().findFirst().orElse(null));
        URI base = uri.getAbsolutePath();
        BackgroundTaskQueries.Page page = queries.list(filter, limit, offset, base.toString());
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("count", page.count());
        envelope.put("next", Pagination.next(base, query, limit, offset, page.count()));
        envelope.put("previous", Pagination.previous(base, query, limit, offset));
        envelope.put("results", page.results());
        return envelope;
    }

    @GET
    @Path("{id}/")
    @Operation(summary = "One webhook delivery with its request, response excerpt and attempt log")
    public Map<String, Object> get(@PathParam("id") String id, @Context UriInfo uri) throws SQLException {
        return queries.get(parseId(id), collectionUrl(uri)).orElseThrow(BackgroundTaskResource::notFound);
    }

    @POST
    @Path("{id}/requeue/")
    @Operation(summary = "Queue a failed delivery again for a new round of attempts")
    public Map<String, Object> requeue(@PathParam("id") String id, @Context UriInfo uri) throws SQLException {
        long taskId = parseId(id);
        taskRequeue.requeue(taskId);
        return queries.get(taskId, collectionUrl(uri)).orElseThrow(BackgroundTaskResource::notFound);
    }

    static long parseId(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw notFound();
        }
    }

    static ApiException notFound() {
        return ApiException.detail(404, "Not found.");
    }

    private static String collectionUrl(UriInfo uri) {
        return uri.getBaseUriBuilder().path("/api/core/background-tasks/").build().toString();
    }
}
