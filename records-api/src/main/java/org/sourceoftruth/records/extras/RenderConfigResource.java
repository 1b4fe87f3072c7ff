package org.sourceoftruth.records.extras;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;

/** {@code POST /api/dcim/devices/<id>/render-config/} and the same for virtual machines (see {@link ConfigRendering}). */
@Path("/api/{app: dcim|virtualization}/{model: devices|virtual-machines}/{id: [0-9]+}/render-config/")
public class RenderConfigResource implements AnswersOptions {
    @Inject
    ModelRegistry registry;

    @Inject
    ConfigRendering rendering;

    @Context
    HttpHeaders headers;

    @POST
    @Operation(hidden = true)
    public Response render(
            @PathParam("app") String app,
            @PathParam("model") String path,
            @PathParam("id") long id,
            @QueryParam("format") String format,
            String body) {
        boolean served = app.equals("dcim") ? path.equals("devices") : path.equals("virtual-machines");
        if (!served) {
            throw ApiException.notFound();
        }
        return rendering.renderFor(
                registry.byPath(app, path).orElseThrow(ApiException::notFound), id, body, headers, format);
    }
}
