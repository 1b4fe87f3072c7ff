package org.sourceoftruth.records.auth;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.net.IpNetworks;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * NetBox's token authentication (v1 keys {@code Token <key>}, v2 tokens {@code Bearer nbt_<key>.<secret>};
 * the version follows from the {@code nbt_} prefix, not the keyword), for the requests this service serves ({@link AuthFilter}) and
 * for the credentials webhook-dispatcher's callers present to it ({@link CredentialCheckResource}):
 * the token is found in one indexed query (a v1 key by its digests, {@link TokenDigests}; a v2
 * token by its public key) and its secret's digest compared in constant time; allowed_ips, the
 * enabled flag, expiry and the user are checked in NetBox's order, each failure a 403 with
 * NetBox's message; last_used is refreshed at most once a minute, never in maintenance mode.
 */
@ApplicationScoped
public class TokenAuthenticator {
    /** last_used is written at most this often per token. */
    private static final long LAST_USED_INTERVAL_SECONDS = 60;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    AuthSettings settings;

    @Inject
    TokenPeppers peppers;

    @Inject
    TokenDigests digests;

    /** How a v2 token's header value starts: {@code nbt_<key>.<secret>}. */
    public static final String V2_PREFIX = "nbt_";
    /** The characters a key may have; compiled once (String.matches compiles per call). */
    private static final Pattern KEY_CHARACTERS = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final String SELECT = "select k.id, k.version, k.hmac_digest, k.pepper_id, k.user_id, k.expires,"
            + " k.enabled, k.write_enabled, k.last_used, k.allowed_ips, u.username, u.is_active, u.is_superuser"
            + " from " + SystemTables.USERS_TOKEN + " k join " + SystemTables.USERS_USER + " u on u.id = k.user_id";

    /**
     * The key of an {@code Authorization: Token <key>} (or {@code Bearer <key>}) header. Empty when
     * there is no header or it names another scheme: NetBox then treats the request as anonymous
     * (or as the session's user).
     */
    public static Optional<String> key(String header) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        String[] parts = WHITESPACE.split(header.trim());
        String keyword = parts[0].toLowerCase(Locale.ROOT);
        if (!keyword.equals("token") && !keyword.equals("bearer")) {
            return Optional.empty();
        }
        if (parts.length != 2) {
            throw ApiException.detail(
                    403,
                    "Invalid authorization header: Must be in the form \"Bearer <key>.<token>\" or \"Token <token>\"");
        }
        return Optional.of(parts[1]);
    }

    /**
     * The caller a key authenticates.
     *
     * @param client the client's address, asked for only when the token has allowed_ips; empty
     *               when it could not be determined (such a token then refuses)
     */
    public RequestContext.Caller authenticate(String key, Supplier<Optional<ClientIp>> client) {
        if (!KEY_CHARACTERS.matcher(key).matches()) {
            throw ApiException.detail(403, "Invalid authorization header: Token contains invalid characters");
        }
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            boolean v2 = key.startsWith(V2_PREFIX);
            Row r = v2 ? v2Token(db, key) : v1Token(db, key);
            checkAllowedIps(r, client);
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
            boolean stale = lastUsed == null
                    || lastUsed.isBefore(OffsetDateTime.now().minusSeconds(LAST_USED_INTERVAL_SECONDS));
            Integer pepperId = pepperId(r);
            boolean rekey = !v2 && digests.outdated(pepperId);
            if (rekey && !settings.maintenanceMode()) {
                // made unkeyed (no pepper then) or under an older pepper: keyed with the current one now
                TokenDigests.Digest digest = digests.of(key);
                db.update(
                        "update " + SystemTables.USERS_TOKEN
                                + " set hmac_digest = ?, pepper_id = ?, last_used = now() where id = ?",
                        digest.hex(),
                        digest.pepperId(),
                        r.id());
            } else if (stale && !settings.maintenanceMode()) {
                db.update("update " + SystemTables.USERS_TOKEN + " set last_used = now() where id = ?", r.id());
            }
            return new RequestContext.Caller(
                    r.longValue("user_id"),
                    r.str("username"),
                    Boolean.TRUE.equals(r.get("is_superuser")),
                    r.id(),
                    Boolean.TRUE.equals(r.get("write_enabled")));
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /**
     * A v1 token: the key is the secret, of which only a digest is stored. One indexed query
     * finds the row by every digest the key may have; the row's digest must then be the key's
     * under the row's own pepper (compared in constant time).
     */
    private Row v1Token(Db db, String key) {
        List<Row> rows = db.query(
                SELECT + " where k.version = 1 and k.hmac_digest = any(?)",
                new Db.SqlArray("text", digests.candidates(key)));
        String expected = rows.isEmpty()
                ? null
                : digests.under(pepperId(rows.get(0)), key).orElse(null);
        if (!Secrets.constantTimeEquals(
                expected, rows.isEmpty() ? null : rows.get(0).str("hmac_digest"))) {
            throw ApiException.detail(403, "Invalid v1 token");
        }
        return rows.get(0);
    }

    private static Integer pepperId(Row token) {
        return token.get("pepper_id") instanceof Number n ? n.intValue() : null;
    }

    /**
     * A v2 token {@code nbt_<key>.<secret>}: the public key finds the token, the secret must
     * give its stored HMAC under the token's pepper (compared in constant time). A token whose
     * pepper is no longer configured authenticates nobody.
     */
    private Row v2Token(Db db, String value) {
        int dot = value.indexOf('.');
        if (dot < 0) {
            throw ApiException.detail(
                    403,
                    "Invalid authorization header: Could not parse key from v2 token. Did you"
                            + " mean to use 'Token' instead of 'Bearer'?");
        }
        String key = value.substring(V2_PREFIX.length(), dot);
        String secret = value.substring(dot + 1);
        List<Row> rows = db.query(SELECT + " where k.key_digest = ? and k.version = 2", (Object) Secrets.sha256(key));
        String expected = rows.isEmpty() ? null : rows.get(0).str("hmac_digest");
        Integer pepperId = rows.isEmpty() ? null : pepperId(rows.get(0));
        String actual =
                pepperId == null ? null : peppers.digest(pepperId, secret).orElse(null);
        if (!Secrets.constantTimeEquals(actual, expected)) {
            throw ApiException.detail(403, "Invalid v2 token");
        }
        return rows.get(0);
    }

    /** A token with allowed_ips authenticates only clients inside one of them. */
    @SuppressWarnings("unchecked")
    private static void checkAllowedIps(Row token, Supplier<Optional<ClientIp>> client) {
        List<String> allowed = (List<String>) token.get("allowed_ips");
        if (allowed == null || allowed.isEmpty()) {
            return;
        }
        ClientIp address = client.get()
                .orElseThrow(() -> ApiException.detail(
                        403,
                        "Client IP address could not be"
                                + " determined for validation. Check that the HTTP server is correctly configured to pass the required"
                                + " header(s)."));
        boolean inside;
        try {
            inside = IpNetworks.parse(allowed).contains(address.address());
        } catch (IllegalArgumentException e) {
            inside = false; // values are validated on write; a bad one stored by hand allows nobody
        }
        if (!inside) {
            throw ApiException.detail(
                    403, "Source IP " + address.text() + " is not permitted to authenticate using this token.");
        }
    }
}
