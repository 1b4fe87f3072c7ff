package org.sourceoftruth.records.users;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * No endpoint shows a password hash or another user's token key: every registered model path
 * is walked (list, brief list, each listed object, OPTIONS) with low-privilege tokens.
 */
@QuarkusTest
class NoLeakTest {
    @Inject
    ModelRegistry registry;

    @Inject
    AuthSettings settings;

    @Inject
    AgroalDataSource dataSource;

    @AfterEach
    void restoreSettings() {
        settings.reset();
    }

    /** Secrets that must never show up in an answer to {@code reader}: hashes, keys, and the digests tokens are stored as. */
    private List<String> secretsHiddenFrom(Account reader, Account other) throws Exception {
        List<String> secrets = new ArrayList<>(List.of("pbkdf2_sha256", Api.TOKEN, other.token()));
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select hmac_digest from users_token where user_id <> " + reader.id())) {
            while (rs.next()) {
                secrets.add(rs.getString(1));
            }
        }
        return secrets;
    }

    @Test
    void everyModelPathWithAViewEverythingToken() throws Exception {
        Account other = Accounts.account("victim");
        Account reader = Accounts.account("reader");
        List<String> everyType = registry.all().stream().map(Model::contentType).toList();
        Accounts.permission(everyType, List.of("view"), null, List.of(reader.id()));
        Api.site("leak"); // at least one ordinary object
        int walked = walk(reader, secretsHiddenFrom(reader, other), true);
        assertEquals(registry.all().size(), walked);
    }

    @Test
    void everyModelPathWithANoPermissionToken() throws Exception {
        Account other = Accounts.account("victim");
        Account reader = Accounts.account("bare");
        walk(reader, secretsHiddenFrom(reader, other), false);
    }

    /** Reads every model path (aliases included) as {@code reader}; returns how many models answered 200. */
    private int walk(Account reader, List<String> secrets, boolean expectAll) {
        int ok = 0;
        for (Model m : registry.all()) {
            List<String> paths = new ArrayList<>(List.of(m.app() + "/" + m.path()));
            paths.addAll(m.aliasPaths());
            boolean readable = true;
            for (String path : paths) {
                readable &= walkPath(reader, m, "/api/" + path + "/", secrets, expectAll);
            }
            ok += readable ? 1 : 0;
        }
        for (String path : List.of("/api/users/config/", "/api/authentication-check/", "/api/users/", "/api/status/")) {
            assertClean(path, reader.api().get(path), secrets);
        }
        return ok;
    }

    /** Reads one model path: list, brief list, OPTIONS and up to 25 listed objects. True when readable. */
    private boolean walkPath(Account reader, Model m, String base, List<String> secrets, boolean expectAll) {
        Response list = reader.api().get(base + "?limit=1000");
        assertClean(base, list, secrets);
        // NetBox's DEFAULT_PERMISSIONS: everyone sees their own tokens, bookmarks, notifications, subscriptions
        boolean ownObjects = List.of("users.token", "extras.bookmark", "extras.notification", "extras.subscription")
                .contains(m.contentType());
        if (!expectAll && !ownObjects) {
            assertEquals(403, list.statusCode(), base + " " + list.asString());
        }
        if (list.statusCode() != 200) {
            return false;
        }
        assertClean(base + "?brief=1", reader.api().get(base + "?brief=1&limit=1000"), secrets);
        assertClean("OPTIONS " + base, reader.api().options(base), secrets);
        List<Integer> ids = list.jsonPath().getList("results.id", Integer.class);
        for (Integer id : ids.subList(0, Math.min(ids.size(), 25))) {
            assertClean(base + id + "/", reader.api().get(base + id + "/"), secrets);
        }
        if (m.contentType().equals("users.user")) {
            assertFalse(list.asString().contains("\"password\""), list.asString());
            assertTrue(ids.size() >= 3, "a view-everything reader sees other users: " + ids);
        }
        return true;
    }

    private static void assertClean(String what, Response r, List<String> secrets) {
        String body = r.asString();
        assertTrue(r.statusCode() < 500, what + " answered " + r.statusCode() + ": " + body);
        for (String secret : secrets) {
            assertFalse(body.contains(secret), what + " leaks " + secret.substring(0, 6) + "...: " + body);
        }
    }

    @Test
    void changeLogOfUsersAndTokensHoldsNoSecrets() throws Exception {
        Account a = Accounts.account("log");
        Api.auth()
                .body(Map.of("password", "Changed-Pass-99"))
                .patch("/api/users/users/" + a.id() + "/")
                .then()
                .statusCode(200);
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "select coalesce(prechange_data::text, '') || coalesce(postchange_data::text, '')"
                                + " || coalesce(event_data::text, '') || object_repr from core_objectchange"
                                + " where changed_object_type like 'users.%'")) {
            int rows = 0;
            while (rs.next()) {
                rows++;
                String text = rs.getString(1);
                assertFalse(text.contains("pbkdf2_sha256"), text);
                assertFalse(text.contains(a.token()), text);
                assertFalse(text.contains(Api.TOKEN), text);
            }
            assertTrue(rows >= 3, "user create, token create and user update are logged");
        }
    }
}
