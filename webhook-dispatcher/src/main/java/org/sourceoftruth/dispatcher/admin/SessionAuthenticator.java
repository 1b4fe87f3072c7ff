package org.sourceoftruth.dispatcher.admin;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * records-api's login sessions, read from its table public.users_session the way its
 * SessionStore does: the row is found by the SHA-256 digest of the session key (only digests
 * are stored), must not have expired, and its user must be active. One login serves both
 * services, since browsers send a host's cookies to every port of it.
 */
@ApplicationScoped
public class SessionAuthenticator {

    @Inject
    AgroalDataSource dataSource;

    /** A live session; {@code csrfDigest} is the SHA-256 of the CSRF token issued with it. */
    public record Session(long userId, String username, boolean superuser, byte[] csrfDigest) {
        /** True when {@code token} is this session's CSRF token (constant-time comparison). */
        public boolean csrfMatches(String token) {
            return token != null && MessageDigest.isEqual(csrfDigest, sha256(token));
        }
    }

    public Optional<Session> find(String key) throws SQLException {
        if (key == null || key.isBlank() || key.length() > 200) {
            return Optional.empty();
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     select s.user_id, u.username, u.is_superuser, s.csrf_digest
                     from public.users_session s join public.users_user u on u.id = s.user_id
                     where s.key_digest = ? and s.expires > now() and u.is_active""")) {
            select.setBytes(1, sha256(key));
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Session(row.getLong(1), row.getString(2), row.getBoolean(3), row.getBytes(4)));
            }
        }
    }

    /** Same digest as records-api's Secrets.sha256 and PostgreSQL's sha256(convert_to(s, 'UTF8')). */
    static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    /** Equality whose time does not depend on where the values differ. */
    static boolean constantTimeEquals(String a, String b) {
        return a != null && b != null
                && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
