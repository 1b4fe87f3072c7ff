package org.sourceoftruth.records.web;

import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.sourceoftruth.observability.RequestLog;

/**
 * records-api's part of the request log (the log context and access line are both services',
 * in {@link RequestLog}): at DEBUG, a line per answered REST request naming its caller.
 */
public class RequestLogging {
    private static final Logger LOG = Logger.getLogger(RequestLogging.class);

    @Inject
    RoutingContext routing;

    @Inject
    RequestContext request;

    /** On the thread that ran the resource (a worker for blocking ones): its MDC is the request's. */
    @ServerResponseFilter
    public void answered(ContainerResponseContext response) {
        if (LOG.isDebugEnabled()) {
            RequestContext.Caller caller = request.caller();
            LOG.debugf(
                    "%s %s answered %d as %s",
                    routing.request().method().name(),
                    RequestLog.route(routing),
                    response.getStatus(),
                    caller == null ? "anonymous" : caller.username());
        }
    }
}
