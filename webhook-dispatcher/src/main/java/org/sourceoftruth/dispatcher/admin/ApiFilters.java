package org.sourceoftruth.dispatcher.admin;

import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;

/** Request handling shared by the admin API: trailing slash, token authentication, API-Version. */
public class ApiFilters {

    static final String API_PREFIX = "/api/";

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    @Inject
    TokenAuthenticator authenticator;
    @Inject
    SessionAuthenticator sessions;
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

    /**
     * Authenticates every API request; only superusers may use the background tasks. A request
     * without a token may use records-api's login session (its cookies reach this service when
     * records-api forwards the request): unsafe methods then need the session's CSRF token in
     * X-CSRFToken, as records-api requires.
     */
    @ServerRequestFilter(priority = jakarta.ws.rs.Priorities.AUTHENTICATION)
    public void authenticate(ContainerRequestContext request, HttpServerRequest http) throws SQLException {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith(API_PREFIX) || path.startsWith("/api/schema")) {
            return;
        }
        String authorization = request.getHeaderString("Authorization");
        if (authorization == null || authorization.isBlank()) {
            Optional<SessionAuthenticator.Session> session = sessions.find(cookie(request, config.admin().sessionCookieName()));
            if (session.isPresent()) {
                request.setProperty("caller", sessionCaller(request, session.get()));
                return;
            }
        }
        TokenAuthenticator.Caller caller = authenticator.authenticateSuperuser(authorization, clientIp(http));
        request.setProperty("caller", caller);
    }

    private TokenAuthenticator.Caller sessionCaller(ContainerRequestContext request, SessionAuthenticator.Session session) {
        if (!session.superuser()) {
            throw ApiException.detail(403, TokenAuthenticator.NO_PERMISSION);
        }
        if (!SAFE_METHODS.contains(request.getMethod())) {
            String header = request.getHeaderString("X-CSRFToken");
            if (!SessionAuthenticator.constantTimeEquals(header, cookie(request, config.admin().csrfCookieName()))
                    || !session.csrfMatches(header)) {
                throw ApiException.detail(403, "CSRF Failed: CSRF token missing or incorrect.");
            }
        }
        return new TokenAuthenticator.Caller(session.userId(), session.username());
    }

    private static String cookie(ContainerRequestContext request, String name) {
        Cookie cookie = request.getCookies().get(name);
        return cookie == null ? null : cookie.getValue();
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
