package org.sourceoftruth.records.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.TokenRows;

/**
 * No token secret is stored in clear: a v1 key is kept as its digest keyed with the current
 * pepper (as a v2 secret), existing keys are migrated to it, an unkeyed digest is keyed at its
 * first use, and the lookup of a presented key stays one index scan.
 */
@QuarkusTest
class TokenKeyDigestsTest {
    private static final String PEPPER = "migration-pepper-0123456789-0123456789-0123456789-0123456789";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    TokenPeppers peppers;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @ConfigProperty(name = "quarkus.datasource.username")
    String dbUser;

    @ConfigProperty(name = "quarkus.datasource.password")
    String dbPassword;

    @Test
    void theTokenTableHoldsNoSecretInClear() throws SQLException {
        int user = Api.create(
                "/api/users/users/", Map.of("username", "digest-" + Api.uniq(), "password", Accounts.PASSWORD));
        ExtractableResponse<Response> v1 = Api.post("/api/users/tokens/", Map.of("user", user, "version", 1))
                .statusCode(201)
                .extract();
        ExtractableResponse<Response> v2 = Api.post("/api/users/tokens/", Map.of("user", user, "version", 2))
                .statusCode(201)
                .extract();
        String key = v1.path("key");
        assertEquals(key, v1.path("token"), "a v1 token's create response shows its key, once");
        Accounts.as(key).get("/api/authentication-check/").then().statusCode(200);
        String table = text("select coalesce(string_agg(row_to_json(t)::text, ' '), '') from users_token t");
        assertFalse(table.contains(key), table);
        assertFalse(table.contains((String) v2.path("token")), table);
        assertEquals(1L, single("select count(*) from users_token where hmac_digest = ?", TokenRows.digest(key)));
    }

    @Test
    void anUnkeyedDigestIsKeyedAtItsFirstUse() throws SQLException {
        int user = Api.create(
                "/api/users/users/", Map.of("username", "rekey-" + Api.uniq(), "password", Accounts.PASSWORD));
        String key = PasswordHasher.newTokenKey();
        // as a token made while no pepper was configured is stored
        execute(
                "insert into users_token (user_id, hmac_digest, key_tail) values (?, ?, ?)",
                user,
                TokenDigests.unkeyed(key),
                TokenDigests.tail(key));
        Accounts.as(key).get("/api/authentication-check/").then().statusCode(200);
        TokenPeppers.Pepper current = peppers.current().orElseThrow();
        assertEquals(
                TokenPeppers.hmac(current.secret(), key),
                text("select hmac_digest from users_token where user_id = " + user));
        assertEquals((long) current.id(), single("select pepper_id::bigint from users_token where user_id = ?", user));
        Accounts.as(key).get("/api/authentication-check/").then().statusCode(200);
    }

    @Test
    void aPresentedKeyIsFoundByOneIndexScan() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("set local enable_seqscan = off");
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = s.executeQuery("explain select k.id from users_token k join users_user u on u.id ="
                    + " k.user_id where k.version = 1 and k.hmac_digest = any('{a,b,c}'::text[])")) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            c.rollback();
            assertTrue(plan.toString().contains("users_token_v1_digest"), plan.toString());
        }
    }

    @Test
    void migrationKeepsOnlyDigestsOfExistingKeys() throws Exception {
        String keyed = scratchDatabase("keyed");
        String unkeyed = scratchDatabase("unkeyed");
        try {
            String key = "0123456789abcdef0123456789abcdef01234567";
            migrateWithTokens(keyed, key, Map.of(7, PEPPER));
            migrateWithTokens(unkeyed, key, Map.of());
            try (Connection c = connect(keyed)) {
                Map<String, Object> v1 = row(c, "select * from users_token where version = 1");
                assertNull(v1.get("key"));
                assertEquals(TokenPeppers.hmac(PEPPER, key), v1.get("hmac_digest"));
                assertEquals(7, ((Number) v1.get("pepper_id")).intValue());
                assertEquals("234567", v1.get("key_tail"));
                Map<String, Object> v2 = row(c, "select * from users_token where version = 2");
                assertEquals("abcdefABCDEF", v2.get("key"), "a v2 token's public key stays");
                assertEquals("f".repeat(64), v2.get("hmac_digest"));
                assertFalse(row(c, "select string_agg(row_to_json(t)::text, ' ') as t from users_token t")
                        .get("t")
                        .toString()
                        .contains(key));
                SQLException clear = assertThrows(
                        SQLException.class,
                        () -> c.createStatement()
                                .executeUpdate(
                                        "insert into users_token (user_id, key, hmac_digest)"
                                                + " select id, 'ffffffffffffffffffffffffffffffffffffffff', 'x' from users_user"));
                assertEquals("23514", clear.getSQLState(), "a v1 key in clear is refused by a check constraint");
            }
            try (Connection c = connect(unkeyed)) {
                Map<String, Object> v1 = row(c, "select * from users_token where version = 1");
                assertNull(v1.get("key"));
                assertEquals(TokenDigests.unkeyed(key), v1.get("hmac_digest"));
                assertNull(v1.get("pepper_id"));
            }
        } finally {
            dropDatabase(keyed);
            dropDatabase(unkeyed);
        }
    }

    /** Migrates a new database to just before the token digests, stores tokens as they were, then migrates on. */
    private void migrateWithTokens(String database, String key, Map<Integer, String> pepperMap) throws SQLException {
        // "?": the last version up to 179, whichever exists
        flyway(database, pepperMap).target("179?").load().migrate();
        try (Connection c = connect(database);
                Statement s = c.createStatement()) {
            s.executeUpdate("insert into users_user (username, password) values ('old', '!')");
            s.executeUpdate("insert into users_token (user_id, key) select id, '" + key + "' from users_user");
            s.executeUpdate("insert into users_token (user_id, key, version, pepper_id, hmac_digest)"
                    + " select id, 'abcdefABCDEF', 2, 1, '" + "f".repeat(64) + "' from users_user");
        }
        flyway(database, pepperMap).load().migrate();
    }

    private org.flywaydb.core.api.configuration.FluentConfiguration flyway(String database, Map<Integer, String> p) {
        return Flyway.configure()
                .dataSource(urlOf(database), dbUser, dbPassword)
                .locations("filesystem:src/main/resources/db/migration")
                .javaMigrations(new V1TokenKeyDigests(p));
    }

    private String scratchDatabase(String suffix) throws SQLException {
        String name = (jdbcUrl.substring(jdbcUrl.lastIndexOf('/') + 1) + "_v181_" + suffix).toLowerCase();
        dropDatabase(name);
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("create database " + name);
        }
        return name;
    }

    private void dropDatabase(String name) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("drop database if exists " + name);
        }
    }

    private String urlOf(String database) {
        return jdbcUrl.substring(0, jdbcUrl.lastIndexOf('/') + 1) + database;
    }

    private Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(urlOf(database), dbUser, dbPassword);
    }

    private static Map<String, Object> row(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            Map<String, Object> out = new java.util.HashMap<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                out.put(rs.getMetaData().getColumnName(i), rs.getObject(i));
            }
            return out;
        }
    }

    private String text(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private long single(String sql, Object... params) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void execute(String sql, Object... params) throws SQLException {
        List<Object> values = new ArrayList<>(List.of(params));
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.size(); i++) {
                ps.setObject(i + 1, values.get(i));
            }
            ps.executeUpdate();
        }
    }
}
