package org.sourceoftruth.records.auth;

import org.sourceoftruth.records.net.IpNetworks;
import io.agroal.api.AgroalDataSource;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Cookie;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.db.QueryCounter;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.HttpFilters;

import java.net.InetAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Authenticates each request and sets the caller on the {@link RequestContext}:
 * <ul>
 *   <li>{@code Authorization: Token <key>} (or {@code Bearer <key>}): the token is found by the
 *       SHA-256 digest of the key and then compared in constant time; its allowed_ips, enabled
 *       flag, expiry and user are checked in NetBox's order, and last_used is refreshed.</li>
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
    /** last_used is written at most this often per token. */
    private static final long LAST_USED_INTERVAL_SECONDS = 60;

    @Inject
    RequestContext request;
    @Inject
    AgroalDataSource dataSource;
    @Inject
    RoutingContext routing;
    @Inject
    AuthSettings settings;
    @Inject
    SessionStore sessions;

    // Not pre-matching: pre-matching filters run on the I/O thread, and this one queries the
    // database, so it must run after the switch to a worker thread. readBody: a form body's
    // fields are parsed before this runs, so the CSRF check can read the form's token itself
    // (multipart bodies never get here: MalformedRequests refuses them).
    @ServerRequestFilter(readBody = true)
    public void authenticate(ResteasyReactiveContainerRequestContext ctx) {
        QueryCounter.reset();
        UUID id = routing.get(HttpFilters.REQUEST_ID);
        if (id != null) {
            request.requestId(id);
        }
        request.baseUrl(baseUrl(ctx));
        String header = ctx.getHeaderString("Authorization");
        if (header != null && !header.isBlank()) {
            String[] parts = header.trim().split("\\s+");
            String keyword = parts[0].toLowerCase(Locale.ROOT);
            if (keyword.equals("token") || keyword.equals("bearer")) {
                if (parts.length != 2) {
                    throw ApiException.detail(403, "Invalid authorization header: Must be in the form \"Bearer <key>.<token>\" or \"Token <token>\"");
                }
                authenticateToken(ctx, parts[1]);
                return;
            }
            // other schemes are ignored, as NetBox does: the request goes on as anonymous or as the session user
        }
        // The login form checks its own CSRF field; a stale session must not stand in its way.
        if (!ctx.getUriInfo().getPath().startsWith("/login")) {
            authenticateSession(ctx);
        }
    }

    private void authenticateToken(ContainerRequestContext ctx, String key) {
        if (!key.matches("[A-Za-z0-9._-]{1,200}")) {
            throw ApiException.detail(403, "Invalid authorization header: Token contains invalid characters");
        }
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Row> rows = db.query("select k.id, k.key, k.user_id, k.expires, k.enabled, k.write_enabled, k.last_used,"
                    + " k.allowed_ips, u.username, u.is_active, u.is_superuser from users_token k"
                    + " join users_user u on u.id = k.user_id where k.key_digest = ?", (Object) Secrets.sha256(key));
            if (rows.isEmpty() || !Secrets.constantTimeEquals(key, rows.get(0).str("key"))) {
                throw ApiException.detail(403, "Invalid v1 token");
            }
            Row r = rows.get(0);
            checkAllowedIps(ctx, r);
            if (!Boolean.TRUE.equals(r.get("enabled"))) {
                throw ApiException.detail(403, "Token disabled");
            }
            OffsetDateTime expires = r.time("expires");
            if (expires != null && expires.isBefore(OffsetDateTime.now())) {
                throw ApiException.detail(403, "Token expired");
            }
            if (!Boolean.TRUE.equals(r.get("is_active"))) {
                throw ApiException.detail(403, "User inactive");
            }
            OffsetDateTime lastUsed = r.time("last_used");
            boolean stale = lastUsed == null || lastUsed.isBefore(OffsetDateTime.now().minusSeconds(LAST_USED_INTERVAL_SECONDS));
            if (stale && !settings.maintenanceMode()) {
                db.update("update users_token set last_used = now() where id = ?", r.id());
            }
            request.caller(new RequestContext.Caller(r.longValue("user_id"), r.str("username"),
                    Boolean.TRUE.equals(r.get("is_superuser")), r.id(), Boolean.TRUE.equals(r.get("write_enabled"))));
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** A token with allowed_ips authenticates only clients inside one of them. */
    @SuppressWarnings("unchecked")
    private void checkAllowedIps(ContainerRequestContext ctx, Row token) {
        List<String> allowed = (List<String>) token.get("allowed_ips");
        if (allowed == null || allowed.isEmpty()) {
            return;
        }
        ClientIp client = clientIp(ctx).orElseThrow(() -> ApiException.detail(403, "Client IP address could not be"
                + " determined for validation. Check that the HTTP server is correctly configured to pass the required"
                + " header(s)."));
        boolean inside;
        try {
            inside = IpNetworks.parse(allowed).contains(client.address());
        } catch (IllegalArgumentException e) {
            inside = false; // values are validated on write; a bad one stored by hand allows nobody
        }
        if (!inside) {
            throw ApiException.detail(403, "Source IP " + client.text() + " is not permitted to authenticate using this token.");
        }
    }

    /** The client's address as given (for messages) and parsed. */
    record ClientIp(String text, InetAddress address) {
    }

    /**
     * The client address: the peer of the connection, unless that peer is a trusted proxy
     * (TRUSTED_PROXIES), in which case X-Real-IP, else the first X-Forwarded-For entry, names
     * the client. Empty when the address in use is not a literal IP address.
     */
    Optional<ClientIp> clientIp(ContainerRequestContext ctx) {
        SocketAddress remote = routing.request().remoteAddress();
        String peerText = remote == null ? null : remote.hostAddress();
        Optional<InetAddress> peer = IpNetworks.address(peerText);
        if (peer.isPresent() && settings.trustedProxies().contains(peer.get())) {
            String forwarded = ctx.getHeaderString("X-Real-IP");
            if (forwarded == null || forwarded.isBlank()) {
                String chain = ctx.getHeaderString("X-Forwarded-For");
                forwarded = chain == null ? null : chain.split(",")[0];
            }
            if (forwarded != null && !forwarded.isBlank()) {
                String text = forwarded.trim();
                return IpNetworks.address(text).map(a -> new ClientIp(text, a));
            }
        }
        return peer.map(a -> new ClientIp(peerText, a));
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
        if (!Secrets.constantTimeEquals(token, cookie.getValue()) || !session.csrfMatches(token)) {
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
    private static String baseUrl(ContainerRequestContext ctx) {
        String proto = first(ctx.getHeaderString("X-Forwarded-Proto"));
        String host = first(ctx.getHeaderString("X-Forwarded-Host"));
        var uri = ctx.getUriInfo().getBaseUri();
        if (proto == null || proto.isEmpty()) {
            proto = uri.getScheme();
        }
        if (host == null || host.isEmpty()) {
            host = ctx.getHeaderString("Host");
        }
        if (host == null || host.isEmpty()) {
            host = uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
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
