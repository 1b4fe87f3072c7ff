package org.sourceoftruth.dispatcher.observability;

import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.UUID;

/**
 * The dispatcher's HTTP requests as records-api's (its web/RequestLogging): each gets an
 * X-Request-ID, every log line written while it is handled carries {@code request_id},
 * {@code route} (the JAX-RS route template) and, once the admin caller is known, {@code user}
 * (admin/CredentialCheck) in the MDC, and one line per request goes to category
 * {@code sot.access} with method, route, status and duration. Quarkus keeps the MDC in the
 * request's duplicated Vert.x context, so it follows the request onto worker threads.
 */
@ApplicationScoped
public class RequestLogging {
    public static final String REQUEST_ID = "request_id";
    public static final String USER = "user";
    public static final String ROUTE = "route";
    /** The route of a request no route template matched: one value, whatever the path. */
    public static final String UNMATCHED = "unmatched";
    /** Where Quarkus's REST layer leaves the matched template (Micrometer's uri tag reads it too). */
    private static final String ROUTE_TEMPLATE_KEY = "UrlPathTemplate";
    private static final Logger ACCESS = Logger.getLogger("sot.access");

    @Inject
    RoutingContext routing;

    void install(@Observes Router router) {
        router.route().order(-1000).handler(ctx -> {
            String id = UUID.randomUUID().toString();
            long start = System.nanoTime();
            MDC.put(REQUEST_ID, id);
            ctx.addHeadersEndHandler(v -> ctx.response().headers().set("X-Request-ID", id));
            ctx.addEndHandler(result -> {
                try {
                    logAccess(ctx, id, (System.nanoTime() - start) / 1_000_000);
                } finally {
                    MDC.remove(REQUEST_ID);
                    MDC.remove(USER);
                    MDC.remove(ROUTE);
                }
            });
            ctx.next();
        });
    }

    /** As the resource is matched: the route is known for the lines the resource writes. */
    @ServerRequestFilter(priority = Priorities.USER + 100)
    public void matched() {
        MDC.put(ROUTE, route(routing));
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
            ACCESS.infof("%s %s %d %d ms", method, route, status, millis);
        } finally {
            MDC.remove("method");
            MDC.remove("status");
            MDC.remove("duration_ms");
        }
    }

    static String route(RoutingContext ctx) {
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
