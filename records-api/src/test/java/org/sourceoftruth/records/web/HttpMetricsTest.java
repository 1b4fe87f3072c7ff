package org.sourceoftruth.records.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ServiceEndpoints;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.Management;

/**
 * http.server.requests on /q/metrics: latency histogram buckets, the route template as uri, and
 * a bounded number of series whatever paths clients make up.
 */
@QuarkusTest
class HttpMetricsTest {
    private static final String SERIES = "http_server_requests_seconds";

    /** Shapes of made-up requests: anonymous and authenticated, with and without slash, any method. */
    private static final List<Function<String, Integer>> UNKNOWN = List.of(
            p -> anonymous().get("/" + p + "/" + p).statusCode(),
            p -> anonymous().get("/api/" + p).statusCode(),
            p -> anonymous().get("/api/" + p + "/").statusCode(),
            p -> anonymous().post("/api/" + p).statusCode(),
            p -> Api.auth().get("/api/" + p + "/" + p + "/").statusCode(),
            p -> Api.auth().get("/api/dcim/" + p + "/").statusCode(),
            p -> Api.auth().delete("/api/" + p + "/" + p + "/" + p + "/x/").statusCode(),
            p -> anonymous().get("/static/" + p + ".js").statusCode(),
            p -> anonymous().get("/q/" + p).statusCode(),
            p -> anonymous().options("/" + p + "/").statusCode(),
            p -> anonymous().options("/api/" + p + "/").statusCode(),
            p -> Api.auth().options("/api/" + p + "/" + p + "/" + p + "/").statusCode(),
            p -> Api.auth().options("/api/users/tokens/provision/" + p + "/").statusCode(),
            p -> Api.auth().options("/media/" + p + ".png").statusCode());

    /** Paths no route serves, below each kind of resource path; each answers 404 to every method. */
    private static final List<String> UNKNOWN_PATHS = List.of(
            "/zzabc/",
            "/login/zzabc/",
            "/api/zzabc/",
            "/api/zz/abc/def/",
            "/api/dcim/zzabc/",
            "/api/dcim/sites/1/zzabc/",
            "/api/dcim/interfaces/1/zzabc/",
            "/api/users/tokens/provision/zzabc/",
            "/api/core/outbox/parked/zzabc/",
            "/api/ipam/asn-ranges/1/available-asns/zzabc/");

    /** Paths routes serve: OPTIONS answers 200 there. */
    private static final List<String> KNOWN_PATHS = List.of(
            "/login/",
            "/api/",
            "/api/dcim/",
            "/api/status/",
            "/api/dcim/sites/",
            "/api/users/tokens/provision/",
            "/api/authentication-check/",
            "/api/core/outbox/parked/");

    @Test
    void unknownPathsAnswer404ToEveryMethod() {
        for (String path : UNKNOWN_PATHS) {
            for (String method : List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")) {
                int status = Api.auth().request(method, path).statusCode();
                assertEquals(404, status, method + " " + path);
            }
        }
        // /media/<name> is a route whatever the name (other methods: 405); a missing file is a 404
        assertEquals(404, Api.auth().get("/media/zzabc.png").statusCode());
        assertEquals(404, Api.auth().options("/media/zzabc.png").statusCode());
        for (String path : KNOWN_PATHS) {
            assertEquals(200, Api.auth().options(path).statusCode(), "OPTIONS " + path);
        }
    }

    @Test
    void unknownPathsDoNotGrowTheNumberOfSeries() {
        Random random = new Random(22);
        for (int i = 0; i < UNKNOWN.size(); i++) {
            UNKNOWN.get(i).apply("warm-" + Api.uniq());
        }
        Set<String> before = httpSeries();
        for (int i = 0; i < 200; i++) {
            UNKNOWN.get(i % UNKNOWN.size()).apply(Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
        }
        Set<String> after = httpSeries();
        System.out.printf(
                "http.server.requests series before 200 unknown paths: %d, after: %d%n", before.size(), after.size());
        assertEquals(before, after, "series appeared for made-up paths");
    }

    @Test
    void routeTemplatesAreTheUriAndLatencyHasBuckets() {
        Api.auth().get("/api/dcim/sites/").then().statusCode(200);
        String metrics = metrics();
        assertTrue(metrics.contains("uri=\"/api/{app}/{model}\""), "route template as uri");
        assertTrue(
                metrics.lines()
                        .anyMatch(l -> l.startsWith(SERIES + "_bucket{")
                                && l.contains("uri=\"/api/{app}/{model}\"")
                                && l.contains("le=\"0.1\"")),
                "histogram buckets");
    }

    private static RequestSpecification anonymous() {
        return given().config(RestAssured.config()
                .redirect(RestAssured.config().getRedirectConfig().followRedirects(false)));
    }

    private static String metrics() {
        return Management.given()
                .get(ServiceEndpoints.METRICS_PATH)
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    /** Series of http.server.requests: their label sets, without the histogram's le. */
    private static Set<String> httpSeries() {
        Set<String> series = new TreeSet<>();
        metrics()
                .lines()
                .filter(l -> l.startsWith(SERIES + "_count{"))
                .forEach(l -> series.add(l.substring(0, l.lastIndexOf('}') + 1)));
        return series;
    }
}
