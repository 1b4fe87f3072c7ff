package org.sourceoftruth.observability;

import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Priorities;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/** Puts the matched route template into the request's log context (see {@link RequestLog}). */
public class RouteContext {

    /**
     * As the resource is matched: the route is known for the lines the resource writes. The
     * routing context comes as a filter parameter, not an injected field: that is a client proxy,
     * a context lookup on every call.
     */
    @ServerRequestFilter(priority = Priorities.USER + 100)
    public void matched(RoutingContext routing) {
        MDC.put(RequestLog.ROUTE, RequestLog.route(routing));
    }
}
