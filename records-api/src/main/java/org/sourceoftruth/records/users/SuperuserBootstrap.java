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
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;

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
            List<Row> users = db.query("select id from users_user where username = ?", name);
            long userId;
            if (users.isEmpty()) {
                String hash = password.filter(p -> !p.isBlank())
                        .map(p -> PasswordHasher.hash(p, settings.passwordHashIterations()))
                        .orElse("!");
                userId = db.query(
                                "insert into users_user (username, password, email, is_superuser) values (?,?,?,true)"
                                        + " returning id",
                                name,
                                hash,
                                email)
                        .get(0)
                        .id();
                LOG.infof("created superuser %s", name);
            } else {
                userId = users.get(0).id();
            }
            if (apiToken.isPresent() && !apiToken.get().isBlank()) {
                String key = apiToken.get().trim();
                if (db.query("select 1 from users_token where key = ?", key).isEmpty()) {
                    db.update(
                            "insert into users_token (user_id, key, description) values (?, ?, 'bootstrap token')",
                            userId,
                            key);
                    LOG.infof("created API token for %s", name);
                }
            } else if (db.query("select 1 from users_token where user_id = ?", userId)
                    .isEmpty()) {
                String key = PasswordHasher.newTokenKey();
                db.update(
                        "insert into users_token (user_id, key, description) values (?, ?, 'bootstrap token')",
                        userId,
                        key);
                LOG.infof("created API token for %s: %s (set SUPERUSER_API_TOKEN to choose it)", name, key);
            }
        }
    }
}
