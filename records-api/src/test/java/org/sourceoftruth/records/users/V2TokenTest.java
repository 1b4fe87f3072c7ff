package org.sourceoftruth.records.users;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/** NetBox 4.5's v2 tokens: {@code Bearer nbt_<key>.<secret>}, the secret shown once and stored only as an HMAC. */
@QuarkusTest
class V2TokenTest {
    @Inject
    AgroalDataSource dataSource;

    private ExtractableResponse<Response> createV2(int userId) {
        return Api.post("/api/users/tokens/", Map.of("user", userId, "version", 2, "description", "v2"))
                .statusCode(201)
                .body("version", equalTo(2))
                .body("pepper_id", equalTo(1))
                .extract();
    }

    @Test
    void v2TokenAuthenticatesAndItsSecretIsNotStored() throws Exception {
        Accounts.Account a = Accounts.account("v2");
        ExtractableResponse<Response> created = createV2(a.id());
        String key = created.path("key");
        String secret = created.path("token");
        int id = created.path("id");
        assertTrue(key.matches("[A-Za-z0-9]{12}"), key);
        assertTrue(secret.matches("[A-Za-z0-9]{40}"), secret);
        assertEquals(key, created.path("display"));

        given().header("Authorization", "Bearer nbt_" + key + "." + secret)
                .get("/api/authentication-check/")
                .then()
                .statusCode(200)
                .body("username", equalTo(a.username()));
        // the keyword does not decide the version: the nbt_ prefix does
        given().header("Authorization", "Token nbt_" + key + "." + secret)
                .get("/api/authentication-check/")
                .then()
                .statusCode(200);

        // the database holds the key and an HMAC, never the secret
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select * from users_token where id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                String digest = rs.getString("hmac_digest");
                assertNotNull(digest);
                assertNotEquals(secret, digest);
                for (int col = 1; col <= rs.getMetaData().getColumnCount(); col++) {
                    String value = rs.getString(col);
                    assertFalse(
                            value != null && value.contains(secret),
                            "column " + rs.getMetaData().getColumnName(col) + " holds the secret");
                }
            }
            // nor does the change log or the event of the token's creation
            try (PreparedStatement log = c.prepareStatement("select count(*) from core_objectchange where"
                    + " changed_object_type = 'users.token' and changed_object_id = ? and (postchange_data::text like ?"
                    + " or event_data::text like ?)")) {
                log.setLong(1, id);
                log.setString(2, "%" + secret + "%");
                log.setString(3, "%" + secret + "%");
                try (ResultSet rs = log.executeQuery()) {
                    rs.next();
                    assertEquals(0, rs.getLong(1));
                }
            }
        }

        // shown once: later reads show the key but no secret
        Api.auth()
                .get("/api/users/tokens/" + id + "/")
                .then()
                .statusCode(200)
                .body("key", equalTo(key))
                .body("token", nullValue())
                .body("version", equalTo(2));
    }

    @Test
    void wrongSecretsAndMalformedValuesAreRefused() {
        Accounts.Account a = Accounts.account("v2bad");
        ExtractableResponse<Response> created = createV2(a.id());
        String key = created.path("key");
        String secret = created.path("token");
        given().header("Authorization", "Bearer nbt_" + key + "." + secret.substring(1) + "x")
                .get("/api/authentication-check/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Invalid v2 token"));
        given().header("Authorization", "Bearer nbt_" + key)
                .get("/api/authentication-check/")
                .then()
                .statusCode(403)
                .body(
                        "detail",
                        equalTo("Invalid authorization header: Could not parse key from v2 token. Did you mean"
                                + " to use 'Token' instead of 'Bearer'?"));
        // the public key alone is no v1 key
        given().header("Authorization", "Token " + key)
                .get("/api/authentication-check/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Invalid v1 token"));
        // disabling works as for v1
        int id = created.path("id");
        Api.auth()
                .body(Map.of("enabled", false))
                .patch("/api/users/tokens/" + id + "/")
                .then()
                .statusCode(200);
        given().header("Authorization", "Bearer nbt_" + key + "." + secret)
                .get("/api/authentication-check/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Token disabled"));
    }

    @Test
    void v1KeysKeepWorkingAndVersionIsFixed() {
        Accounts.Account a = Accounts.account("v1");
        // a v1 token: the key is the secret, shown in the creating response as key and token
        ExtractableResponse<Response> created = Api.post("/api/users/tokens/", Map.of("user", a.id(), "version", 1))
                .statusCode(201)
                .body("version", equalTo(1))
                .body("pepper_id", nullValue())
                .extract();
        String key = created.path("key");
        assertEquals(key, created.path("token"));
        Accounts.as(key).get("/api/authentication-check/").then().statusCode(200);
        given().header("Authorization", "Bearer " + key)
                .get("/api/authentication-check/")
                .then()
                .statusCode(200);
        int id = created.path("id");
        Api.auth()
                .body(Map.of("version", 2))
                .patch("/api/users/tokens/" + id + "/")
                .then()
                .statusCode(400)
                .body("version[0]", equalTo("The version of an existing token cannot be changed."));
        Api.post("/api/users/tokens/", Map.of("user", a.id(), "version", 3))
                .statusCode(400)
                .body("version[0]", equalTo("\"3\" is not a valid choice."));
    }

    /**
     * NetBox 4.6's default is v2; a request that sends the v1 secret as key without a version
     * (a NetBox 4.4 client, Ansible's netbox_token module) gets that v1 token.
     */
    @Test
    void theDefaultIsV2UnlessAV1KeyIsSent() {
        Accounts.Account a = Accounts.account("deflt");
        ExtractableResponse<Response> created = Api.post("/api/users/tokens/", Map.of("user", a.id()))
                .statusCode(201)
                .body("version", equalTo(2))
                .body("pepper_id", equalTo(1))
                .extract();
        String key = created.path("key");
        String secret = created.path("token");
        assertTrue(key.matches("[A-Za-z0-9]{12}"), key);
        assertTrue(secret.matches("[A-Za-z0-9]{40}"), secret);
        given().header("Authorization", "Bearer nbt_" + key + "." + secret)
                .get("/api/authentication-check/")
                .then()
                .statusCode(200)
                .body("username", equalTo(a.username()));
        String v1 = "0123456789abcdef0123456789abcdef" + Integer.toHexString(0x10000000 + a.id());
        Api.post("/api/users/tokens/", Map.of("user", a.id(), "key", v1))
                .statusCode(201)
                .body("version", equalTo(1))
                .body("key", equalTo(v1));
        Accounts.as(v1).get("/api/authentication-check/").then().statusCode(200);
        // provisioning without a version: the same default
        given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", Accounts.PASSWORD))
                .post("/api/users/tokens/provision/")
                .then()
                .statusCode(201)
                .body("version", equalTo(2))
                .body("token", org.hamcrest.Matchers.matchesPattern("[A-Za-z0-9]{40}"));
    }

    @Test
    void provisioningMakesV2Tokens() {
        Accounts.Account a = Accounts.account("v2prov");
        ExtractableResponse<Response> created = given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", Accounts.PASSWORD, "version", 2))
                .post("/api/users/tokens/provision/")
                .then()
                .statusCode(201)
                .body("version", equalTo(2))
                .extract();
        given().header("Authorization", "Bearer nbt_" + created.path("key") + "." + created.path("token"))
                .get("/api/authentication-check/")
                .then()
                .statusCode(200)
                .body("username", equalTo(a.username()));
    }
}
