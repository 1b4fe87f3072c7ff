package org.sourceoftruth.observability;

import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/** Puts the matched route template into the request's log context (see {@link RequestLog}). */
public class RouteContext {
    @Inject
    RoutingContext routing;

    /** As the resource is matched: the route is known for the lines the resource writes. */
    @ServerRequestFilter(priority = Priorities.USER + 100)
    public void matched() {
        MDC.put(RequestLog.ROUTE, RequestLog.route(routing));
    }
}
