package org.sourceoftruth.records.auth;

import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;

import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Login sessions of the browsable API, kept in PostgreSQL so that every replica accepts them.
 * Only SHA-256 digests of the session key and of its CSRF token are stored. A session ends at
 * logout, after LOGIN_TIMEOUT, when its user is deactivated, or when the user's password changes.
 */
@ApplicationScoped
public class SessionStore {
    @Inject
    AgroalDataSource dataSource;
    @Inject
    AuthSettings settings;

    /** A live session: its user and the digest of the CSRF token issued with it. */
    public record Session(long userId, String username, boolean superuser, byte[] csrfDigest) {
        /** True when {@code token} is the CSRF token of this session (constant-time). */
        public boolean csrfMatches(String token) {
            return token != null && MessageDigest.isEqual(csrfDigest, Secrets.sha256(token));
        }

        /**
         * Django's rule for a session-authenticated unsafe request: the token presented (header
         * or form field) equals the CSRF cookie, and (stricter than Django) is the one issued
         * with this session.
         */
        public boolean csrfValid(String presented, String cookie) {
            return presented != null && !presented.isEmpty() && Secrets.constantTimeEquals(presented, cookie)
                    && csrfMatches(presented);
        }
    }

    /** The secrets of a new session, to be sent to the client as cookies (never stored). */
    public record Issued(String key, String csrfToken) {
    }

    public Issued create(long userId) {
        Issued issued = new Issued(Secrets.randomHex(32), Secrets.randomHex(32));
        run(db -> db.update("insert into users_session (key_digest, csrf_digest, user_id, expires)"
                        + " values (?, ?, ?, now() + make_interval(secs => ?))", Secrets.sha256(issued.key()),
                Secrets.sha256(issued.csrfToken()), userId, (double) settings.loginTimeoutSeconds()));
        return issued;
    }

    public Optional<Session> find(String key) {
        if (key == null || key.isBlank() || key.length() > 200) {
            return Optional.empty();
        }
        List<Row> rows = query(db -> db.query("select s.user_id, s.csrf_digest, u.username, u.is_superuser"
                + " from users_session s join users_user u on u.id = s.user_id"
                + " where s.key_digest = ? and s.expires > now() and u.is_active", (Object) Secrets.sha256(key)));
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Row r = rows.get(0);
        return Optional.of(new Session(r.longValue("user_id"), r.str("username"), Boolean.TRUE.equals(r.get("is_superuser")),
                (byte[]) r.get("csrf_digest")));
    }

    public void delete(String key) {
        if (key != null && !key.isBlank()) {
            run(db -> db.update("delete from users_session where key_digest = ?", (Object) Secrets.sha256(key)));
        }
    }

    /** Ends every session of a user (on a password change); joins the caller's transaction. */
    public void deleteForUser(long userId) {
        run(db -> db.update("delete from users_session where user_id = ?", userId));
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purgeExpired() {
        run(db -> db.update("delete from users_session where expires <= now()"));
    }

    private void run(java.util.function.Consumer<Db> work) {
        query(db -> {
            work.accept(db);
            return null;
        });
    }

    private <T> T query(java.util.function.Function<Db, T> work) {
        try (Connection c = dataSource.getConnection()) {
            return work.apply(new Db(c));
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
