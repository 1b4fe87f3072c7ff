package org.sourceoftruth.records.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
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
import org.sourceoftruth.records.db.Db;

/**
 * One place that turns every failure into NetBox's JSON error bodies: API errors as thrown,
 * JAX-RS routing errors as {"detail": ...}, known database states (bad values, uniqueness and
 * foreign-key races) as 4xx, an exhausted connection pool as 503, and anything else as a 500.
 * No answer carries server-internal text (database messages, Java class names, stack traces):
 * those go to the log, with the request id that the answer's X-Request-ID header and 500 body
 * give the client.
 */
public class ErrorMapper {
    private static final Logger LOG = Logger.getLogger(ErrorMapper.class);

    @Context
    HttpHeaders headers;

    @Inject
    RoutingContext routing;

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
        // the exception's message is the framework's wording (it may name a parameter converter)
        Response.StatusType known = Response.Status.fromStatusCode(status);
        String message =
                status == 404 ? "Not found." : known != null ? known.getReasonPhrase() + "." : "Request refused.";
        return Responses.json(status, detail(message), headers);
    }

    /** An exception thrown by Quarkus REST's multipart parser (the only multipart reader of the API). */
    private static boolean malformedMultipart(Throwable e) {
        return anyCause(
                e,
                t -> java.util.Arrays.stream(t.getStackTrace())
                        .anyMatch(frame ->
                                frame.getClassName().startsWith("org.jboss.resteasy.reactive.server.core.multipart.")));
    }

    /** Whether the exception or any of its causes passes the test (frameworks wrap what they rethrow). */
    private static boolean anyCause(Throwable e, java.util.function.Predicate<Throwable> test) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (test.test(t)) {
                return true;
            }
        }
        return false;
    }

    @ServerExceptionMapper
    public Response db(Db.DbException e) {
        if (poolExhausted(e)) {
            return busy();
        }
        String state = e.sqlState() == null ? "" : e.sqlState();
        if (state.equals("23505")) {
            return Responses.json(
                    400, fieldAll("A conflicting object was written at the same time; retry the request."), headers);
        }
        if (state.equals("23503")) {
            return Responses.json(
                    409,
                    detail("Unable to complete the request: a related object was changed or deleted"
                            + " concurrently."),
                    headers);
        }
        if (state.startsWith("22")) {
            // A value the checks before the query let through; PostgreSQL's text would show
            // the query's internals, so it goes to the log only.
            LOG.infof("request %s: value refused by the database: %s", requestId(), firstLine(e.getMessage()));
            return Responses.json(400, detail("A value in the request is not valid for its field."), headers);
        }
        if (state.equals("23502")) {
            LOG.warnf("request %s: a required column was left null: %s", requestId(), firstLine(e.getMessage()));
            return Responses.json(400, detail("A required field is missing or null."), headers);
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
        if (malformedMultipart(e)) {
            // the form parser's failure on a broken multipart body (no or wrong boundary, cut
            // short): DRF's "Multipart form parse error", not a server error
            LOG.debugf("request %s: malformed multipart body: %s", requestId(), e.getMessage());
            return Responses.json(
                    400, detail("Multipart form parse error - the body is not valid multipart/form-data."), headers);
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
        return Response.fromResponse(
                        Responses.json(503, detail("The service is busy; retry the request shortly."), headers))
                .header("Retry-After", "1")
                .build();
    }

    /**
     * Agroal's acquisition timeout: an SQLException without SQL state and with this message (it
     * has no type of its own), anywhere in the cause chain (JTA and CDI wrap it).
     */
    static boolean poolExhausted(Throwable e) {
        return anyCause(
                e,
                t -> t instanceof java.sql.SQLException sql
                        && sql.getSQLState() == null
                        && sql.getMessage() != null
                        && sql.getMessage().toLowerCase(java.util.Locale.ROOT).contains("acquisition timeout"));
    }

    /**
     * NetBox's 500 body has "error" and "exception" (the Python class); here both are generic,
     * and the details are logged under the request id the body names.
     */
    private Response serverError(Throwable e) {
        String id = requestId();
        if (clientHungUp(e)) {
            // the client went away mid-request (a load tool stopping, a timeout): nothing is wrong
            // here, and no one will read the answer
            LOG.debugf("request %s: the client closed the connection before the response", id);
        } else {
            LOG.errorf(e, "request %s: unhandled error", id);
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put(
                "error",
                "An unexpected error occurred while processing request " + id + "; the server log has the details.");
        body.put("exception", "ServerError");
        body.put("request_id", id);
        return Responses.json(500, body, headers);
    }

    /** Vert.x's signal that the client closed the connection, anywhere in the cause chain. */
    static boolean clientHungUp(Throwable e) {
        return anyCause(e, t -> t instanceof io.vertx.core.http.HttpClosedException);
    }

    private String requestId() {
        Object id = routing == null ? null : routing.get(HttpFilters.REQUEST_ID);
        return String.valueOf(id);
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
