package org.sourceoftruth.records.users;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasEntry;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.auth.PasswordHasher;
import org.sourceoftruth.records.testsupport.TokenRows;

/** users/users, users/groups, users/permissions and users/tokens as engine models. */
@QuarkusTest
class UsersModelsTest {
    @Inject
    org.sourceoftruth.records.engine.query.FilterCompiler filters;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    AuthSettings settings;

    @AfterEach
    void restoreSettings() {
        settings.reset();
    }

    @Test
    void passwordIsWriteOnlyHashedAndChecked() throws Exception {
        String name = "pw-" + uniq();
        int id = Api.post(
                        "/api/users/users/",
                        Map.of(
                                "username",
                                name,
                                "password",
                                Accounts.PASSWORD,
                                "first_name",
                                "Ada",
                                "last_name",
                                "Lovelace"))
                .statusCode(201)
                .body("$", not(hasKey("password")))
                .body("display", equalTo(name + " (Ada Lovelace)"))
                .body("is_active", equalTo(true))
                .extract()
                .path("id");
        auth().get("/api/users/users/" + id + "/")
                .then()
                .statusCode(200)
                .body("$", not(hasKey("password")))
                .body("username", equalTo(name))
                .body("groups", org.hamcrest.Matchers.hasSize(0));
        String stored = storedPassword(id);
        assertTrue(stored.startsWith("pbkdf2_sha256$1000$"), stored);
        assertTrue(PasswordHasher.verify(Accounts.PASSWORD, stored));
        // NetBox's password validators
        auth().body(Map.of("password", "Short1a"))
                .patch("/api/users/users/" + id + "/")
                .then()
                .statusCode(400)
                .body("password", contains("This password is too short. It must contain at least 12 characters."));
        auth().body(Map.of("password", "alllowercase-no-digit"))
                .patch("/api/users/users/" + id + "/")
                .then()
                .statusCode(400)
                .body("password", contains("Password must have at least one numeral."));
        auth().body(Map.of("password", "alllowercase-1-digit"))
                .patch("/api/users/users/" + id + "/")
                .then()
                .statusCode(400)
                .body("password", contains("Password must have at least one uppercase letter."));
        assertEquals(stored, storedPassword(id), "a rejected password changes nothing");
        // the hash is no filter and no ordering key, and no attribute for related-object look-ups
        filters.strictFiltering(true); // under the lenient default the parameter is ignored, not applied
        try {
            auth().get("/api/users/users/?password__isw=pbkdf2")
                    .then()
                    .statusCode(400)
                    .body("$", hasKey("password__isw"));
        } finally {
            filters.strictFiltering(null);
        }
        Api.post("/api/users/tokens/", Map.of("user", Map.of("username", name, "password", stored)))
                .statusCode(400)
                .body("user", contains(containsString("Cannot resolve keyword 'password'")));
        Api.post("/api/users/users/", Map.of("username", "bad name!", "password", Accounts.PASSWORD))
                .statusCode(400)
                .body("username", contains(startsWith("Enter a valid username.")));
    }

    @Test
    void groupsAndPermissionsNestOnUsers() {
        String u = uniq();
        int group = create("/api/users/groups/", Map.of("name", "g-" + u, "description", "ops"));
        int perm = create(
                "/api/users/permissions/",
                Map.of(
                        "name",
                        "p-" + u,
                        "object_types",
                        List.of("dcim.site"),
                        "actions",
                        List.of("view"),
                        "groups",
                        List.of(group)));
        int user = create(
                "/api/users/users/",
                Map.of(
                        "username",
                        "m-" + u,
                        "password",
                        Accounts.PASSWORD,
                        "groups",
                        List.of(group),
                        "permissions",
                        List.of(perm)));
        auth().get("/api/users/users/" + user + "/")
                .then()
                .statusCode(200)
                .body("groups[0].name", equalTo("g-" + u))
                .body("permissions[0].name", equalTo("p-" + u))
                .body("permissions[0].actions", contains("view"));
        auth().get("/api/users/groups/" + group + "/")
                .then()
                .statusCode(200)
                .body("user_count", equalTo(1))
                .body("permissions[0].id", equalTo(perm))
                .body("description", equalTo("ops"));
        auth().get("/api/users/permissions/" + perm + "/")
                .then()
                .statusCode(200)
                .body("enabled", equalTo(true))
                .body("object_types", contains("dcim.site"))
                .body("constraints", nullValue())
                .body("groups[0].id", equalTo(group))
                .body("users.id", contains(user));
    }

