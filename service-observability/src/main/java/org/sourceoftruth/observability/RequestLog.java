package org.sourceoftruth.observability;

import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The log context of an HTTP request and its access line, the same in both services.
 * <p>
 * Every log line written while a request is handled carries {@code request_id} (the value of
 * the answer's X-Request-ID header), {@code route} (the matched JAX-RS route template, e.g.
 * {@code /api/{app}/{model}/{id: [0-9]+}/}, set by {@link RouteContext}) and, once the caller is
 * known, {@code user} (set by the service's authentication) in the MDC, which the console pattern
 * and the JSON formatter (LOG_JSON) print. Quarkus keeps the MDC in the request's duplicated
 * Vert.x context, so values put on the event loop are seen on the worker thread that runs the
 * resource and back. One line per request goes to category {@value #ACCESS_CATEGORY}: method,
 * route, status and duration, as text and as MDC fields; {@code ACCESS_LOG_LEVEL=WARN} turns it
 * off, and then it costs nothing per request.
 */
public final class RequestLog {
    public static final String REQUEST_ID = "request_id";
    public static final String USER = "user";
    public static final String ROUTE = "route";
    /** The route of a request no route template matched: one value, whatever the path. */
    public static final String UNMATCHED = "unmatched";

    public static final String ACCESS_CATEGORY = "sot.access";

    /** Where Quarkus's REST layer leaves the matched template for Micrometer's uri tag (its ObservabilityUtil, not public). */
    private static final String ROUTE_TEMPLATE_KEY = "UrlPathTemplate";

    private static final Logger ACCESS = Logger.getLogger(ACCESS_CATEGORY);

    private RequestLog() {}

    /** First thing for every request, on the event loop: its id into the MDC, its access line at its end. */
    public static void begin(RoutingContext ctx, String requestId) {
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

    /** The route template of the request, or the non-REST route (health, Swagger UI), or {@link #UNMATCHED}. */
    public static String route(RoutingContext ctx) {
        Object template = ctx.request() instanceof HttpServerRequestInternal internal
                ? internal.context().getLocal(ROUTE_TEMPLATE_KEY)
                : null;
        if (template != null) {
            return template.toString();
        }
        if (ctx.currentRoute() != null
                && ctx.currentRoute().getPath() != null
                && !"/".equals(ctx.currentRoute().getPath())) {
            return ctx.currentRoute().getPath();
        }
        return UNMATCHED;
    }

    private static void logAccess(RoutingContext ctx, String requestId, long millis) {
        // Off (ACCESS_LOG_LEVEL=WARN): no route lookup, MDC work or formatting per request either
        // (this runs for every request, on the event loop).
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
}
