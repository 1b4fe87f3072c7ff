package org.sourceoftruth.records.users;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.Api;

/** Browsable-API login: the session cookie authenticates reads; writes need the CSRF token. */
@QuarkusTest
class SessionLoginTest {

    private record Session(String id, String csrf) {}

    private Account siteEditor() {
        Account a = Accounts.account("web");
        Accounts.permission(List.of("dcim.site"), List.of("view", "add", "change", "delete"), null, List.of(a.id()));
        return a;
    }

    private Session jsonLogin(Account a) {
        return jsonLogin(a, Accounts.PASSWORD);
    }

    private Session jsonLogin(Account a, String password) {
        Response r = given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", password))
                .post("/login/");
        r.then().statusCode(200).body("username", equalTo(a.username())).body("id", equalTo(a.id()));
        assertTrue(
                r.getHeaders().getValues("Set-Cookie").stream()
                        .anyMatch(c ->
                                c.startsWith("sessionid=") && c.contains("HttpOnly") && c.contains("SameSite=Lax")),
                r.getHeaders().toString());
        return new Session(r.getCookie("sessionid"), r.getCookie("csrftoken"));
    }

    @Test
    void formLoginNeedsTheCsrfFieldAndRedirects() {
        Account a = siteEditor();
        Response form = given().get("/login/?next=/api/dcim/sites/");
        form.then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString("csrfmiddlewaretoken"));
        String csrf = form.getCookie("csrftoken");
        assertNotNull(csrf);
        assertTrue(form.asString().contains("value=\"" + csrf + "\""));
        // a forged form (no matching field) is refused
        given().redirects()
                .follow(false)
                .cookie("csrftoken", csrf)
                .contentType("application/x-www-form-urlencoded")
                .formParam("username", a.username())
                .formParam("password", Accounts.PASSWORD)
                .formParam("csrfmiddlewaretoken", "0".repeat(64))
                .post("/login/")
                .then()
                .statusCode(403);
        given().redirects()
                .follow(false)
                .cookie("csrftoken", csrf)
                .contentType("application/x-www-form-urlencoded")
                .formParam("username", a.username())
                .formParam("password", "Wrong-Password-1")
                .formParam("csrfmiddlewaretoken", csrf)
                .post("/login/")
                .then()
                .statusCode(200)
                .body(containsString("Please enter a correct username and password."));
        Response ok = given().redirects()
                .follow(false)
                .cookie("csrftoken", csrf)
                .contentType("application/x-www-form-urlencoded")
                .formParam("username", a.username())
                .formParam("password", Accounts.PASSWORD)
                .formParam("csrfmiddlewaretoken", csrf)
                .formParam("next", "/api/dcim/sites/")
                .post("/login/");
        ok.then().statusCode(303).header("Location", endsWith("/api/dcim/sites/"));
        given().cookie("sessionid", ok.getCookie("sessionid"))
                .get("/api/dcim/sites/")
                .then()
                .statusCode(200);
        // no open redirect
        given().redirects()
                .follow(false)
                .cookie("csrftoken", csrf)
                .contentType("application/x-www-form-urlencoded")
                .formParam("username", a.username())
                .formParam("password", Accounts.PASSWORD)
                .formParam("csrfmiddlewaretoken", csrf)
                .formParam("next", "//evil.example/")
                .post("/login/")
                .then()
                .statusCode(303)
                .header("Location", allOf(endsWith("/api/"), not(containsString("evil"))));
    }

    @Test
    void sessionReadsWorkAndWritesNeedTheCsrfHeader() {
        Account a = siteEditor();
        given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", "Wrong-Password-1"))
                .post("/login/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Invalid username/password"));
        Session s = jsonLogin(a);
        given().cookie("sessionid", s.id()).get("/api/dcim/sites/").then().statusCode(200);
        given().cookie("sessionid", s.id())
                .get("/api/authentication-check/")
                .then()
                .statusCode(200)
                .body("username", equalTo(a.username()))
                .body("last_login", not(equalTo(null)));
        String n = "web-" + uniq();
        Map<String, String> site = Map.of("name", n, "slug", n);
        given().cookie("sessionid", s.id())
                .contentType("application/json")
                .body(site)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("CSRF Failed: CSRF cookie not set."));
        given().cookie("sessionid", s.id())
                .cookie("csrftoken", s.csrf())
                .contentType("application/json")
                .body(site)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("CSRF Failed: CSRF token missing."));
        given().cookie("sessionid", s.id())
                .cookie("csrftoken", s.csrf())
                .header("X-CSRFToken", "f".repeat(64))
                .contentType("application/json")
                .body(site)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("CSRF Failed: CSRF token incorrect."));
        // a matching pair that is not this session's token is refused too
        String forged = "a".repeat(64);
        given().cookie("sessionid", s.id())
                .cookie("csrftoken", forged)
                .header("X-CSRFToken", forged)
                .contentType("application/json")
                .body(site)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("CSRF Failed: CSRF token incorrect."));
        given().cookie("sessionid", s.id())
                .cookie("csrftoken", s.csrf())
                .header("X-CSRFToken", s.csrf())
                .contentType("application/json")
                .body(site)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(201)
                .body("name", equalTo(n));
        // logout (a write: CSRF-checked) ends the session
        given().cookie("sessionid", s.id()).post("/logout/").then().statusCode(403);
        given().cookie("sessionid", s.id())
                .cookie("csrftoken", s.csrf())
                .header("X-CSRFToken", s.csrf())
                .post("/logout/")
                .then()
                .statusCode(204);
        given().cookie("sessionid", s.id())
                .get("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("Authentication credentials were not provided."));
    }

    @Test
    void passwordChangeOrDeactivationEndsSessions() {
        Account a = siteEditor();
        Session first = jsonLogin(a);
        Session second = jsonLogin(a);
        given().cookie("sessionid", first.id()).get("/api/dcim/sites/").then().statusCode(200);
        Api.auth()
                .body(Map.of("password", "Another-Secret-77"))
                .patch("/api/users/users/" + a.id() + "/")
                .then()
                .statusCode(200);
        given().cookie("sessionid", first.id()).get("/api/dcim/sites/").then().statusCode(403);
        given().cookie("sessionid", second.id()).get("/api/dcim/sites/").then().statusCode(403);
        Session third = jsonLogin(a, "Another-Secret-77");
        given().cookie("sessionid", third.id()).get("/api/dcim/sites/").then().statusCode(200);
        Api.auth()
                .body(Map.of("is_active", false))
                .patch("/api/users/users/" + a.id() + "/")
                .then()
                .statusCode(200);
        given().cookie("sessionid", third.id()).get("/api/dcim/sites/").then().statusCode(403);
        given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", "Another-Secret-77"))
                .post("/login/")
                .then()
                .statusCode(403);
    }

    /**
     * CSRF is one check for every unsafe request that a session cookie authenticates, whatever
     * its content type: a form-encoded or plain-text post without the token (what a cross-site
     * form can send) is refused on every endpoint, and changes nothing.
     */
    @Test
    void everySessionWriteNeedsTheCsrfTokenWhateverItsContentType() {
        Account a = Accounts.account("csrf");
        Accounts.permission(List.of("ipam.prefix", "ipam.ipaddress"), List.of("view", "add"), null, List.of(a.id()));
        Session s = jsonLogin(a);
        int block = 100 + (int) (Math.random() * 150);
        String parentPrefix = "172.31." + block + ".0/24";
        int prefix = Api.create("/api/ipam/prefixes/", Map.of("prefix", parentPrefix));
        String ips = "/api/ipam/prefixes/" + prefix + "/available-ips/";
        String prefixes = "/api/ipam/prefixes/" + prefix + "/available-prefixes/";
        // no endpoint reads multipart bodies: refused before anything else
        raw().cookie("sessionid", s.id())
                .cookie("csrftoken", s.csrf())
                .contentType("multipart/form-data; boundary=x")
                .body("{\"prefix_length\": 28}")
                .post(prefixes)
                .then()
                .statusCode(415);
        for (String type : List.of("application/x-www-form-urlencoded", "text/plain")) {
            for (String path : List.of(ips, prefixes)) {
                String body = path.equals(ips) ? "{\"description\": \"forged\"}" : "{\"prefix_length\": 28}";
                raw().cookie("sessionid", s.id())
                        .cookie("csrftoken", s.csrf())
                        .contentType(type)
                        .body(body)
                        .post(path)
                        .then()
                        .statusCode(403)
                        .body("detail", equalTo("CSRF Failed: CSRF token missing."));
                // a form field that is not the token does not stand in for it
                raw().cookie("sessionid", s.id())
                        .cookie("csrftoken", s.csrf())
                        .contentType(type)
                        .body("csrfmiddlewaretoken=" + "0".repeat(64) + "&prefix_length=28")
                        .post(path)
                        .then()
                        .statusCode(403);
            }
            raw().cookie("sessionid", s.id())
                    .cookie("csrftoken", s.csrf())
                    .contentType(type)
                    .body("{\"forged\": 1}")
                    .patch("/api/users/config/")
                    .then()
                    .statusCode(403)
                    .body("detail", equalTo("CSRF Failed: CSRF token missing."));
        }
        Api.auth()
                .get("/api/ipam/ip-addresses/?parent=" + parentPrefix)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        given().cookie("sessionid", s.id())
                .get("/api/users/config/")
                .then()
                .statusCode(200)
                .body("forged", equalTo(null));
        Api.auth()
                .get("/api/ipam/prefixes/?within=" + parentPrefix)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        // with the token in X-CSRFToken the same session writes
        given().cookie("sessionid", s.id())
                .cookie("csrftoken", s.csrf())
                .header("X-CSRFToken", s.csrf())
                .contentType("application/json")
                .body("{\"prefix_length\": 28}")
                .post(prefixes)
                .then()
                .statusCode(201);
        given().cookie("sessionid", s.id())
                .cookie("csrftoken", s.csrf())
                .header("X-CSRFToken", s.csrf())
                .contentType("application/json")
                .body("{\"a\": 1}")
                .patch("/api/users/config/")
                .then()
                .statusCode(200)
                .body("a", equalTo(1));
    }

    /** A request whose string body is sent as given, whatever the content type says. */
    private static io.restassured.specification.RequestSpecification raw() {
        return given().config(io.restassured.RestAssured.config()
                .encoderConfig(io.restassured.config.EncoderConfig.encoderConfig()
                        .encodeContentTypeAs("multipart/form-data", io.restassured.http.ContentType.TEXT)));
    }
}
