package org.sourceoftruth.records.auth;

import io.agroal.api.AgroalDataSource;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.sourceoftruth.records.api.ApiException;
import org.sourceoftruth.records.api.Db;
import org.sourceoftruth.records.api.QueryCounter;
import org.sourceoftruth.records.api.RequestContext;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.HttpFilters;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Reads {@code Authorization: Token <key>} (or {@code Bearer <key>}), checks the token and
 * sets the caller on the {@link RequestContext}. Every failure is a 403 with NetBox's message
 * (NetBox never answers 401). Also fixes the request id and base URL for this request.
 */
public class AuthFilter {
    @Inject
    RequestContext request;
    @Inject
    AgroalDataSource dataSource;
    @Inject
    RoutingContext routing;

    // Not pre-matching: pre-matching filters run on the I/O thread, and this one queries the
    // database, so it must run after the switch to a worker thread.
    @ServerRequestFilter
    public void authenticate(ContainerRequestContext ctx) {
        QueryCounter.reset();
        UUID id = routing.get(HttpFilters.REQUEST_ID);
        if (id != null) {
            request.requestId(id);
        }
        request.baseUrl(baseUrl(ctx));
        String header = ctx.getHeaderString("Authorization");
        if (header == null || header.isBlank()) {
            return;
        }
        String[] parts = header.trim().split("\\s+");
        String keyword = parts[0].toLowerCase(Locale.ROOT);
        if (!keyword.equals("token") && !keyword.equals("bearer")) {
            return; // other schemes are ignored, as NetBox does
        }
        if (parts.length != 2) {
            throw ApiException.detail(403, "Invalid authorization header: Must be in the form \"Bearer <key>.<token>\" or \"Token <token>\"");
        }
        String key = parts[1];
        if (!key.matches("[A-Za-z0-9._-]{1,200}")) {
            throw ApiException.detail(403, "Invalid authorization header: Token contains invalid characters");
        }
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Row> rows = db.query("select k.id, k.user_id, k.expires, k.enabled, k.write_enabled, k.last_used,"
                    + " u.username, u.is_active, u.is_superuser from users_token k join users_user u on u.id = k.user_id"
                    + " where k.key = ?", key);
            if (rows.isEmpty()) {
                throw ApiException.detail(403, "Invalid v1 token");
            }
            Row r = rows.get(0);
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
            if (lastUsed == null || lastUsed.isBefore(OffsetDateTime.now().minusSeconds(60))) {
                db.update("update users_token set last_used = now() where id = ?", r.id());
            }
            request.caller(new RequestContext.Caller(r.longValue("user_id"), r.str("username"),
                    Boolean.TRUE.equals(r.get("is_superuser")), r.id(), Boolean.TRUE.equals(r.get("write_enabled"))));
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
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