    @Test
    void permissionObjectTypesActionsAndConstraintsAreValidated() {
        Map<String, Object> body = new HashMap<>(
                Map.of("name", "bad-" + uniq(), "object_types", List.of("dcim.nothing"), "actions", List.of("view")));
        Api.post("/api/users/permissions/", body)
                .statusCode(400)
                .body("object_types", contains("Invalid content type: dcim.nothing"));
        // NetBox 4.4: the list may be empty, and names any NetBox object type, served here or not yet
        body.put("object_types", List.of());
        Api.post("/api/users/permissions/", body).statusCode(201).body("object_types", hasSize(0));
        body.put("name", "later-" + uniq());
        body.put("object_types", List.of("dcim.cable", "vpn.tunnel"));
        Api.post("/api/users/permissions/", body)
                .statusCode(201)
                .body("object_types", contains("dcim.cable", "vpn.tunnel"));
        body.put("name", "ok-" + uniq());
        body.put("object_types", List.of("dcim.site"));
        body.put(
                "constraints",
                List.of(
                        Map.of("tenant__slug", "acme"),
                        Map.of("status__in", List.of("active")),
                        Map.of("tags__slug", "core"),
                        Map.of("region__parent__name__istartswith", "eu")));
        Api.post("/api/users/permissions/", body).statusCode(201);
    }

    /**
     * Constraints are stored as NetBox's API stores them, whatever they say; one that cannot be
     * applied to a model (an unknown field, a bad lookup, not an object) grants nothing there
     * (fail closed), while the permission's other, valid constraint sets still grant.
     */
    @Test
    void constraintsAreAcceptedAsNetBoxAndUnusableOnesMatchNothing() {
        Accounts.Account user = Accounts.account("cstr");
        String u = uniq();
        int site = create("/api/dcim/sites/", Map.of("name", "cs-" + u, "slug", "cs-" + u));
        for (Object unusable : List.of(Map.of("nope__slug", "x"), Map.of("slug__bogus", "x"), "not an object")) {
            int id = Accounts.permission(List.of("dcim.site"), List.of("view"), unusable, List.of(user.id()));
            auth().get("/api/users/permissions/" + id + "/")
                    .then()
                    .statusCode(200)
                    .body("constraints", notNullValue());
            user.api()
                    .get("/api/dcim/sites/?slug=cs-" + u)
                    .then()
                    .statusCode(200)
                    .body("count", equalTo(0));
            user.api().get("/api/dcim/sites/" + site + "/").then().statusCode(404);
        }
        // a list with one usable set grants through that set
        Accounts.permission(
                List.of("dcim.site"),
                List.of("view"),
                List.of(Map.of("nope", 1), Map.of("slug", "cs-" + u)),
                List.of(user.id()));
        user.api().get("/api/dcim/sites/?slug=cs-" + u).then().statusCode(200).body("results.id", contains(site));
    }

