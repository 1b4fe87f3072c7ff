package org.sourceoftruth.records.users;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.auth.SignInThrottle;

/**
 * Failed sign-ins are throttled per username and per client address, on every endpoint that
 * checks a password (session sign-in as JSON and as a form, token provisioning): 429 with
 * Retry-After and DRF's message, until the failure window has passed; a success forgets the
 * username's failures.
 */
@QuarkusTest
class SignInThrottleTest {
    private static final String WRONG = "Wrong-Password-1";

    @Inject
    SignInThrottle throttle;

    @Inject
    AuthSettings settings;

    @AfterEach
    void restore() {
        throttle.reset();
        settings.reset();
    }

    /** Requests as from {@code address}: the tests' peer, 127.0.0.1, is made a trusted proxy. */
    private RequestSpecification from(String address) {
        return given().header("X-Forwarded-For", address).contentType("application/json");
    }

    private Response jsonLogin(String address, String username, String password) {
        return from(address)
                .body(Map.of("username", username, "password", password))
                .post("/login/");
    }

    private Response provision(String address, String username, String password) {
        return from(address)
                .body(Map.of("username", username, "password", password))
                .post("/api/users/tokens/provision/");
    }

    private static void assertThrottled(Response r, long windowSeconds) {
        r.then()
                .statusCode(429)
                .body("detail", matchesPattern("Request was throttled\\. Expected available in \\d+ seconds?\\."));
        long retryAfter = Long.parseLong(r.header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= windowSeconds, "Retry-After " + retryAfter);
    }

    @Test
    void aUsernameIsThrottledAfterItsFailuresWhateverTheAddressAndEndpoint() {
        settings.trustedProxies(List.of("127.0.0.1"));
        throttle.limits(new SignInThrottle.Limits(3, 1000, Duration.ofSeconds(60)));
        Account a = Accounts.account("throttled");
        Account b = Accounts.account("unthrottled");
        jsonLogin("10.50.0.1", a.username(), WRONG).then().statusCode(403);
        provision("10.50.0.2", a.username(), WRONG).then().statusCode(403);
        jsonLogin("10.50.0.3", a.username(), WRONG).then().statusCode(403);
        // the fourth attempt is refused unchecked, even with the right password, on each endpoint
        assertThrottled(jsonLogin("10.50.0.4", a.username(), WRONG), 60);
        assertThrottled(jsonLogin("10.50.0.4", a.username(), Accounts.PASSWORD), 60);
        assertThrottled(provision("10.50.0.5", a.username(), Accounts.PASSWORD), 60);
        Response form = given().header("X-Forwarded-For", "10.50.0.6").get("/login/");
        String csrf = form.getCookie("csrftoken");
        Response formLogin = given().header("X-Forwarded-For", "10.50.0.6")
                .redirects()
                .follow(false)
                .cookie("csrftoken", csrf)
                .contentType("application/x-www-form-urlencoded")
                .formParam("username", a.username())
                .formParam("password", Accounts.PASSWORD)
                .formParam("csrfmiddlewaretoken", csrf)
                .post("/login/");
        formLogin.then().statusCode(429).body(containsString("Too many failed sign-ins. Try again in"));
        assertTrue(Long.parseLong(formLogin.header("Retry-After")) >= 1);
        // another username from the same addresses is not held back
        jsonLogin("10.50.0.4", b.username(), Accounts.PASSWORD).then().statusCode(200);
    }

    @Test
    void anAddressIsThrottledAfterItsFailuresWhateverTheUsernames() {
        settings.trustedProxies(List.of("127.0.0.1"));
        throttle.limits(new SignInThrottle.Limits(1000, 4, Duration.ofSeconds(60)));
        Account a = Accounts.account("address");
        for (int i = 0; i < 4; i++) {
            jsonLogin("10.60.0.1", "nobody-" + i + "-" + a.username(), WRONG)
                    .then()
                    .statusCode(403);
        }
        assertThrottled(jsonLogin("10.60.0.1", "nobody-x-" + a.username(), WRONG), 60);
        assertThrottled(provision("10.60.0.1", a.username(), Accounts.PASSWORD), 60);
        // the username and other addresses are not held back
        jsonLogin("10.60.0.2", a.username(), Accounts.PASSWORD).then().statusCode(200);
        provision("10.60.0.2", a.username(), Accounts.PASSWORD).then().statusCode(201);
    }

    @Test
    void aSuccessForgetsTheUsernamesFailures() {
        throttle.limits(new SignInThrottle.Limits(3, 1000, Duration.ofSeconds(60)));
        Account a = Accounts.account("forgiven");
        for (int round = 0; round < 3; round++) {
            jsonLogin("ignored", a.username(), WRONG).then().statusCode(403);
            jsonLogin("ignored", a.username(), WRONG).then().statusCode(403);
            jsonLogin("ignored", a.username(), Accounts.PASSWORD).then().statusCode(200);
        }
    }

    @Test
    void theThrottleEndsWithItsWindow() throws InterruptedException {
        throttle.limits(new SignInThrottle.Limits(2, 1000, Duration.ofSeconds(2)));
        Account a = Accounts.account("window");
        jsonLogin("ignored", a.username(), WRONG).then().statusCode(403);
        jsonLogin("ignored", a.username(), WRONG).then().statusCode(403);
        Response held = jsonLogin("ignored", a.username(), Accounts.PASSWORD);
        assertThrottled(held, 2);
        Thread.sleep(Long.parseLong(held.header("Retry-After")) * 1000 + 200);
        jsonLogin("ignored", a.username(), Accounts.PASSWORD)
                .then()
                .statusCode(200)
                .body("username", equalTo(a.username()));
    }

    @Test
    void parallelAttemptsCannotSlipUnderTheLimit() throws Exception {
        throttle.limits(new SignInThrottle.Limits(3, 1000, Duration.ofSeconds(60)));
        Account a = Accounts.account("parallel");
        List<java.util.concurrent.Future<Integer>> statuses;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(12);
        try {
            statuses = pool.invokeAll(
                    java.util.Collections.nCopies(
                            12, () -> jsonLogin("ignored", a.username(), WRONG).statusCode()),
                    60,
                    java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        int checked = 0;
        for (java.util.concurrent.Future<Integer> s : statuses) {
            int status = s.get();
            assertTrue(status == 403 || status == 429, "status " + status);
            checked += status == 403 ? 1 : 0;
        }
        assertEquals(3, checked, "exactly the limit's number of attempts had their password checked");
    }
}
