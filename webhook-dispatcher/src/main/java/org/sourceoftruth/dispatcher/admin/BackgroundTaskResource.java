package org.sourceoftruth.dispatcher.admin;

import jakarta.inject.Inject;
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
import java.net.URI;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

/**
 * NetBox 4's background tasks (/api/core/background-tasks/), served by the dispatcher: one task
 * per webhook delivery, listed with NetBox's pagination envelope, with NetBox's task actions
 * (requeue, enqueue, stop, delete).
 * Superusers only (see {@link ApiFilters}).
 */
@Path("/api/core/background-tasks/")
@Produces(MediaType.APPLICATION_JSON)
public class BackgroundTaskResource {

    @Inject
    BackgroundTaskQueries queries;

    @Inject
    TaskActions taskActions;

    @Inject
    DispatcherConfig config;

    @GET
    @Operation(
            summary = "List webhook deliveries (filters: status, webhook_id, event_rule_id, model, request_id, "
                    + "object_id, event; limit/offset)")
    public Map<String, Object> list(@Context UriInfo uri) throws SQLException {
        Map<String, List<String>> query = uri.getQueryParameters();
        TaskFilter filter = TaskFilter.from(query);
        Integer limit = Pagination.limit(
                Pagination.first(query, "limit"),
                config.api().paginateCount(),
                config.api().maxPageSize());
        int offset = Pagination.offset(Pagination.first(query, "offset"));
        URI base = uri.getAbsolutePath();
        BackgroundTaskQueries.Page page = queries.list(filter, limit, offset, base.toString());
        return Pagination.envelope(base, query, limit, offset, page.count(), page.results());
    }

    @GET
    @Path("{id}/")
    @Operation(summary = "One webhook delivery with its request, response excerpt and attempt log")
    public Map<String, Object> get(@PathParam("id") String id, @Context UriInfo uri) throws SQLException {
        return task(parseId(id), uri);
    }

    @POST
    @Path("{id}/requeue/")
    @Operation(summary = "Queue a failed delivery again for a new round of attempts")
    public Map<String, Object> requeue(@PathParam("id") String id, @Context UriInfo uri) throws SQLException {
        long taskId = parseId(id);
        taskActions.requeue(taskId);
        return task(taskId, uri);
    }

    @POST
    @Path("{id}/enqueue/")
    @Operation(summary = "Send a scheduled retry now, or queue a failed delivery again")
    public Map<String, Object> enqueue(@PathParam("id") String id, @Context UriInfo uri) throws SQLException {
        long taskId = parseId(id);
        taskActions.enqueue(taskId);
        return task(taskId, uri);
    }

    /** NetBox: 200 when the task was stopped, 204 when there was nothing to stop. */
    @POST
    @Path("{id}/stop/")
    @Operation(summary = "Cancel a queued delivery: it fails with the reason, no further attempt is made")
    public Response stop(@PathParam("id") String id, @Context UriInfo uri, @Context ContainerRequestContext request)
            throws SQLException {
        long taskId = parseId(id);
        Caller caller = (Caller) request.getProperty("caller");
        if (!taskActions.stop(taskId, caller.username())) {
            return Response.noContent().build();
        }
        return Response.ok(task(taskId, uri)).build();
    }

    @POST
    @Path("{id}/delete/")
    @Operation(summary = "Remove the delivery record with its attempt log")
    public Response delete(@PathParam("id") String id) throws SQLException {
        taskActions.delete(parseId(id));
        return Response.ok().build();
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

    /** The task as the API shows it, after an action or for a read. */
    private Map<String, Object> task(long taskId, UriInfo uri) throws SQLException {
        return queries.get(taskId, collectionUrl(uri)).orElseThrow(BackgroundTaskResource::notFound);
    }

    private static String collectionUrl(UriInfo uri) {
        return uri.getBaseUriBuilder()
                .path("/api/core/background-tasks/")
                .build()
                .toString();
    }
}
