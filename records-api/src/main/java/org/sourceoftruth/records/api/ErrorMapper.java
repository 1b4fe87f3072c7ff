package org.sourceoftruth.records.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.sourceoftruth.model.Json;

/**
 * One place that turns every failure into NetBox's JSON error bodies: API errors as thrown,
 * JAX-RS routing errors as {"detail": ...}, known database states (bad values, uniqueness and
 * foreign-key races) as 4xx, an exhausted connection pool as 503, and anything else as a 500
 * without a stack trace.
 */
public class ErrorMapper {
    private static final Logger LOG = Logger.getLogger(ErrorMapper.class);

    @Context
    HttpHeaders headers;

    @ServerExceptionMapper
    public Response api(ApiException e) {
        Response r = Responses.json(e.status(), e.body(), headers);
        if (e.headers().isEmpty()) {
            return r;
        }
        Response.ResponseBuilder b = Response.fromResponse(r);
        e.headers().forEach(b::header);
        return b.build();
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e) {
        return Responses.json(404, detail("Not found."), headers);
    }

    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e, UriInfo uri, jakarta.ws.rs.core.Request request) {
        return Responses.json(405, detail("Method \"" + request.getMethod() + "\" not allowed."), headers);
    }

    @ServerExceptionMapper
    public Response unsupported(NotSupportedException e) {
        return Responses.json(415, detail("Unsupported media type in request."), headers);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        return Responses.json(status, detail(status == 404 ? "Not found." : e.getMessage()), headers);
    }

    @ServerExceptionMapper
    public Response db(Db.DbException e) {
        if (poolExhausted(e)) {
            return busy();
        }
        String state = e.sqlState() == null ? "" : e.sqlState();
        if (state.equals("23505")) {
            return Responses.json(400, fieldAll("A conflicting object was written at the same time; retry the request."), headers);
        }
        if (state.equals("23503")) {
            return Responses.json(409, detail("Unable to complete the request: a related object was changed or deleted"
                    + " concurrently."), headers);
        }
        if (state.startsWith("22")) {
            return Responses.json(400, detail("Invalid value: " + firstLine(e.getMessage())), headers);
        }
        if (state.equals("40001") || state.equals("40P01")) {
            return Responses.json(409, detail("The request conflicted with a concurrent write; retry it."), headers);
        }
        return serverError(e);
    }

    @ServerExceptionMapper(priority = 10_000)
    public Response any(Throwable e) {
        if (e instanceof WebApplicationException w) {
            return web(w);
        }
        if (poolExhausted(e)) {
            return busy();
        }
        return serverError(e);
    }

    /**
     * Every pooled connection stayed busy for the pool's acquisition timeout: the service is
     * overloaded, not broken. 503 with Retry-After tells clients and load balancers to come back.
     */
    private Response busy() {
        LOG.warn("no database connection became free in time; answered 503");
        return Response.fromResponse(Responses.json(503, detail("The service is busy; retry the request shortly."),
                headers)).header("Retry-After", "1").build();
    }

    /**
     * Agroal's acquisition timeout: an SQLException without SQL state and with this message (it
     * has no type of its own), anywhere in the cause chain (JTA and CDI wrap it).
     */
    static boolean poolExhausted(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.sql.SQLException sql && sql.getSQLState() == null && sql.getMessage() != null
                    && sql.getMessage().toLowerCase(java.util.Locale.ROOT).contains("acquisition timeout")) {
                return true;
            }
        }
        return false;
    }

    private Response serverError(Throwable e) {
        LOG.error("unhandled error", e);
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("error", "An unexpected error occurred; see the server log for request details.");
        body.put("exception", e.getClass().getSimpleName());
        return Responses.json(500, body, headers);
    }

    static ObjectNode detail(String message) {
        return Json.MAPPER.createObjectNode().put("detail", message);
    }

    private static ObjectNode fieldAll(String message) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.putArray("__all__").add(message);
        return n;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Python-like type names used in DRF messages ("dict", "list", "str", ...). */
    public static String jsonType(JsonNode n) {
        if (n == null || n.isNull()) {
            return "NoneType";
        }
        if (n.isObject()) {
            return "dict";
        }
        if (n.isArray()) {
            return "list";
        }
        if (n.isTextual()) {
            return "str";
        }
        if (n.isBoolean()) {
            return "bool";
        }
        if (n.isIntegralNumber()) {
            return "int";
        }
        return "float";
    }
}
