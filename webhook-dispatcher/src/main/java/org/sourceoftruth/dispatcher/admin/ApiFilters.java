package org.sourceoftruth.dispatcher.admin;

import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

import java.sql.SQLException;

/** Request handling shared by the admin API: trailing slash, token authentication, API-Version. */
public class ApiFilters {

    static final String API_PREFIX = "/api/";

    @Inject
    TokenAuthenticator authenticator;
    @Inject
    DispatcherConfig config;

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
                    .location(UriBuilder.fromUri(request.getUriInfo().getRequestUri()).replacePath(path + "/").build())
                    .build();
        }
        throw ApiException.detail(404, "Not found.");
    }

    /** Authenticates every API request; only superusers may see or requeue background tasks. */
    @ServerRequestFilter(priority = jakarta.ws.rs.Priorities.AUTHENTICATION)
    public void authenticate(ContainerRequestContext request, HttpServerRequest http) throws SQLException {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith(API_PREFIX) || path.startsWith("/api/schema")) {
            return;
        }
        TokenAuthenticator.Caller caller = authenticator.authenticateSuperuser(
                request.getHeaderString("Authorization"), clientIp(http));
        request.setProperty("caller", caller);
    }

    @ServerResponseFilter
    public void apiVersion(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getUriInfo().getPath().startsWith(API_PREFIX)) {
            response.getHeaders().putSingle("API-Version", config.api().version());
        }
    }

    /** NetBox's default HTTP_CLIENT_IP_HEADERS: X-Real-IP, then X-Forwarded-For's first entry, then the peer. */
    static String clientIp(HttpServerRequest http) {
        String realIp = http.getHeader("X-Real-IP");
        if (realIp != null && !realIp.isBlank()) {
            return realIp.trim();
        }
        String forwarded = http.getHeader("X-Forwarded-For");
        if (forwarded != null && !forwarded.isBlank()) {
            return forwarded.split(",")[0].trim();
        }
        return http.remoteAddress() == null ? null : http.remoteAddress().hostAddress();
    }
}
