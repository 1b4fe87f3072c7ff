package org.sourceoftruth.dispatcher.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.delivery.WorkerHeartbeat;

/**
 * NetBox's background queues (/api/core/background-queues/, BackgroundQueueSerializer): the
 * deliveries are the {@code default} queue (where NetBox runs webhooks); {@code high} and
 * {@code low} exist and stay empty. Superusers only (see {@link ApiFilters}).
 */
@Path("/api/core/background-queues/")
@Produces(MediaType.APPLICATION_JSON)
public class BackgroundQueueResource {

    /** django-rq's format of oldest_job_timestamp ("-" for an empty queue). */
    private static final DateTimeFormatter OLDEST =
            DateTimeFormatter.ofPattern("yyyy-MM-dd, HH:mm:ss").withZone(ZoneOffset.UTC);

    @Inject
    BackgroundTaskQueries queries;

    @Inject
    WorkerHeartbeat heartbeat;

    @Inject
    DispatcherConfig config;

    @GET
    @Operation(summary = "NetBox's queues with their task counts per status (limit/offset)")
    public Map<String, Object> list(@Context UriInfo uri) throws SQLException {
        return Pagination.page(
                queues(uri), uri, config.api().paginateCount(), config.api().maxPageSize());
    }

    @GET
    @Path("{name}/")
    @Operation(summary = "One queue by name")
    public Map<String, Object> get(@PathParam("name") String name, @Context UriInfo uri) throws SQLException {
        return queues(uri).stream()
                .filter(queue -> queue.get("name").equals(name))
                .findFirst()
                .orElseThrow(BackgroundTaskResource::notFound);
    }

    private List<Map<String, Object>> queues(UriInfo uri) throws SQLException {
        Map<String, Long> counts = queries.countByStatus();
        String oldest =
                queries.oldestQueued().map(t -> OLDEST.format(t.toInstant())).orElse("-");
        int workers = heartbeat.live().size();
        List<Map<String, Object>> queues = new ArrayList<>();
        for (String name : TaskStatus.QUEUES) {
            boolean deliveries = name.equals(TaskStatus.QUEUE);
            Map<String, Object> queue = new LinkedHashMap<>();
            queue.put("name", name);
            queue.put(
                    "url",
                    uri.getBaseUriBuilder()
                            .path("/api/core/background-queues/" + name + "/")
                            .build()
                            .toString());
            queue.put("jobs", deliveries ? counts.getOrDefault("queued", 0L) : 0L);
            queue.put("oldest_job_timestamp", deliveries ? oldest : "-");
            queue.put("index", TaskStatus.QUEUES.indexOf(name));
            // retries are scheduled by every dispatcher process itself; there is no separate scheduler
            queue.put("scheduler_pid", null);
            queue.put("workers", deliveries ? workers : 0);
            for (String status : List.of("finished", "started", "deferred", "failed", "scheduled")) {
                queue.put(status + "_jobs", deliveries ? counts.getOrDefault(status, 0L) : 0L);
            }
            queues.add(queue);
        }
        return queues;
    }
}
