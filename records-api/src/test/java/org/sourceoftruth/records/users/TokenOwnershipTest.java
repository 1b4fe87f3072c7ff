package org.sourceoftruth.records.users;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasEntry;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.auth.AuthSettings;

/** Users manage their own tokens (DEFAULT_PERMISSIONS), grant_token, provisioning, ALLOW_TOKEN_RETRIEVAL. */
@QuarkusTest
class TokenOwnershipTest {
    private static final String PROVISION = "/api/users/tokens/provision/";

    @Inject
    AuthSettings settings;

    @AfterEach
    void restoreSettings() {
        settings.reset();
    }

    @Test
    void usersManageOnlyTheirOwnTokensByDefault() {
        Account me = Accounts.account("own");
        Account other = Accounts.account("own");
        int otherToken = Api.post("/api/users/tokens/", Map.of("user", other.id()))
                .statusCode(201)
                .extract()
                .path("id");
        me.api()
                .get("/api/users/tokens/")
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results.user.id", everyItem(equalTo(me.id())))
                .body("results[0]", hasEntry(equalTo("key"), nullValue()));
        int mine = me.api()
                .body(Map.of("user", me.id(), "description", "laptop"))
                .post("/api/users/tokens/")
                .then()
                .statusCode(201)
                .body("user.id", equalTo(me.id()))
                .body("version", equalTo(2))
                .body("token", matchesPattern("[A-Za-z0-9]{40}"))
                .extract()
                .path("id");
        me.api().get("/api/users/tokens/").then().statusCode(200).body("count", equalTo(2));
        me.api().get("/api/users/tokens/" + otherToken + "/").then().statusCode(404);
        me.api().delete("/api/users/tokens/" + otherToken + "/").then().statusCode(404);
        me.api()
                .body(Map.of("description", "x"))
                .patch("/api/users/tokens/" + otherToken + "/")
                .then()
                .statusCode(404);
        me.api()
                .body(Map.of("write_enabled", false))
                .patch("/api/users/tokens/" + mine + "/")
                .then()
                .statusCode(200);
        me.api().delete("/api/users/tokens/" + mine + "/").then().statusCode(204);
        // with DEFAULT_PERMISSIONS emptied, tokens are like any other model
        settings.defaultPermissions("{}");
        me.api().get("/api/users/tokens/").then().statusCode(403);
        me.api().post("/api/users/tokens/").then().statusCode(403);
    }

    @Test
    void tokensForOthersNeedGrantToken() {
        Account me = Accounts.account("granter");
        Account other = Accounts.account("grantee");
        me.api()
                .body(Map.of("user", other.id()))
                .post("/api/users/tokens/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("This user does not have permission to create tokens for other users."));
        auth().get("/api/users/tokens/?user_id=" + other.id())
                .then()
                .statusCode(200)
                .body("count", equalTo(1));
        // grant (constrained to the grantee) plus add on any token
        Accounts.permission(
                List.of("users.token"), List.of("grant"), Map.of("user__username", other.username()), List.of(me.id()));
        Accounts.permission(List.of("users.token"), List.of("add"), null, List.of(me.id()));
        me.api()
                .body(Map.of("user", other.id()))
                .post("/api/users/tokens/")
                .then()
                .statusCode(201)
                .body("user.id", equalTo(other.id()))
                .body("token", matchesPattern("[A-Za-z0-9]{40}"));
        Account third = Accounts.account("third");
        me.api()
                .body(Map.of("user", third.id()))
                .post("/api/users/tokens/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("This user does not have permission to create tokens for other users."));
    }

    @Test
    void provisioningWithGoodAndBadCredentials() {
        Account a = Accounts.account("prov");
        String key = given().contentType("application/json")
                .body(Map.of(
                        "username",
                        a.username(),
                        "password",
                        Accounts.PASSWORD,
                        "description",
                        "provisioned",
                        "version",
                        1))
                .post(PROVISION)
                .then()
                .statusCode(201)
                .body("key", matchesPattern("[0-9a-f]{40}"))
                .body("write_enabled", equalTo(true))
                .body("user.id", equalTo(a.id()))
                .body("user.username", equalTo(a.username()))
                .body("description", equalTo("provisioned"))
                .body("created", notNullValue())
                .body("id", notNullValue())
                .extract()
                .path("key");
        Accounts.as(key).get("/api/users/tokens/").then().statusCode(200).body("count", equalTo(2));
        given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", "Wrong-Password-1"))
                .post(PROVISION)
                .then()
                .statusCode(403)
                .body("detail", equalTo("Invalid username/password"));
        given().contentType("application/json")
                .body(Map.of("username", "nobody-" + uniq(), "password", Accounts.PASSWORD))
                .post(PROVISION)
                .then()
                .statusCode(403)
                .body("detail", equalTo("Invalid username/password"));
        given().contentType("application/json")
                .body(Map.of("username", a.username()))
                .post(PROVISION)
                .then()
                .statusCode(400)
                .body("password", contains("This field is required."));
        // the add permission is required: without DEFAULT_PERMISSIONS this user has none
        settings.defaultPermissions("{}");
        given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", Accounts.PASSWORD))
                .post(PROVISION)
                .then()
                .statusCode(403)
                .body("detail", equalTo("You do not have permission to perform this action."));
        settings.reset();
        // an inactive user cannot provision
        auth().body(Map.of("is_active", false))
                .patch("/api/users/users/" + a.id() + "/")
                .then()
                .statusCode(200);
        given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", Accounts.PASSWORD))
                .post(PROVISION)
                .then()
                .statusCode(403)
                .body("detail", equalTo("Invalid username/password"));
    }

    /** NetBox 4.5+: no read shows a v1 key again (only its digest is stored; ALLOW_TOKEN_RETRIEVAL has no effect). */
    @Test
    void aKeyIsNeverShownAgain() {
        Account me = Accounts.account("retr");
        me.api()
                .get("/api/users/tokens/")
                .then()
                .statusCode(200)
                .body("results[0]", hasEntry(equalTo("key"), nullValue()));
        me.api()
                .get("/api/users/tokens/?brief=1")
                .then()
                .statusCode(200)
                .body("results[0]", hasEntry(equalTo("key"), nullValue()));
        String listed = me.api()
                .get("/api/users/tokens/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        org.junit.jupiter.api.Assertions.assertFalse(listed.contains(me.token()), listed);
        me.api()
                .get("/api/users/tokens/")
                .then()
                .body("results[0].display", equalTo("*".repeat(34) + me.token().substring(34)));
    }
}
