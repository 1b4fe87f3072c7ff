package org.sourceoftruth.records.core;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.extras.SyncedDataBinding;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * {@code POST /api/core/data-sources/<id>/sync/}: synchronises the data source now
 * ({@link DataSourceSync}) and answers the data source, as NetBox's DataSourceViewSet.sync.
 * It needs the {@code sync} action on core.datasource (NetBox's core.sync_datasource) for that
 * object, and a write-enabled token.
 */
@Path("/api/core/data-sources/{id: [0-9]+}/sync/")
@Tag(name = "core")
public class DataSourceSyncResource implements AnswersOptions {
    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Inject
    DataSourceSync sync;

    @Inject
    SyncedDataBinding binding;

    private static final org.jboss.logging.Logger LOG =
            org.jboss.logging.Logger.getLogger(DataSourceSyncResource.class);

    @Context
    HttpHeaders headers;

    @POST
    @Operation(
            operationId = "core_data_sources_sync_create",
            description = "Synchronise the data source's files now (local sources: a directory on the server).")
    public Response sync(@PathParam("id") long id) {
        Model source = registry.require("core.datasource");
        access.require(source, Access.Action.VIEW);
        Renderer.Options opts = Renderer.Options.full(request.baseUrl());
        service.get(source, id, opts); // 404 for an unknown or invisible source
        RequestContext.Caller caller = request.caller();
        if (caller == null) {
            throw ApiException.detail(403, "Authentication credentials were not provided.");
        }
        if (!caller.writeEnabled() || !access.permits(source, id, "sync")) {
            throw ApiException.detail(403, "This user does not have permission to synchronize this data source.");
        }
        access.requireWritable();
        sync.sync(id, caller.userId());
        // NetBox's auto_sync: objects bound to the source's files with auto_sync_enabled copy them
        // again, each a save of its own; one the caller may not change keeps its content
        for (SyncedDataBinding.Bound bound : binding.autoSynced(id)) {
            try {
                binding.resync(bound.model(), bound.id(), opts);
            } catch (ApiException e) {
                LOG.infof(
                        "auto-sync of %s %d after data source %d skipped: %s",
                        bound.model().contentType(), bound.id(), id, e.getMessage());
            }
        }
        return Responses.json(200, service.get(source, id, opts).node(), headers);
    }
}
