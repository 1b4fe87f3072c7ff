package org.sourceoftruth.dispatcher.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.Flyway;

/**
 * The test database (TEST_DB_NAME, default sot_test_dispatcher, on DB_HOST:DB_PORT), shared by
 * records-api (as DB_USER, which owns it and records-api's tables) and the dispatcher under test,
 * which connects as a role of its own (DISPATCHER_DB_USER, default sot_dispatcher) that has no
 * privilege on records-api's schema: only CONNECT and CREATE on the database, for its schema
 * "dispatch". {@link #reset()} empties the database and applies records-api's own migrations
 * from its source tree, so records-api's tables are exactly its own, never a copy.
 *
 * <p>The dispatcher role must exist and DB_USER must be a member of it (so that the fixtures may
 * read and reset the dispatcher's schema); deploy/local/stack creates both.
 */
public final class TestDatabase {

    public static final String NAME = env("TEST_DB_NAME", "sot_test_dispatcher");
    public static final String URL =
            "jdbc:postgresql://" + env("DB_HOST", "127.0.0.1") + ":" + env("DB_PORT", "5432") + "/" + NAME;
    public static final String USER = env("DB_USER", "sot");
    public static final String PASSWORD = env("DB_PASSWORD", "sot");
    /** The dispatcher's own role (application.properties, %test). */
    public static final String DISPATCHER_USER = env("DISPATCHER_DB_USER", "sot_dispatcher");

    public static final String DISPATCHER_PASSWORD = env("DISPATCHER_DB_PASSWORD", "sot_dispatcher");

    private TestDatabase() {}

    /** As records-api's role (DB_USER). */
    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, USER, PASSWORD);
    }

    /**
     * Drops both schemas, migrates the public schema with records-api's migrations, and lets the
     * dispatcher's role create its schema. The new public schema grants nothing to anyone but
     * its owner, so the dispatcher's role cannot even see records-api's tables.
     */
    public static void reset() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            requireDispatcherRole(connection);
            statement.execute("drop schema if exists dispatch cascade");
            statement.execute("drop schema if exists public cascade");
            statement.execute("create schema public");
            statement.execute("grant connect, create on database \"" + NAME + "\" to \"" + DISPATCHER_USER + "\"");
        }
        Flyway.configure()
                .dataSource(URL, USER, PASSWORD)
                .schemas("public")
                .locations("filesystem:" + recordsApiMigrations())
                .load()
                .migrate();
    }

    private static void requireDispatcherRole(Connection connection) throws SQLException {
        try (PreparedStatement check = connection.prepareStatement(
                "select pg_has_role(current_user, r.oid, 'USAGE') from pg_roles r where r.rolname = ?")) {
            check.setString(1, DISPATCHER_USER);
            try (var row = check.executeQuery()) {
                if (!row.next() || !row.getBoolean(1)) {
                    throw new IllegalStateException("The dispatcher's tests connect as the role " + DISPATCHER_USER
                            + " (DISPATCHER_DB_USER), which must exist with the password DISPATCHER_DB_PASSWORD and be"
                            + " granted to " + USER + ". deploy/local/stack creates it; by hand, as a superuser:"
                            + " CREATE ROLE " + DISPATCHER_USER + " LOGIN PASSWORD '" + DISPATCHER_PASSWORD
                            + "'; GRANT "
                            + DISPATCHER_USER + " TO " + USER + ";");
                }
            }
        }
    }

    private static Path recordsApiMigrations() {
        // Tests run with the module directory as working directory (Maven, IDEs).
        Path path = Path.of("..", "records-api", "src", "main", "resources", "db", "migration")
                .toAbsolutePath()
                .normalize();
        if (!Files.isDirectory(path)) {
            throw new IllegalStateException("records-api migrations not found at " + path);
        }
        return path;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
