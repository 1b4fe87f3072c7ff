package org.sourceoftruth.records;

import static io.restassured.RestAssured.given;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Test helpers for users other than the bootstrap superuser: accounts, tokens and permissions. */
public final class Accounts {
    /** Satisfies NetBox's password rules (12+ characters, digit, upper and lower case). */
    public static final String PASSWORD = "Correct-Horse-42";

    private Accounts() {}

    /** A user with a password and one token created for it by the superuser. */
    public record Account(int id, String username, String token) {
        /** Requests authenticated with this account's token. */
        public RequestSpecification api() {
            return as(token);
        }
    }

    public static Account account(String prefix) {
        return account(prefix, Map.of());
    }

    /** A new user plus a token with the given extra attributes (expires, write_enabled, allowed_ips, ...). */
    public static Account account(String prefix, Map<String, Object> tokenAttributes) {
        String username = prefix + "-" + Api.uniq();
        int id = Api.create("/api/users/users/", Map.of("username", username, "password", PASSWORD));
        return new Account(id, username, token(id, tokenAttributes));
    }

    /**
     * Creates a v1 token (unless the attributes name a version) for {@code userId} as the
     * superuser; returns its key (shown once, at creation), sent as {@code Token <key>}.
     */
    public static String token(int userId, Map<String, Object> attributes) {
        Map<String, Object> body = new HashMap<>(attributes);
        body.putIfAbsent("version", 1);
        body.put("user", userId);
        return Api.post("/api/users/tokens/", body).statusCode(201).extract().path("key");
    }

    /** An object permission for the given users; {@code constraints} may be null. Returns its id. */
    public static int permission(
            List<String> objectTypes, List<String> actions, Object constraints, List<Integer> users) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "perm-" + Api.uniq());
        body.put("object_types", objectTypes);
        body.put("actions", actions);
        body.put("constraints", constraints);
        body.put("users", users);
        return Api.create("/api/users/permissions/", body);
    }

    public static RequestSpecification as(String token) {
        return given().header("Authorization", "Token " + token)
                .contentType(ContentType.JSON)
                .config(RestAssured.config()
                        .redirect(RestAssured.config().getRedirectConfig().followRedirects(false)));
    }
}
