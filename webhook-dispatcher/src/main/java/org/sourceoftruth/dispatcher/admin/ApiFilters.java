package org.sourceoftruth.dispatcher.admin;

import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import java.util.Set;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;

/** Request handling shared by the admin API: trailing slash, token authentication, API-Version. */
public class ApiFilters {

    static final String API_PREFIX = "/api/";

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    /** Sign-in is records-api's: without it, nobody can be let in. */
    static final String RECORDS_API_DOWN = "Sign-in cannot be checked now: records-api does not answer.";

    private static final Logger LOG = Logger.getLogger(ApiFilters.class);

    @Inject
    AdminAccess access;

    @Inject
    DispatcherConfig config;

    @Inject
    ClientAddress clientAddress;

    /**
     * NetBox's URLs end with a slash. GET/HEAD without it are redirected (301, Django's
     * APPEND_SLASH); other methods get a 404, as in NetBox 4.5.9 and later.
     */
    @ServerRequestFilter(preMatching = true)
    public Response trailingSlash(ContainerRequestContext request) {
        String path = request.getUriInfo().getRequestUri().getRawPath();
        if (!path.startsWith(API_PREFIX) || path.endsWith("/") || path.startsWith("/api/schema")) {
            return null;
        }
        String method = request.getMethod();
        if (method.equals("GET") || method.equals("HEAD")) {
            return Response.status(301)
                    .location(UriBuilder.fromUri(request.getUriInfo().getRequestUri())
                            .replacePath(path + "/")
                            .build())
                    .build();
        }
        throw ApiException.detail(404, "Not found.");
    }

    /**
     * Authenticates every API request (records-api decides who the caller is, see
     * {@link AdminAccess}); only superusers may use the background tasks. A request without a
     * token may use records-api's login session (its cookies reach this service when records-api
     * forwards the request): unsafe methods then need the session's CSRF token in X-CSRFToken, as
     * records-api requires, and a token must be write-enabled.
     */
    @ServerRequestFilter(priority = jakarta.ws.rs.Priorities.AUTHENTICATION)
    public void authenticate(ContainerRequestContext request, HttpServerRequest http) {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith(API_PREFIX) || path.startsWith("/api/schema")) {
            return;
        }
        try {
            AdminAccess.Viewer viewer = access.authorize(
                    request.getHeaderString("Authorization"),
                    request.getCookies(),
                    clientAddress.of(http),
                    request.getHeaderString("X-CSRFToken"));
            if (!SAFE_METHODS.contains(request.getMethod())) {
                access.checkWrite(viewer);
            }
            request.setProperty("caller", viewer.caller());
        } catch (AdminAccess.Denied denied) {
            throw ApiException.detail(
                    403, denied.csrf() ? "CSRF Failed: CSRF token missing or incorrect." : denied.getMessage());
        } catch (RecordsApiException e) {
            LOG.warnf("Cannot check the credentials of %s %s: %s", request.getMethod(), path, e.getMessage());
            throw ApiException.detail(503, RECORDS_API_DOWN);
        }
    }

    @ServerResponseFilter
    public void apiVersion(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getUriInfo().getPath().startsWith(API_PREFIX)) {
            response.getHeaders().putSingle("API-Version", config.api().version());
        }
    }
}
