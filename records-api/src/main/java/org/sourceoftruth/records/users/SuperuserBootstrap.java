package org.sourceoftruth.records.users;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.auth.PasswordHasher;
import org.sourceoftruth.records.auth.TokenDigests;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Creates the bootstrap superuser and its API token at start-up from SUPERUSER_NAME,
 * SUPERUSER_PASSWORD and SUPERUSER_API_TOKEN, as netbox-docker does. Existing users and
 * tokens are left alone, so restarts are harmless.
 */
@ApplicationScoped
public class SuperuserBootstrap {
    private static final Logger LOG = Logger.getLogger(SuperuserBootstrap.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    SuperuserConfig config;

    @Inject
    AuthSettings settings;

    @Inject
    TokenDigests digests;

    /**
     * Inserts a v1 token with this key, stored as its digest (TokenDigests); false when another
     * replica starting at once inserted it first.
     */
    private boolean insertToken(Db db, long userId, String key) {
        TokenDigests.Digest digest = digests.of(key);
        return db.update(
                        "insert into " + SystemTables.USERS_TOKEN
                                + " (user_id, hmac_digest, pepper_id, key_tail, description)"
                                + " values (?, ?, ?, ?, 'bootstrap token') on conflict do nothing",
                        userId,
                        digest.hex(),
                        digest.pepperId(),
                        TokenDigests.tail(key))
                > 0;
    }

    void onStart(@Observes StartupEvent ev) throws SQLException {
        if (config.name().map(String::isBlank).orElse(true)) {
            return;
        }
        String name = config.name().get();
        String email = config.email();
        Optional<String> password = config.password();
        Optional<String> apiToken = config.apiToken();
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Row> users = db.query("select id from " + SystemTables.USERS_USER + " where username = ?", name);
            if (users.isEmpty()) {
                String hash = password.filter(p -> !p.isBlank())
                        .map(p -> PasswordHasher.hash(p, settings.passwordHashIterations()))
                        .orElse("!");
                // several replicas starting at once on a new database all find no user: one creates it
                if (!db.query(
                                "insert into " + SystemTables.USERS_USER
                                        + " (username, password, email, is_superuser) values (?,?,?,true)"
                                        + " on conflict do nothing returning id",
                                name,
                                hash,
                                email)
                        .isEmpty()) {
                    LOG.infof("created superuser %s", name);
                }
                users = db.query("select id from " + SystemTables.USERS_USER + " where username = ?", name);
            }
            long userId = users.get(0).id();
            if (apiToken.isPresent() && !apiToken.get().isBlank()) {
                String key = apiToken.get().trim();
                if (db.query(
                                        "select 1 from " + SystemTables.USERS_TOKEN
                                                + " where version = 1 and hmac_digest = any(?)",
                                        new Db.SqlArray("text", digests.candidates(key)))
                                .isEmpty()
                        && insertToken(db, userId, key)) {
                    LOG.infof("created API token for %s", name);
                }
            } else if (db.query("select 1 from " + SystemTables.USERS_TOKEN + " where user_id = ?", userId)
                    .isEmpty()) {
                String key = PasswordHasher.newTokenKey();
                insertToken(db, userId, key);
                LOG.infof("created API token for %s: %s (set SUPERUSER_API_TOKEN to choose it)", name, key);
            }
        }
    }
}
