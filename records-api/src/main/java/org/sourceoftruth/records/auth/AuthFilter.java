package org.sourceoftruth.records.auth;

import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Cookie;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;
import org.sourceoftruth.records.db.QueryCounter;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.HttpFilters;
import org.sourceoftruth.records.web.RequestContext;

/**
 * Authenticates each request and sets the caller on the {@link RequestContext}:
 * <ul>
 *   <li>{@code Authorization: Token <key>} (or {@code Bearer <key>}): checked by the
 *       {@link TokenAuthenticator} against the client's address.</li>
 *   <li>Otherwise the session cookie of a browsable-API login; every unsafe request it
 *       authenticates, whatever its content type, needs the session's CSRF token, equal to the
 *       {@code csrftoken} cookie, in {@code X-CSRFToken} or (browsable-API forms) in the
 *       {@code csrfmiddlewaretoken} field of a form the endpoint reads. This is the only CSRF
 *       check of the API; the login form checks its own.</li>
 * </ul>
 * Every failure is a 403 with NetBox's message (NetBox never answers 401). Also fixes the
 * request id and base URL for this request.
 */
public class AuthFilter {
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    /** Django's name of the form field carrying the CSRF token. */
    private static final String FORM_TOKEN_FIELD = "csrfmiddlewaretoken";

    @Inject
    RequestContext request;

    @Inject
    TokenAuthenticator tokens;

    @Inject
    RoutingContext routing;

    @Inject
    AuthSettings settings;

    @Inject
    SessionStore sessions;

    @Inject
    ClientAddresses addresses;

    // Not pre-matching: pre-matching filters run on the I/O thread, and this one queries the
    // database, so it must run after the switch to a worker thread. readBody: a form body's
    // fields are parsed before this runs, so the CSRF check can read the form's token itself
    // (multipart bodies get here only on the endpoints that take uploads, see MalformedRequests).
    @ServerRequestFilter(readBody = true)
    public void authenticate(ResteasyReactiveContainerRequestContext ctx) {
        QueryCounter.reset();
        UUID id = routing.get(HttpFilters.REQUEST_ID);
        if (id != null) {
            request.requestId(id);
        }
        request.baseUrl(baseUrl(ctx));
        request.request(ctx.getMethod(), routing.request().path());
        Optional<String> key = TokenAuthenticator.key(ctx.getHeaderString("Authorization"));
        if (key.isPresent()) {
            // The client address is parsed only for a token with allowed_ips (a supplier: parsing
            // it for every request cost more than the token lookup's own Java side).
            request.caller(tokens.authenticate(key.get(), () -> clientIp(ctx)));
            return;
        }
        // The login form checks its own CSRF field; a stale session must not stand in its way.
        if (!ctx.getUriInfo().getPath().startsWith("/login")) {
            authenticateSession(ctx);
        }
    }

    /** The client's address (TRUSTED_PROXIES applied; see {@link ClientAddresses}). */
    Optional<ClientIp> clientIp(ContainerRequestContext ctx) {
        return addresses.of(routing.request());
    }

    private void authenticateSession(ResteasyReactiveContainerRequestContext ctx) {
        Cookie cookie = ctx.getCookies().get(settings.sessionCookieName());
        if (cookie == null) {
            return;
        }
        Optional<SessionStore.Session> found = sessions.find(cookie.getValue());
        if (found.isEmpty()) {
            return; // an expired or unknown session is simply no login
        }
        SessionStore.Session session = found.get();
        if (!SAFE_METHODS.contains(ctx.getMethod().toUpperCase(Locale.ROOT))) {
            checkCsrf(ctx, session);
        }
        request.caller(new RequestContext.Caller(session.userId(), session.username(), session.superuser(), 0, true));
    }

    /** Django's CSRF rule for session-authenticated unsafe requests, with its messages. */
    private void checkCsrf(ResteasyReactiveContainerRequestContext ctx, SessionStore.Session session) {
        Cookie cookie = ctx.getCookies().get(settings.csrfCookieName());
        if (cookie == null || cookie.getValue().isEmpty()) {
            throw ApiException.detail(403, "CSRF Failed: CSRF cookie not set.");
        }
        String token = ctx.getHeaderString("X-CSRFToken");
        if (token == null || token.isEmpty()) {
            token = formToken(ctx);
        }
        if (token == null || token.isEmpty()) {
            throw ApiException.detail(403, "CSRF Failed: CSRF token missing.");
        }
        if (!session.csrfValid(token, cookie.getValue())) {
            throw ApiException.detail(403, "CSRF Failed: CSRF token incorrect.");
        }
    }

    /**
     * The csrfmiddlewaretoken field of a browsable-API form. Form data exists only when the
     * matched endpoint reads a form (its fields were parsed before this filter, see readBody);
     * a form-encoded or other non-JSON body sent to any other endpoint carries no token.
     */
    private static String formToken(ResteasyReactiveContainerRequestContext ctx) {
        try {
            if (ctx.getServerRequestContext() instanceof ResteasyReactiveRequestContext request
                    && request.getFormParameter(FORM_TOKEN_FIELD, true, false) instanceof String field) {
                return field;
            }
        } catch (RuntimeException e) {
            // a field that does not decode (bad percent-escapes) is no token
        }
        return null;
    }

    /** scheme://host[:port] of the request, honouring X-Forwarded-Proto / X-Forwarded-Host. */
    private String baseUrl(ContainerRequestContext ctx) {
        String proto = first(ctx.getHeaderString("X-Forwarded-Proto"));
        String host = first(ctx.getHeaderString("X-Forwarded-Host"));
        if (proto == null || proto.isEmpty()) {
            proto = routing.request().scheme();
        }
        if (host == null || host.isEmpty()) {
            host = ctx.getHeaderString("Host");
        }
        if (host == null || host.isEmpty() || proto == null) {
            // Only without a Host header (HTTP/1.0): the JAX-RS base URI is built per call, which
            // the common path avoids.
            var uri = ctx.getUriInfo().getBaseUri();
            proto = proto == null ? uri.getScheme() : proto;
            host = host == null || host.isEmpty()
                    ? uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
                    : host;
        }
        return proto + "://" + host;
    }

    private static String first(String header) {
        if (header == null) {
            return null;
        }
        int comma = header.indexOf(',');
        return (comma < 0 ? header : header.substring(0, comma)).trim();
    }
}
