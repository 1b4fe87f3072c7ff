package org.sourceoftruth.records.ipam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;

/**
 * ENFORCE_GLOBAL_UNIQUE (on in tests) under concurrency: identical writes sent at the same
 * moment over real HTTP leave exactly one row; every other request gets NetBox's 400.
 */
@QuarkusTest
class DuplicateRaceTest {
    private static final int PARALLEL = 20;

    @TestHTTPResource("/")
    URL base;

    @Test
    void parallelIdenticalAddressesLeaveOneRow() throws Exception {
        String address = Ipam.v4Block() + ".7/24";
        List<HttpResponse<String>> answers =
                race("POST", "/api/ipam/ip-addresses/", "{\"address\": \"" + address + "\"}");
        expectOneCreated(answers, "address", "Duplicate IP address found in global table: " + address);
        assertEquals(1, count("/api/ipam/ip-addresses/?address=" + address));
    }

    @Test
    void parallelIdenticalPrefixesLeaveOneRow() throws Exception {
        String prefix = Ipam.v4Block() + ".0/24";
        List<HttpResponse<String>> answers = race("POST", "/api/ipam/prefixes/", "{\"prefix\": \"" + prefix + "\"}");
        expectOneCreated(answers, "prefix", "Duplicate prefix found in global table: " + prefix);
        assertEquals(1, count("/api/ipam/prefixes/?prefix=" + prefix));
    }

    /** The same race in a VRF that enforces uniqueness, through bulk POSTs. */
    @Test
    void parallelBulkCreatesInAnEnforcingVrfLeaveOneRow() throws Exception {
        String u = Api.uniq();
        int vrf = Ipam.vrf("race-" + u, "65300:" + Math.abs(u.hashCode() % 100000), true);
        String address = Ipam.v4Block() + ".9/24";
        List<HttpResponse<String>> answers =
                race("POST", "/api/ipam/ip-addresses/", "[{\"address\": \"" + address + "\", \"vrf\": " + vrf + "}]");
        long created = answers.stream().filter(r -> r.statusCode() == 201).count();
        assertEquals(1, created, summary(answers));
        answers.stream().filter(r -> r.statusCode() != 201).forEach(r -> assertEquals(400, r.statusCode(), r.body()));
        assertEquals(1, count("/api/ipam/ip-addresses/?vrf_id=" + vrf + "&address=" + address));
    }

    /** Twenty PATCHes moving twenty addresses onto the same one: one succeeds. */
    @Test
    void parallelPatchesOntoTheSameAddressLeaveOneRow() throws Exception {
        String block = Ipam.v4Block();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < PARALLEL; i++) {
            ids.add(Ipam.ip(block + "." + (10 + i) + "/24"));
        }
        String target = block + ".200/24";
        List<HttpResponse<String>> answers = race(i ->
                request("PATCH", "/api/ipam/ip-addresses/" + ids.get(i) + "/", "{\"address\": \"" + target + "\"}"));
        expectOneCreated(answers, "address", "Duplicate IP address found in global table: " + target);
        assertEquals(1, count("/api/ipam/ip-addresses/?address=" + target));
    }

    private void expectOneCreated(List<HttpResponse<String>> answers, String field, String message) throws Exception {
        long ok = answers.stream()
                .filter(r -> r.statusCode() == 201 || r.statusCode() == 200)
                .count();
        assertEquals(1, ok, summary(answers));
        for (HttpResponse<String> r : answers) {
            if (r.statusCode() >= 300) {
                assertEquals(400, r.statusCode(), r.body());
                assertEquals(
                        message,
                        Json.MAPPER.readTree(r.body()).path(field).path(0).asText(),
                        r.body());
            }
        }
    }

    private static String summary(List<HttpResponse<String>> answers) {
        return answers.stream()
                .map(r -> r.statusCode() + " " + r.body())
                .toList()
                .toString();
    }

    private static long count(String path) {
        Number n = auth().get(path).then().statusCode(200).extract().path("count");
        return n.longValue();
    }

    private List<HttpResponse<String>> race(String method, String path, String body) throws Exception {
        return race(i -> request(method, path, body));
    }

    /** Sends PARALLEL requests from as many threads, released together. */
    private List<HttpResponse<String>> race(java.util.function.IntFunction<HttpRequest> requests) throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < PARALLEL; i++) {
                HttpRequest req = requests.apply(i);
                futures.add(pool.submit(() -> {
                    start.await();
                    return client.send(req, HttpResponse.BodyHandlers.ofString());
                }));
            }
            start.countDown();
            List<HttpResponse<String>> out = new ArrayList<>();
            for (Future<HttpResponse<String>> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private HttpRequest request(String method, String path, String body) {
        return HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Token " + Api.TOKEN)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body))
                .build();
    }
}
