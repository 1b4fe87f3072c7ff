package org.sourceoftruth.records.web;

import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Log context of a request and its access-log line.
 * <p>
 * Every log line written while a request is handled carries {@code request_id} (the
 * X-Request-ID value), once the caller is known {@code user} (set by
 * {@link RequestContext#caller(RequestContext.Caller)}), and {@code route} (the
 * matched JAX-RS route template, e.g. {@code /api/{app}/{model}/{id: [0-9]+}/}) in the MDC, which
 * the console pattern and the JSON formatter (LOG_JSON) print. Quarkus keeps the MDC in the
 * request's duplicated Vert.x context, so values put on the event loop are seen on the worker
 * thread that runs the resource and back. One line per request goes to category
 * {@code sot.access}: method, route, status and duration, as text and as MDC fields.
 */
public class RequestLogging {
    static final String REQUEST_ID = "request_id";
    static final String USER = "user";
    static final String ROUTE = "route";
    static final String ROUTE_TEMPLATE_KEY = "UrlPathTemplate";

    /** The route of a request no route template matched: one value, whatever the path. */
    static final String UNMATCHED = "unmatched";

    private static final Logger ACCESS = Logger.getLogger("sot.access");
    private static final Logger LOG = Logger.getLogger(RequestLogging.class);

    @Inject
    RoutingContext routing;
    @Inject
    RequestContext request;

    /** Called by {@link HttpFilters} first thing for every request, on the event loop. */
    static void begin(RoutingContext ctx, String requestId) {
        long start = System.nanoTime();
        MDC.put(REQUEST_ID, requestId);
        ctx.addEndHandler(result -> {
            try {
                logAccess(ctx, requestId, (System.nanoTime() - start) / 1_000_000);
            } finally {
                MDC.remove(REQUEST_ID);
                MDC.remove(USER);
                MDC.remove(ROUTE);
            }
        });
    }

    /** As the resource is matched: the route is known for the lines the resource writes. */
    @ServerRequestFilter(priority = Priorities.USER + 100)
    public void matched(RoutingContext ctx) {
        // The routing context as a filter parameter, not the injected field: that is a client
        // proxy, a context lookup on every call.
        MDC.put(ROUTE, route(ctx));
    }

    /** On the thread that ran the resource (a worker for blocking ones): its MDC is the request's. */
    @ServerResponseFilter
    public void answered(ContainerResponseContext response) {
        if (LOG.isDebugEnabled()) {
            RequestContext.Caller caller = request.caller();
            LOG.debugf("%s %s answered %d as %s", routing.request().method().name(), route(routing),
                    response.getStatus(), caller == null ? "anonymous" : caller.username());
        }
    }

    private static void logAccess(RoutingContext ctx, String requestId, long millis) {
        // ACCESS_LOG_LEVEL=WARN turns the line off: then no route lookup, MDC work or formatting
        // per request either (this runs for every request, on the event loop).
        if (!ACCESS.isInfoEnabled()) {
            return;
        }
        String route = route(ctx);
        String method = ctx.request().method().name();
        int status = ctx.response().getStatusCode();
        // Set again here: the end handler may run where the request's MDC is not current.
        MDC.put(REQUEST_ID, requestId);
        MDC.put(ROUTE, route);
        MDC.put("method", method);
        MDC.put("status", String.valueOf(status));
        MDC.put("duration_ms", String.valueOf(millis));
        try {
            // Plain concatenation, logged without format style: infof would run java.util.Formatter
            // (a parse of the pattern, boxing, locale lookups) for every request.
            ACCESS.info(method + ' ' + route + ' ' + status + ' ' + millis + " ms");
        } finally {
            MDC.remove("method");
            MDC.remove("status");
            MDC.remove("duration_ms");
        }
    }

    /** The route template of the request, or the non-REST route (health, Swagger UI), or {@link #UNMATCHED}. */
    static String route(RoutingContext ctx) {
        // Where Quarkus's REST layer leaves the matched template for Micrometer's uri tag
        // (its ObservabilityUtil, not public): a local of the request's Vert.x context.
        Object template = ctx.request() instanceof HttpServerRequestInternal internal
                ? internal.context().getLocal(ROUTE_TEMPLATE_KEY) : null;
        if (template != null) {
            return template.toString();
        }
        if (ctx.currentRoute() != null && ctx.currentRoute().getPath() != null
                && !"/".equals(ctx.currentRoute().getPath())) {
            return ctx.currentRoute().getPath();
        }
        return UNMATCHED;
    }
}
