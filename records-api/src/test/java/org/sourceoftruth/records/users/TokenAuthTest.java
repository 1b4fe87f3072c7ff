package org.sourceoftruth.records.users;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.uniq;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.TokenRows;

/** Token checks at authentication: expiry, write ability, enabled, user active, allowed IPs, last_used. */
@QuarkusTest
class TokenAuthTest {
    private static final String FORBIDDEN = "You do not have permission to perform this action.";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    org.sourceoftruth.records.auth.AuthSettings settings;

    @AfterEach
    void restoreSettings() {
        settings.reset();
    }

    /** A user allowed to do everything with sites, so only the token decides. */
    private Account siteAdmin(Map<String, Object> tokenAttributes) {
        Account a = Accounts.account("tok", tokenAttributes);
        Accounts.permission(List.of("dcim.site"), List.of("view", "add", "change", "delete"), null, List.of(a.id()));
        return a;
    }

    @Test
    void expiredTokenIsRefused() {
        Account a =
                siteAdmin(Map.of("expires", OffsetDateTime.now().minusMinutes(1).toString()));
        a.api().get("/api/dcim/sites/").then().statusCode(403).body("detail", equalTo("Token expired"));
        String future = Accounts.token(
                a.id(), Map.of("expires", OffsetDateTime.now().plusDays(1).toString()));
        Accounts.as(future).get("/api/dcim/sites/").then().statusCode(200);
    }

    @Test
    void writeDisabledTokenMayOnlyRead() {
        Account a = siteAdmin(Map.of("write_enabled", false));
        int site = Api.site("ro");
        a.api().get("/api/dcim/sites/" + site + "/").then().statusCode(200);
        String n = "ro-" + uniq();
        a.api()
                .body(Map.of("name", n, "slug", n))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo(FORBIDDEN));
        a.api()
                .body(Map.of("description", "x"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(403)
                .body("detail", equalTo(FORBIDDEN));
        a.api()
                .body(Map.of("name", n, "slug", n))
                .put("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(403)
                .body("detail", equalTo(FORBIDDEN));
        a.api().delete("/api/dcim/sites/" + site + "/").then().statusCode(403).body("detail", equalTo(FORBIDDEN));
        a.api()
                .body(List.of(Map.of("id", site)))
                .delete("/api/dcim/sites/")
                .then()
                .statusCode(403);
        Api.auth().get("/api/dcim/sites/" + site + "/").then().statusCode(200).body("description", equalTo(""));
        // the same user with a write-enabled token may write
        Accounts.as(Accounts.token(a.id(), Map.of()))
                .body(Map.of("description", "x"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
    }

    @Test
    void disabledTokenAndInactiveUserAreRefused() {
        Account a = siteAdmin(Map.of("enabled", false));
        a.api().get("/api/dcim/sites/").then().statusCode(403).body("detail", equalTo("Token disabled"));
        String enabled = Accounts.token(a.id(), Map.of());
        Api.auth()
                .body(Map.of("is_active", false))
                .patch("/api/users/users/" + a.id() + "/")
                .then()
                .statusCode(200);
        Accounts.as(enabled).get("/api/dcim/sites/").then().statusCode(403).body("detail", equalTo("User inactive"));
    }

    @Test
    void allowedIpsUseTheRemoteAddressUnlessTheProxyIsTrusted() {
        Account local = siteAdmin(Map.of("allowed_ips", List.of("127.0.0.0/8", "2001:db8::/32")));
        Account remote = siteAdmin(Map.of("allowed_ips", List.of("10.0.0.0/8")));
        local.api().get("/api/dcim/sites/").then().statusCode(200);
        remote.api()
                .get("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Source IP 127.0.0.1 is not permitted to authenticate using this token."));
        // headers from an untrusted peer are ignored
        remote.api()
                .header("X-Real-IP", "10.1.2.3")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Source IP 127.0.0.1 is not permitted to authenticate using this token."));
        local.api()
                .header("X-Forwarded-For", "192.0.2.1")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(200);

        settings.trustedProxies(List.of("127.0.0.1"));
        remote.api()
                .header("X-Real-IP", "10.1.2.3")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(200);
        remote.api()
                .header("X-Forwarded-For", "10.9.9.9, 127.0.0.1")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(200);
        remote.api()
                .header("X-Real-IP", "192.0.2.1")
                .header("X-Forwarded-For", "10.9.9.9")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Source IP 192.0.2.1 is not permitted to authenticate using this token."));
        local.api()
                .header("X-Forwarded-For", "192.0.2.1")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(403);
        local.api()
                .header("X-Real-IP", "2001:db8::7")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(200);
        remote.api()
                .header("X-Real-IP", "not-an-address")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body(
                        "detail",
                        equalTo("Client IP address could not be determined for validation. Check that the HTTP"
                                + " server is correctly configured to pass the required header(s)."));
        // a token without allowed_ips works from anywhere
        siteAdmin(Map.of())
                .api()
                .header("X-Real-IP", "198.51.100.1")
                .get("/api/dcim/sites/")
                .then()
                .statusCode(200);
    }

    @Test
    void lastUsedIsWrittenAtMostEverySixtySecondsAndNotInMaintenance() throws Exception {
        Account a = siteAdmin(Map.of());
        assertNull(lastUsed(a.token()), "never used yet");
        a.api().get("/api/dcim/sites/").then().statusCode(200);
        OffsetDateTime first = lastUsed(a.token());
        assertNotNull(first);
        a.api().get("/api/dcim/sites/").then().statusCode(200);
        assertEquals(first, lastUsed(a.token()), "used again within 60 s: unchanged");

        setLastUsed(a.token(), "now() - interval '30 seconds'");
        OffsetDateTime thirty = lastUsed(a.token());
        a.api().get("/api/dcim/sites/").then().statusCode(200);
        assertEquals(thirty, lastUsed(a.token()), "30 s old: unchanged");

        setLastUsed(a.token(), "now() - interval '61 seconds'");
        OffsetDateTime old = lastUsed(a.token());
        settings.maintenanceMode(true);
        a.api().get("/api/dcim/sites/").then().statusCode(200);
        assertEquals(old, lastUsed(a.token()), "maintenance mode: unchanged");
        settings.maintenanceMode(false);

        a.api().get("/api/dcim/sites/").then().statusCode(200);
        OffsetDateTime refreshed = lastUsed(a.token());
        assertNotEquals(old, refreshed);
        assertTrue(refreshed.isAfter(old.plusSeconds(60)), "61 s old: set to now");
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

    private void setLastUsed(String key, String sqlTime) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "update users_token set last_used = " + sqlTime + " where hmac_digest = ?")) {
            ps.setString(1, TokenRows.digest(key));
            assertEquals(1, ps.executeUpdate());
        }
    }
}