    /**
     * A user who may delete users deletes their own account: 204, and the change log keeps the
     * deletion (and its cascaded token) under the user's name with no link to the gone account.
     */
    @Test
    void aUserMayDeleteTheirOwnAccountAndTheChangeIsLoggedByName() throws Exception {
        Accounts.Account self = Accounts.account("selfdel");
        Accounts.permission(List.of("users.user", "users.token"), List.of("view", "delete"), null, List.of(self.id()));
        self.api().delete("/api/users/users/" + self.id() + "/").then().statusCode(204);
        auth().get("/api/users/users/" + self.id() + "/").then().statusCode(404);
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("select changed_object_type, user_id, user_name from core_objectchange"
                                + " where action = 'delete' and user_name = ? order by id")) {
            ps.setString(1, self.username());
            ResultSet rs = ps.executeQuery();
            List<String> types = new java.util.ArrayList<>();
            while (rs.next()) {
                types.add(rs.getString(1));
                assertEquals(null, rs.getObject(2), "no link to the deleted account");
            }
            assertEquals(List.of("users.token", "users.user"), types);
        }
    }

    @Test
    void tokenKeyIsGeneratedShownOnceAndHiddenFromChangeLog() throws Exception {
        Accounts.Account owner = Accounts.account("tk");
        int user = owner.id();
        var created = Api.post("/api/users/tokens/", Map.of("user", user, "description", "ci", "version", 1))
                .statusCode(201)
                .body("key", matchesPattern("[0-9a-f]{40}"))
                .body("write_enabled", equalTo(true))
                .body("user.id", equalTo(user))
                .body("user.username", startsWith("tk-"))
                .body("expires", nullValue())
                .body("allowed_ips", org.hamcrest.Matchers.hasSize(0))
                .extract();
        String key = created.path("key");
        int id = created.path("id");
        auth().get("/api/users/tokens/" + id + "/")
                .then()
                .statusCode(200)
                .body("$", hasEntry(equalTo("key"), nullValue()))
                .body("display", equalTo("*".repeat(34) + key.substring(34)))
                .body("description", equalTo("ci"));
        auth().get("/api/users/tokens/?user_id=" + user)
                .then()
                .statusCode(200)
                .body("results[0]", hasEntry(equalTo("key"), nullValue()));
        auth().body(Map.of("description", "changed"))
                .patch("/api/users/tokens/" + id + "/")
                .then()
                .statusCode(200)
                .body("$", hasEntry(equalTo("key"), nullValue()));
        // no one reads the key again, not even its owner (nothing holds it: NetBox 4.5+)
        owner.api()
                .get("/api/users/tokens/" + id + "/")
                .then()
                .statusCode(200)
                .body("$", hasEntry(equalTo("key"), nullValue()));
        auth().get("/api/users/tokens/" + id + "/")
                .then()
                .statusCode(200)
                .body("$", hasEntry(equalTo("key"), nullValue()));
        // the change log and the event data never carry the key
        auth().body(Map.of("description", "changed again"))
                .patch("/api/users/tokens/" + id + "/")
                .then()
                .statusCode(200);
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "select coalesce(postchange_data::text, '') || coalesce(event_data::text, '')"
                                + " || object_repr as t from core_objectchange where changed_object_type = 'users.token'"
                                + " and changed_object_id = ?")) {
            ps.setLong(1, id);
            ResultSet rs = ps.executeQuery();
            int rows = 0;
            while (rs.next()) {
                rows++;
                assertFalse(rs.getString(1).contains(key), rs.getString(1));
            }
            assertEquals(3, rows);
        }
    }

    @Test
    void callerMaySupplyAKeyAndItAuthenticates() throws Exception {
        int user = create("/api/users/users/", Map.of("username", "own-" + uniq(), "password", Accounts.PASSWORD));
        String key = PasswordHasher.newTokenKey();
        Api.post("/api/users/tokens/", Map.of("user", user, "key", key))
                .statusCode(201)
                .body("key", equalTo(key));
        Accounts.as(key)
                .get("/api/authentication-check/")
                .then()
                .statusCode(200)
                .body("id", equalTo(user));
        Api.post("/api/users/tokens/", Map.of("user", user, "key", key))
                .statusCode(400)
                .body("key", contains("token with this key already exists."));
        Api.post("/api/users/tokens/", Map.of("user", user, "key", "not-hex"))
                .statusCode(400)
                .body("key", contains("Ensure this field has exactly 40 hexadecimal characters."));
        Api.post("/api/users/tokens/", Map.of("user", user, "allowed_ips", List.of("10.0.0.0/8", "nonsense")))
                .statusCode(400)
                .body("allowed_ips", contains("Invalid IP prefix format: nonsense"));
        // only the key's digest under the current pepper is stored, and its last six characters
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "select key, key_digest, pepper_id, key_tail from users_token where hmac_digest = ?")) {
            ps.setString(1, TokenRows.digest(key));
            ResultSet rs = ps.executeQuery();
            assertTrue(rs.next());
            assertNull(rs.getString("key"));
            assertNull(rs.getBytes("key_digest"));
            assertEquals(1, rs.getInt("pepper_id"));
            assertEquals(key.substring(34), rs.getString("key_tail"));
        }
        // a key differing in its last character is unknown
        String other = key.substring(0, 39) + (key.charAt(39) == '0' ? '1' : '0');
        Accounts.as(other).get("/api/dcim/sites/").then().statusCode(403).body("detail", equalTo("Invalid v1 token"));
    }

    @Test
    void tokenUserIsRequiredAndCannotChange() {
        Api.post("/api/users/tokens/", Map.of("description", "whose?"))
                .statusCode(400)
                .body("user", contains("This field is required."));
        int a = create("/api/users/users/", Map.of("username", "a-" + uniq(), "password", Accounts.PASSWORD));
        int b = create("/api/users/users/", Map.of("username", "b-" + uniq(), "password", Accounts.PASSWORD));
        int token = Api.post("/api/users/tokens/", Map.of("user", a))
                .statusCode(201)
                .extract()
                .path("id");
        auth().body(Map.of("user", b))
                .patch("/api/users/tokens/" + token + "/")
                .then()
                .statusCode(400)
                .body("user", contains("The user of an existing token cannot be changed."));
        auth().body(Map.of("user", a, "write_enabled", false))
                .patch("/api/users/tokens/" + token + "/")
                .then()
                .statusCode(200)
                .body("write_enabled", equalTo(false));
        auth().get("/api/users/")
                .then()
                .statusCode(200)
                .body("$", hasKey("tokens"))
                .body("$", hasKey("permissions"))
                .body("$", hasKey("groups"))
                .body("$", hasKey("users"));
        auth().get("/api/users/tokens/?user_id=" + a).then().statusCode(200).body("results.id", hasItem(token));
    }

    private String storedPassword(int id) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select password from users_user where id = ?")) {
            ps.setLong(1, id);
            ResultSet rs = ps.executeQuery();
            rs.next();
            return rs.getString(1);
        }
    }
}
