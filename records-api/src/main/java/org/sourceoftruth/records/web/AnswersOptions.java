package org.sourceoftruth.records.web;

import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * A resource that answers OPTIONS on its own path (200, as NetBox's views do). Every JAX-RS
 * resource class implements this or declares {@code @OPTIONS} methods for its sub-paths
 * (ArchitectureTest holds it): for a class without any {@code @OPTIONS} method, RESTEasy answers
 * OPTIONS itself with 200 for <em>every</em> path below the class's path, without matching the
 * rest of the path, so a made-up path answered 200 and its raw path became a new
 * {@code http.server.requests} series. With an {@code @OPTIONS} method, OPTIONS is routed like any
 * other method and an unknown path gets the JSON 404 (metric uri {@code NOT_FOUND}).
 */
public interface AnswersOptions {
    @OPTIONS
    @Operation(hidden = true) // not in NetBox's document either
    default Response options() {
        return ok();
    }

    /** The answer to OPTIONS on a path that exists: 200, no body. */
    static Response ok() {
        return Response.ok().build();
    }
}
