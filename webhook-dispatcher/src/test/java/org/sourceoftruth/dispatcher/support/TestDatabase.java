package org.sourceoftruth.dispatcher.support;

import org.flywaydb.core.Flyway;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The test database (TEST_DB_NAME, default sot_test_dispatcher, on DB_HOST:DB_PORT as DB_USER).
 * {@link #reset()} empties it and applies records-api's own migrations from its source tree, so
 * the public tables the dispatcher reads (webhooks, event rules, users, tokens) are exactly
 * records-api's, never a copy.
 */
public final class TestDatabase {

    public static final String URL = "jdbc:postgresql://" + env("DB_HOST", "127.0.0.1") + ":" + env("DB_PORT", "5432")
            + "/" + env("TEST_DB_NAME", "sot_test_dispatcher");
    public static final String USER = env("DB_USER", "sot");
    public static final String PASSWORD = env("DB_PASSWORD", "sot");

    private TestDatabase() {
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, USER, PASSWORD);
    }

    /** Drops both schemas, then migrates the public schema with records-api's migrations. */
    public static void reset() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists dispatch cascade");
            statement.execute("drop schema if exists public cascade");
            statement.execute("create schema public");
        }
        Flyway.configure()
                .dataSource(URL, USER, PASSWORD)
                .schemas("public")
                .locations("filesystem:" + recordsApiMigrations())
                .load()
                .migrate();
    }

    private static Path recordsApiMigrations() {
        // Tests run with the module directory as working directory (Maven, IDEs).
        Path path = Path.of("..", "records-api", "src", "main", "resources", "db", "migration").toAbsolutePath().normalize();
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
