package org.sourceoftruth.records.auth;

import io.agroal.api.AgroalDataSource;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Username and password checks (Django's ModelBackend): the user must exist, be active and
 * have a matching password. An unknown username costs the same hashing work as a wrong
 * password, so response times do not tell which usernames exist. Every check is counted by the
 * {@link SignInThrottle} (429 once the username or the client's address failed too often) and
 * hashed on the bounded {@link PasswordHashing} pool (429 when it is full).
 */
@ApplicationScoped
public class Credentials {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    PasswordHashing hashing;

    @Inject
    SignInThrottle throttle;

    @Inject
    ClientAddresses addresses;

    @Inject
    RoutingContext routing;

    private volatile String dummyHash;

    /** The authenticated user. */
    public record User(long id, String username, boolean superuser) {}

    /** The user these credentials name, if they are right; 429 (ApiException) when sign-ins are throttled. */
    public Optional<User> authenticate(String username, String password) {
        if (username == null || password == null) {
            return Optional.empty();
        }
        SignInThrottle.Attempt attempt = throttle.begin(username, addresses.of(routing.request()));
        List<Row> rows;
        try (Connection c = dataSource.getConnection()) {
            rows = new Db(c)
                    .query(
                            "select id, username, password, is_active, is_superuser from " + SystemTables.USERS_USER
                                    + " where username = ?",
                            username);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        boolean matches;
        try {
            matches = hashing.verify(
                    password, rows.isEmpty() ? dummyHash() : rows.get(0).str("password"));
        } catch (PasswordHashing.Busy busy) {
            attempt.withdrawn();
            throw busy;
        }
        if (rows.isEmpty() || !matches || !Boolean.TRUE.equals(rows.get(0).get("is_active"))) {
            return Optional.empty();
        }
        attempt.succeeded();
        Row r = rows.get(0);
        return Optional.of(new User(r.id(), r.str("username"), Boolean.TRUE.equals(r.get("is_superuser"))));
    }

    private String dummyHash() {
        String h = dummyHash;
        if (h == null) {
            h = hashing.hash(Secrets.randomHex(16));
            dummyHash = h;
        }
        return h;
    }
}
