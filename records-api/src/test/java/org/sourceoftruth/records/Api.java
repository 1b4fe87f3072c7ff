package org.sourceoftruth.records;

import static io.restassured.RestAssured.given;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import java.util.UUID;

/** Test helpers: requests with the bootstrap superuser's token (see %test properties). */
public final class Api {
    public static final String TOKEN = "0123456789abcdef0123456789abcdef01234567";

    private Api() {}

    public static RequestSpecification auth() {
        return given().header("Authorization", "Token " + TOKEN)
                .contentType(ContentType.JSON)
                .config(RestAssured.config()
                        .redirect(RestAssured.config().getRedirectConfig().followRedirects(false)));
    }

    public static ValidatableResponse post(String path, Object body) {
        return auth().body(body).post(path).then().log().ifValidationFails();
    }

    /** Creates an object and returns its id (fails the test on anything but 201). */
    public static int create(String path, Object body) {
        return post(path, body).statusCode(201).extract().path("id");
    }

    /** A short unique suffix so tests never collide on unique names. */
    public static String uniq() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates a site (and nothing else) with a unique name; returns its id. */
    public static int site(String prefix) {
        String n = prefix + "-" + uniq();
        return create("/api/dcim/sites/", Map.of("name", n, "slug", n));
    }

    /** Creates manufacturer + device type + device role; returns {typeId, roleId}. */
    public static int[] deviceTypeAndRole() {
        String u = uniq();
        int mfr = create("/api/dcim/manufacturers/", Map.of("name", "mfr-" + u, "slug", "mfr-" + u));
        int type = create("/api/dcim/device-types/", Map.of("manufacturer", mfr, "model", "m-" + u, "slug", "m-" + u));
        int role = create("/api/dcim/device-roles/", Map.of("name", "role-" + u, "slug", "role-" + u));
        return new int[] {type, role};
    }

    public static int device(int site, int[] typeAndRole, String name) {
        return create(
                "/api/dcim/devices/",
                Map.of("name", name, "site", site, "device_type", typeAndRole[0], "role", typeAndRole[1]));
    }
}
