package org.sourceoftruth.dispatcher.admin;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every error leaves as JSON; never an HTML page or a stack trace. */
public class ApiErrors {

    private static final Logger LOG = Logger.getLogger(ApiErrors.class);

    static Response json(int status, Object body) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON)
                .entity(body)
                .build();
    }

    @ServerExceptionMapper
    public Response api(ApiException e) {
        return json(e.status(), e.body());
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e) {
        return json(404, Map.of("detail", "Not found."));
    }

    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e, HttpServerRequest request) {
        return json(405, Map.of("detail", "Method \"" + request.method().name() + "\" not allowed."));
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String reason = e.getResponse().getStatusInfo().getReasonPhrase();
        return json(status, Map.of("detail", reason == null ? "Request failed." : reason + "."));
    }

    @ServerExceptionMapper
    public Response unexpected(Exception e) {
        LOG.error("Unhandled error in the admin API", e);
        return json(500, Map.of("detail", "Internal server error."));
    }
}
