package org.sourceoftruth.records.auth;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.security.MessageDigest;
import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * Login sessions of the browsable API, kept in PostgreSQL so that every replica accepts them.
 * Only SHA-256 digests of the session key and of its CSRF token are stored. A session ends at
 * logout, after LOGIN_TIMEOUT, when its user is deactivated, or when the user's password changes.
 * The rows are {@link UserSession} entities (Hibernate ORM with Panache); each method runs in a
 * transaction of its own, or joins the caller's (a password change ends the sessions in the
 * transaction of the user's update: JTA hands Hibernate the same pooled connection).
 */
@ApplicationScoped
public class SessionStore {
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
            return presented != null
                    && !presented.isEmpty()
                    && Secrets.constantTimeEquals(presented, cookie)
                    && csrfMatches(presented);
        }
    }

    /** The secrets of a new session, to be sent to the client as cookies (never stored). */
    public record Issued(String key, String csrfToken) {}

    @Transactional
    public Issued create(long userId) {
        Issued issued = new Issued(Secrets.randomHex(32), Secrets.randomHex(32));
        UserSession session = new UserSession();
        session.keyDigest = Secrets.sha256(issued.key());
        session.csrfDigest = Secrets.sha256(issued.csrfToken());
        session.user = UserSession.getEntityManager().getReference(SessionUser.class, userId);
        session.expires = OffsetDateTime.now().plusSeconds(settings.loginTimeoutSeconds());
        session.persist();
        return issued;
    }

    @Transactional
    public Optional<Session> find(String key) {
        if (key == null || key.isBlank() || key.length() > 200) {
            return Optional.empty();
        }
        return UserSession.<UserSession>find(
                        "from UserSession s join fetch s.user u"
                                + " where s.keyDigest = ?1 and s.expires > ?2 and u.active",
                        Secrets.sha256(key),
                        OffsetDateTime.now())
                .firstResultOptional()
                .map(s -> new Session(s.user.id, s.user.username, s.user.superuser, s.csrfDigest));
    }

    @Transactional
    public void delete(String key) {
        if (key != null && !key.isBlank()) {
            UserSession.delete("keyDigest", (Object) Secrets.sha256(key));
        }
    }

    /** Ends every session of a user (on a password change); joins the caller's transaction. */
    @Transactional
    public void deleteForUser(long userId) {
        UserSession.delete("user.id", userId);
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    @Transactional
    void purgeExpired() {
        UserSession.delete("expires <= ?1", OffsetDateTime.now());
    }
}
