package org.sourceoftruth.dispatcher.admin;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * NetBox token authentication against records-api's users_token / users_user tables, with
 * NetBox's checks and messages in NetBox's order; every failure is a 403. The admin API is for
 * superusers only.
 */
@ApplicationScoped
public class TokenAuthenticator {

    static final String NOT_PROVIDED = "Authentication credentials were not provided.";
    static final String NO_PERMISSION = "You do not have permission to perform this action.";
    private static final String BAD_HEADER =
            "Invalid authorization header: Must be in the form \"Bearer <key>.<token>\" or \"Token <token>\"";
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");

    @Inject
    AgroalDataSource dataSource;

    /** Who is calling; only superusers get this far. */
    public record Caller(long userId, String username) {
    }

    /**
     * @param authorization the Authorization header, or null
     * @param clientIp      the client address as NetBox determines it, or null if unknown
     */
    public Caller authenticateSuperuser(String authorization, String clientIp) throws SQLException {
        if (authorization == null || authorization.isBlank()) {
            throw forbidden(NOT_PROVIDED);
        }
        String[] parts = authorization.trim().split("\\s+");
        String keyword = parts[0].toLowerCase(Locale.ROOT);
        if (!keyword.equals("token") && !keyword.equals("bearer")) {
            throw forbidden(NOT_PROVIDED); // another scheme: NetBox treats the request as anonymous
        }
        if (parts.length != 2) {
            throw forbidden(BAD_HEADER);
        }
        String key = parts[1];
        if (key.startsWith("nbt_")) {
            // v2 tokens are stored hashed by NetBox 4.5+; this schema keeps v1 keys only
            throw forbidden(key.contains(".") ? "Invalid v2 token"
                    : "Invalid authorization header: Could not parse key from v2 token. Did you mean to use 'Token' instead of 'Bearer'?");
        }
        try (Connection connection = dataSource.getConnection()) {
            try (PreparedStatement select = connection.prepareStatement("""
                    select t.id, t.enabled, t.expires is not null and t.expires <= now(), cardinality(t.allowed_ips),
                           u.id, u.username, u.is_active, u.is_superuser
                    from public.users_token t join public.users_user u on u.id = t.user_id
                    where t.key = ?""")) {
                select.setString(1, key);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        throw forbidden("Invalid v1 token");
                    }
                    long tokenId = row.getLong(1);
                    if (row.getInt(4) > 0) {
                        checkAllowedIp(connection, tokenId, clientIp);
                    }
                    if (!row.getBoolean(2)) {
                        throw forbidden("Token disabled");
                    }
                    if (row.getBoolean(3)) {
                        throw forbidden("Token expired");
                    }
                    if (!row.getBoolean(7)) {
                        throw forbidden("User inactive");
                    }
                    if (!row.getBoolean(8)) {
                        throw forbidden(NO_PERMISSION);
                    }
                    touchLastUsed(connection, tokenId);
                    return new Caller(row.getLong(5), row.getString(6));
                }
            }
        }
    }

    /** allowed_ips holds prefixes and addresses; PostgreSQL's inet does the containment test. */
    private static void checkAllowedIp(Connection connection, long tokenId, String clientIp) throws SQLException {
        if (clientIp == null || !IP_LITERAL.matcher(clientIp).matches() || !isIpLiteral(clientIp)) {
            throw forbidden("Client IP address could not be determined for validation. Check that the HTTP server "
                    + "is correctly configured to pass the required header(s).");
        }
        try (PreparedStatement check = connection.prepareStatement("""
                select ?::inet <<= any(allowed_ips::inet[]) from public.users_token where id = ?""")) {
            check.setString(1, clientIp);
            check.setLong(2, tokenId);
            try (ResultSet row = check.executeQuery()) {
                if (!row.next() || !row.getBoolean(1)) {
                    throw forbidden("Source IP " + clientIp + " is not permitted to authenticate using this token.");
                }
            }
        }
    }

    private static boolean isIpLiteral(String value) {
        try {
            InetAddress.getByName(value); // only literals reach here (checked by the pattern): no DNS lookup
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** NetBox refreshes last_used at most once a minute. */
    private static void touchLastUsed(Connection connection, long tokenId) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("""
                update public.users_token set last_used = now()
                where id = ? and (last_used is null or last_used < now() - interval '60 seconds')""")) {
            update.setLong(1, tokenId);
            update.executeUpdate();
        }
    }

    private static ApiException forbidden(String detail) {
        return ApiException.detail(403, detail);
    }
}
