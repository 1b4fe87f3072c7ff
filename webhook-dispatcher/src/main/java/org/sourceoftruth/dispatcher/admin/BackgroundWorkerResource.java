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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.delivery.WorkerHeartbeat;

/**
 * NetBox's background workers (/api/core/background-workers/, BackgroundWorkerSerializer): one
 * per running dispatcher process, from their heartbeats (see {@link WorkerHeartbeat}). The job
 * counts are the process's finished deliveries since it started, as RQ counts per worker.
 */
@Path("/api/core/background-workers/")
@Produces(MediaType.APPLICATION_JSON)
public class BackgroundWorkerResource {

    @Inject
    WorkerHeartbeat heartbeat;

    @Inject
    DispatcherConfig config;

    @GET
    @Operation(summary = "The running dispatcher processes (limit/offset)")
    public Map<String, Object> list(@Context UriInfo uri) throws SQLException {
        List<Map<String, Object>> workers =
                heartbeat.live().stream().map(w -> represent(w, uri)).toList();
        return Pagination.page(
                workers, uri, config.api().paginateCount(), config.api().maxPageSize());
    }

    @GET
    @Path("{name}/")
    @Operation(summary = "One dispatcher process by name")
    public Map<String, Object> get(@PathParam("name") String name, @Context UriInfo uri) throws SQLException {
        return heartbeat.live().stream()
                .filter(w -> w.name().equals(name))
                .findFirst()
                .map(w -> represent(w, uri))
                .orElseThrow(BackgroundTaskResource::notFound);
    }

    private static Map<String, Object> represent(WorkerHeartbeat.Worker worker, UriInfo uri) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", worker.name());
        entry.put(
                "url",
                uri.getBaseUriBuilder()
                        .path("/api/core/background-workers/" + worker.name() + "/")
                        .build()
                        .toString());
        entry.put("state", worker.state());
        entry.put("birth_date", worker.birthDate().toString());
        entry.put("queue_names", List.of(TaskStatus.QUEUE));
        entry.put("pid", String.valueOf(worker.pid()));
        entry.put("successful_job_count", worker.successfulJobCount());
        entry.put("failed_job_count", worker.failedJobCount());
        // RQ counts seconds
        entry.put("total_working_time", worker.totalWorkingTimeMs() / 1000);
        entry.put("hostname", worker.hostname());
        entry.put("last_heartbeat", worker.lastHeartbeat().toString());
        return entry;
    }
}
