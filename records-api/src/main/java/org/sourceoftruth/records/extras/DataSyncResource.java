package org.sourceoftruth.records.extras;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * {@code POST /api/extras/<export-templates|config-templates|config-contexts|config-context-profiles>/<id>/sync/}:
 * NetBox's SyncedDataMixin action. An object bound to a data file copies the file's current
 * content again ({@link SyncedData}; a save through the engine, with its change record); an
 * unbound one is returned unchanged, as NetBox does. Needs the change permission on the object.
 */
@Path(
        "/api/extras/{model: export-templates|config-templates|config-contexts|config-context-profiles}/{id: [0-9]+}/sync/")
public class DataSyncResource implements AnswersOptions {
    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Inject
    SyncedDataBinding binding;

    @Context
    HttpHeaders headers;

    @POST
    @Operation(hidden = true)
    public Response sync(@PathParam("model") String path, @PathParam("id") long id) {
        Model model = registry.byPath("extras", path).orElseThrow(ApiException::notFound);
        access.require(model, Access.Action.CHANGE);
        Renderer.Options opts = new Renderer.Options(request.baseUrl(), Renderer.Mode.FULL, null, Set.of());
        RenderedObject object = service.get(model, id, opts);
        if (object.node().path("data_file").isObject()) {
            object = binding.resync(model, id, opts);
        }
        return Responses.json(200, object.node(), headers);
    }
}
