package org.sourceoftruth.records.auth;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;

/**
 * Username and password checks (Django's ModelBackend): the user must exist, be active and
 * have a matching password. An unknown username costs the same hashing work as a wrong
 * password, so response times do not tell which usernames exist.
 */
@ApplicationScoped
public class Credentials {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    AuthSettings settings;

    private volatile String dummyHash;

    /** The authenticated user. */
    public record User(long id, String username, boolean superuser) {}

    public Optional<User> authenticate(String username, String password) {
        if (username == null || password == null) {
            return Optional.empty();
        }
        List<Row> rows;
        try (Connection c = dataSource.getConnection()) {
            rows = new Db(c)
                    .query(
                            "select id, username, password, is_active, is_superuser from users_user where username = ?",
                            username);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        if (rows.isEmpty()) {
            PasswordHasher.verify(password, dummyHash());
            return Optional.empty();
        }
        Row r = rows.get(0);
        boolean matches = PasswordHasher.verify(password, r.str("password"));
        if (!matches || !Boolean.TRUE.equals(r.get("is_active"))) {
            return Optional.empty();
        }
        return Optional.of(new User(r.id(), r.str("username"), Boolean.TRUE.equals(r.get("is_superuser"))));
    }

    private String dummyHash() {
        String h = dummyHash;
        if (h == null) {
            h = PasswordHasher.hash(Secrets.randomHex(16), settings.passwordHashIterations());
            dummyHash = h;
        }
        return h;
    }
}
