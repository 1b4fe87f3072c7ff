package org.sourceoftruth.records.users;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.testsupport.TokenRows;

/**
 * {@code POST /api/internal/credential-check/}: how webhook-dispatcher learns who its callers are
 * without reading this service's tables. The same checks and messages as for requests served
 * here, the client address as the dispatcher states it, last_used written here (never in
 * maintenance mode), and the session's CSRF token confirmed.
 */
@QuarkusTest
class CredentialCheckTest {
    private static final String CHECK = "/api/internal/credential-check/";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    AuthSettings settings;

    @AfterEach
    void restoreSettings() {
        settings.reset();
    }

    private static ValidatableResponse check(Map<String, Object> credentials) {
        return Api.auth().body(credentials).post(CHECK).then().log().ifValidationFails();
    }

    private static Map<String, Object> token(String key, String clientIp) {
        Map<String, Object> body = new HashMap<>();
        body.put("authorization", "Token " + key);
        body.put("client_ip", clientIp);
        return body;
    }

    @Test
    void onlySuperusersMayAsk() {
        Account plain = Accounts.account("cc-plain");
        given().contentType("application/json")
                .body(token(plain.token(), "127.0.0.1"))
                .post(CHECK)
                .then()
                .statusCode(403)
                .body("detail", equalTo("Authentication credentials were not provided."));
        plain.api()
                .body(token(plain.token(), "127.0.0.1"))
                .post(CHECK)
                .then()
                .statusCode(403)
                .body("detail", equalTo("You do not have permission to perform this action."));
    }

    @Test
    void aValidTokenNamesItsUserAndRecordsItsUse() throws Exception {
        Account plain = Accounts.account("cc-user");
        assertNull(lastUsed(plain.token()));
        check(token(plain.token(), "192.0.2.10"))
                .statusCode(200)
                .body("user.id", equalTo(plain.id()))
                .body("user.username", equalTo(plain.username()))
                .body("user.is_superuser", equalTo(false))
                .body("user.write_enabled", equalTo(true))
                .body("authenticated_by", equalTo("token"))
                .body("detail", nullValue());
        assertNotNull(lastUsed(plain.token()), "last_used is written by records-api");
        check(token(Api.TOKEN, null)).statusCode(200).body("user.is_superuser", equalTo(true));
        Map<String, Object> bearer = token(Api.TOKEN, null);
        bearer.put("authorization", "bearer " + Api.TOKEN);
        check(bearer).statusCode(200).body("user.is_superuser", equalTo(true));
    }

    @Test
    void refusedTokensGiveNetBoxsMessage() {
        Account plain = Accounts.account("cc-refused");
        Account disabled = Accounts.account("cc-disabled", Map.of("enabled", false));
        Account expired = Accounts.account(
                "cc-expired",
                Map.of("expires", OffsetDateTime.now().minusMinutes(1).toString()));
        Account remote = Accounts.account("cc-remote", Map.of("allowed_ips", List.of("10.0.0.0/8")));
        expectRefused(token(disabled.token(), "127.0.0.1"), "Token disabled");
        expectRefused(token(expired.token(), "127.0.0.1"), "Token expired");
        expectRefused(token("0".repeat(40), "127.0.0.1"), "Invalid v1 token");
        expectRefused(
                token(remote.token(), "192.0.2.1"),
                "Source IP 192.0.2.1 is not permitted to authenticate using this token.");
        expectRefused(
                token(remote.token(), "not-an-address"),
                "Client IP address could not be determined for validation."
                        + " Check that the HTTP server is correctly configured to pass the required header(s).");
        check(token(remote.token(), "10.1.2.3")).statusCode(200).body("user.username", equalTo(remote.username()));
        Map<String, Object> malformed = token(plain.token(), null);
        malformed.put("authorization", "Token a b");
        expectRefused(
                malformed,
                "Invalid authorization header: Must be in the form \"Bearer <key>.<token>\" or \"Token <token>\"");
        // another scheme is no credential at all, as for requests served here
        Map<String, Object> basic = token(plain.token(), null);
        basic.put("authorization", "Basic YWRtaW46YWRtaW4=");
        check(basic).statusCode(200).body("user", nullValue()).body("detail", nullValue());
        check(Map.of()).statusCode(200).body("user", nullValue()).body("csrf_valid", equalTo(false));
    }

    private static void expectRefused(Map<String, Object> credentials, String detail) {
        check(credentials).statusCode(200).body("user", nullValue()).body("detail", equalTo(detail));
    }

    @Test
    void maintenanceModeLeavesLastUsedAlone() throws Exception {
        Account plain = Accounts.account("cc-maintenance");
        settings.maintenanceMode(true);
        check(token(plain.token(), "127.0.0.1")).statusCode(200).body("user.username", equalTo(plain.username()));
        assertNull(lastUsed(plain.token()), "maintenance mode: unchanged");
    }

    @Test
    void aSessionNamesItsUserAndConfirmsItsCsrfToken() {
        Account plain = Accounts.account("cc-session");
        Response login = given().contentType("application/json")
                .body(Map.of("username", plain.username(), "password", Accounts.PASSWORD))
                .post("/login/");
        login.then().statusCode(200);
        String session = login.getCookie("sessionid");
        String csrf = login.getCookie("csrftoken");

        check(Map.of("session", session, "csrf_token", csrf, "csrf_cookie", csrf))
                .statusCode(200)
                .body("user.id", equalTo(plain.id()))
                .body("user.is_superuser", equalTo(false))
                .body("authenticated_by", equalTo("session"))
                .body("csrf_valid", equalTo(true));
        String other = "0".repeat(64);
        // a token equal to its cookie but not the session's, or the session's but not the cookie's
        check(Map.of("session", session, "csrf_token", other, "csrf_cookie", other))
                .statusCode(200)
                .body("user.id", equalTo(plain.id()))
                .body("csrf_valid", equalTo(false));
        check(Map.of("session", session, "csrf_token", csrf, "csrf_cookie", other))
                .statusCode(200)
                .body("csrf_valid", equalTo(false));
        check(Map.of("session", session))
                .statusCode(200)
                .body("user.id", equalTo(plain.id()))
                .body("csrf_valid", equalTo(false));
        check(Map.of("session", "no-such-session")).statusCode(200).body("user", nullValue());
        // the header wins over the session, as for requests served here
        Map<String, Object> both = token("0".repeat(40), "127.0.0.1");
        both.put("session", session);
        expectRefused(both, "Invalid v1 token");
    }

    @Test
    void badInputIsAFieldError() {
        Api.auth()
                .body(Map.of("client_ip", 7))
                .post(CHECK)
                .then()
                .statusCode(400)
                .body("client_ip", contains("Not a valid string."));
        Api.auth()
                .body(List.of())
                .post(CHECK)
                .then()
                .statusCode(400)
                .body("non_field_errors", contains("Invalid data. Expected a dictionary, but got list."));
    }

    private OffsetDateTime lastUsed(String key) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select last_used from users_token where hmac_digest = ?")) {
            ps.setString(1, TokenRows.digest(key));
            ResultSet rs = ps.executeQuery();
            assertTrue(rs.next());
            return rs.getObject(1, OffsetDateTime.class);
        }
    }
}
