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
import org.sourceoftruth.records.web.AnswersOptions;

/** {@code POST /api/extras/config-templates/<id>/render/}: the template rendered with the request body as its context. */
@Path("/api/extras/config-templates/{id: [0-9]+}/render/")
public class ConfigTemplateRenderResource implements AnswersOptions {
    @Inject
    ConfigRendering rendering;

    @Context
    HttpHeaders headers;

    @POST
    @Operation(hidden = true)
    public Response render(@PathParam("id") long id, @QueryParam("format") String format, String body) {
        return rendering.renderTemplate(id, body, headers, format);
    }
}
