package org.sourceoftruth.records.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;

/**
 * The session entity against the real users_session table: what Hibernate writes is what the
 * migration declared, a session expires, and Hibernate shares the engine's JTA transaction and
 * connection (it sees the transaction's uncommitted JDBC writes, and a rollback undoes its own).
 */
@QuarkusTest
class SessionStoreTest {
    @Inject
    SessionStore sessions;

    @Inject
    AuthSettings settings;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aSessionRoundTripsThroughTheTable() throws SQLException {
        Accounts.Account a = Accounts.account("session-store");
        SessionStore.Issued issued = sessions.create(a.id());
        SessionStore.Session found = sessions.find(issued.key()).orElseThrow();
        assertEquals(a.id(), found.userId());
        assertEquals(a.username(), found.username());
        assertFalse(found.superuser());
        assertTrue(found.csrfMatches(issued.csrfToken()));
        assertFalse(found.csrfMatches(issued.key()));
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "select user_id, csrf_digest, created, expires from users_session" + " where key_digest = ?")) {
            ps.setBytes(1, Secrets.sha256(issued.key()));
            try (ResultSet r = ps.executeQuery()) {
                assertTrue(r.next());
                assertEquals(a.id(), r.getLong("user_id"));
                assertArrayEquals(Secrets.sha256(issued.csrfToken()), r.getBytes("csrf_digest"));
                OffsetDateTime created = r.getObject("created", OffsetDateTime.class);
                OffsetDateTime expires = r.getObject("expires", OffsetDateTime.class);
                long lifetime = Duration.between(created, expires).toSeconds();
                assertTrue(Math.abs(lifetime - settings.loginTimeoutSeconds()) < 60, "lifetime " + lifetime);
                assertFalse(r.next());
            }
        }
        assertTrue(sessions.find("not-" + issued.key()).isEmpty());
        sessions.delete(issued.key());
        assertTrue(sessions.find(issued.key()).isEmpty());
    }

    @Test
    void anExpiredSessionIsNoLoginAndIsPurged() throws SQLException {
        Accounts.Account a = Accounts.account("session-expiry");
        SessionStore.Issued issued = sessions.create(a.id());
        assertTrue(sessions.find(issued.key()).isPresent());
        assertEquals(
                1,
                jdbc(
                        "update users_session set expires = now() - interval '1 second' where key_digest = ?",
                        Secrets.sha256(issued.key())));
        assertTrue(sessions.find(issued.key()).isEmpty());
        sessions.purgeExpired();
        assertEquals(
                0, jdbc("update users_session set expires = now() where key_digest = ?", Secrets.sha256(issued.key())));
    }

    @Test
    void hibernateJoinsTheCallersTransactionAndConnection() throws SQLException {
        Accounts.Account a = Accounts.account("session-tx");
        SessionStore.Issued first = sessions.create(a.id());
        SessionStore.Issued second = sessions.create(a.id());
        // The engine's JDBC write and the entity lookup in one transaction: the lookup sees the
        // uncommitted deactivation, so both run on the same connection.
        inTransactionRolledBack(() -> {
            jdbc("update users_user set is_active = false where id = ?", (long) a.id());
            assertTrue(sessions.find(first.key()).isEmpty());
        });
        assertTrue(sessions.find(first.key()).isPresent());
        // A password change ends the sessions inside the user's update transaction: rolled back, they live on.
        inTransactionRolledBack(() -> {
            sessions.deleteForUser(a.id());
            assertTrue(sessions.find(second.key()).isEmpty());
        });
        assertTrue(sessions.find(first.key()).isPresent());
        assertTrue(sessions.find(second.key()).isPresent());
        sessions.deleteForUser(a.id());
        assertTrue(sessions.find(first.key()).isEmpty());
        assertTrue(sessions.find(second.key()).isEmpty());
    }

    /** Thrown at the end of a transaction's work so that the transaction rolls back. */
    private static final class RollBack extends RuntimeException {}

    private static void inTransactionRolledBack(Runnable work) {
        RuntimeException thrown = assertThrows(
                RuntimeException.class,
                () -> QuarkusTransaction.requiringNew().run(() -> {
                    work.run();
                    throw new RollBack();
                }));
        assertTrue(thrown instanceof RollBack || thrown.getCause() instanceof RollBack, thrown.toString());
    }

    private int jdbc(String sql, Object param) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, param);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
