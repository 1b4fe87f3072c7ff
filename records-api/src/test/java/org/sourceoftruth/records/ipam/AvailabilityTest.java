package org.sourceoftruth.records.ipam;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** available-ips and available-prefixes: listing free space and allocating it, also under concurrency. */
@QuarkusTest
class AvailabilityTest {

    private static List<String> free(String path) {
        return auth().get(path).then().statusCode(200).extract().path("address");
    }

    @Test
    void listsFreeAddressesSkippingUsedNetworkAndBroadcast() {
        String b = Ipam.v4Block();
        int prefix = Ipam.prefix(b + ".0/24", null);
        Ipam.ip(b + ".1/24");
        Ipam.ip(b + ".3/32");
        String path = "/api/ipam/prefixes/" + prefix + "/available-ips/";
        auth().get(path + "?limit=3")
                .then()
                .statusCode(200)
                .body("address", contains(b + ".2/24", b + ".4/24", b + ".5/24"))
                .body("family", contains(4, 4, 4))
                .body("vrf", contains(null, null, null));
        assertThat(free(path), hasSize(50));
        assertThat(free(path + "?limit=0"), hasSize(252));
        // a pool may use its network and broadcast addresses; so may a /31
        auth().body(Map.of("is_pool", true))
                .patch("/api/ipam/prefixes/" + prefix + "/")
                .then()
                .statusCode(200);
        assertThat(free(path + "?limit=1"), contains(b + ".0/24"));
        List<String> all = free(path + "?limit=1000");
        assertThat(all, hasSize(254));
        assertEquals(b + ".255/24", all.get(all.size() - 1));
        // a populated range is not free
        create(
                "/api/ipam/ip-ranges/",
                Map.of("start_address", b + ".0/24", "end_address", b + ".9/24", "mark_populated", true));
        assertThat(free(path + "?limit=1"), contains(b + ".10/24"));
        // IPv6: the subnet-router anycast address (the first one) is skipped
        String v6 = Ipam.v6Block();
        int p6 = Ipam.prefix(v6 + "::/64", null);
        Ipam.ip(v6 + "::2/64");
        assertThat(
                free("/api/ipam/prefixes/" + p6 + "/available-ips/?limit=3"),
                contains(v6 + "::1/64", v6 + "::3/64", v6 + "::4/64"));
        auth().get("/api/ipam/prefixes/" + p6 + "/available-ips/?limit=1")
                .then()
                .body("[0].family", equalTo(6));
        auth().get("/api/ipam/prefixes/999999999/available-ips/")
                .then()
                .statusCode(404)
                .body("detail", equalTo("No Prefix matches the given query."));
    }

    @Test
    void vrfsAreSeparateExceptForGlobalContainers() {
        String b = Ipam.v4Block();
        String u = uniq();
        int vrf = Ipam.vrf("av-" + u, "65100:" + Math.abs(u.hashCode() % 100000), true);
        int inVrf = Ipam.prefix(b + ".0/29", vrf);
        create("/api/ipam/ip-addresses/", Map.of("address", b + ".1/29", "vrf", vrf));
        Ipam.ip(b + ".2/29");
        auth().get("/api/ipam/prefixes/" + inVrf + "/available-ips/")
                .then()
                .body("address", contains(b + ".2/29", b + ".3/29", b + ".4/29", b + ".5/29", b + ".6/29"))
                .body("[0].vrf.id", equalTo(vrf))
                .body("[0].vrf.name", equalTo("av-" + u));
        int container = create("/api/ipam/prefixes/", Map.of("prefix", b + ".0/28", "status", "container"));
        assertThat(
                free("/api/ipam/prefixes/" + container + "/available-ips/?limit=2"),
                contains(b + ".3/28", b + ".4/28"));
        // allocation in a VRF creates the address in that VRF
        post("/api/ipam/prefixes/" + inVrf + "/available-ips/", Map.of("description", "svc"))
                .statusCode(201)
                .body("address", equalTo(b + ".2/29"))
                .body("vrf.id", equalTo(vrf))
                .body("description", equalTo("svc"));
    }

    @Test
    void allocatesSingleAndListsInOrderWithOptions() {
        String b = Ipam.v4Block();
        int prefix = Ipam.prefix(b + ".0/24", null);
        Ipam.ip(b + ".1/24");
        String path = "/api/ipam/prefixes/" + prefix + "/available-ips/";
        post(path, Map.of("description", "first", "status", "reserved", "dns_name", "A.example"))
                .statusCode(201)
                .body("address", equalTo(b + ".2/24"))
                .body("status.value", equalTo("reserved"))
                .body("dns_name", equalTo("a.example"))
                .body("vrf", nullValue())
                .body("id", org.hamcrest.Matchers.notNullValue());
        post(path, List.of(Map.of("description", "x"), Map.of("prefix_length", 32), Map.of()))
                .statusCode(201)
                .body("address", contains(b + ".3/24", b + ".4/32", b + ".5/24"));
        post(path, List.of(Map.of("prefix_length", 16)))
                .statusCode(400)
                .body(
                        "[0].prefix_length",
                        contains("Prefix length must be greater than or equal to the parent mask" + " length (24)"));
        post(path, List.of(Map.of(), "nonsense"))
                .statusCode(400)
                .body("[1].non_field_errors", contains("Invalid data. Expected a dictionary, but got str."));
        // the engine's validation applies: a bad field fails the whole request, nothing is created
        post(path, List.of(Map.of(), Map.of("status", "bogus")))
                .statusCode(400)
                .body("[1].status", contains("\"bogus\" is not a valid choice."));
        auth().get("/api/ipam/ip-addresses/?parent=" + b + ".0/24").then().body("count", equalTo(5));
        // IP ranges hand out their own addresses
        int range =
                create("/api/ipam/ip-ranges/", Map.of("start_address", b + ".100/24", "end_address", b + ".102/24"));
        Ipam.ip(b + ".100/24");
        assertThat(free("/api/ipam/ip-ranges/" + range + "/available-ips/"), contains(b + ".101/24", b + ".102/24"));
        post("/api/ipam/ip-ranges/" + range + "/available-ips/", List.of(Map.of(), Map.of()))
                .statusCode(201)
                .body("address", contains(b + ".101/24", b + ".102/24"));
        post("/api/ipam/ip-ranges/" + range + "/available-ips/", Map.of())
                .statusCode(409)
                .body("detail", equalTo("Insufficient resources are available to satisfy the request"));
        auth().get("/api/ipam/ip-ranges/" + range + "/available-prefixes/")
                .then()
                .statusCode(404);
    }

    @Test
    void twentyConcurrentRequestsGetTwentyDifferentAddressesThenConflict() throws Exception {
        String b = Ipam.v4Block();
        int prefix = Ipam.prefix(b + ".0/27", null); // 30 usable hosts: .1-.30
        for (int i = 1; i <= 10; i++) {
            Ipam.ip(b + "." + i + "/27");
        }
        String path = "/api/ipam/prefixes/" + prefix + "/available-ips/";
        int threads = 20;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> futures = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int n = i;
            futures.add(pool.submit(() -> {
                start.await();
                return auth().body(Map.of("description", "t" + n)).post(path);
            }));
        }
        start.countDown();
        Set<String> handedOut = new HashSet<>();
        try {
            for (Future<Response> f : futures) {
                Response r = f.get(120, TimeUnit.SECONDS);
                assertEquals(201, r.statusCode(), r.asString());
                handedOut.add(r.path("address"));
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> expected = new HashSet<>();
        for (int i = 11; i <= 30; i++) {
            expected.add(b + "." + i + "/27");
        }
        assertEquals(expected, handedOut);
        auth().get("/api/ipam/ip-addresses/?parent=" + b + ".0/27").then().body("count", equalTo(30));
        post(path, Map.of())
                .statusCode(409)
                .body("detail", equalTo("Insufficient resources are available to satisfy the request"));
        assertThat(free(path), hasSize(0));
    }

    @Test
    void availablePrefixesAreListedAndAllocatedAtomically() {
        String b = Ipam.v4Block();
        int parent = Ipam.prefix(b + ".0/24", null);
        Ipam.prefix(b + ".0/26", null);
        String path = "/api/ipam/prefixes/" + parent + "/available-prefixes/";
        auth().get(path)
                .then()
                .statusCode(200)
                .body("prefix", contains(b + ".64/26", b + ".128/25"))
                .body("family", contains(4, 4))
                .body("[0].vrf", nullValue());
        post(path, Map.of("prefix_length", 27, "description", "carved", "status", "reserved"))
                .statusCode(201)
                .body("prefix", equalTo(b + ".64/27"))
                .body("description", equalTo("carved"))
                .body("status.value", equalTo("reserved"));
        auth().get(path).then().body("prefix", contains(b + ".96/27", b + ".128/25"));
        // the second request cannot be met: the whole list fails and nothing is created
        post(path, List.of(Map.of("prefix_length", 25), Map.of("prefix_length", 26)))
                .statusCode(409)
                .body("detail", equalTo("Insufficient resources are available to satisfy the request"));
        auth().get(path).then().body("prefix", contains(b + ".96/27", b + ".128/25"));
        post(path, List.of(Map.of("prefix_length", 26), Map.of("prefix_length", 28)))
                .statusCode(201)
                .body("prefix", contains(b + ".128/26", b + ".96/28"));
        post(path, Map.of()).statusCode(400).body("[0].prefix_length", contains("this field can not be missing"));
        post(path, Map.of("prefix_length", "x"))
                .statusCode(400)
                .body("[0].prefix_length", contains("this field must be int type"));
        post(path, Map.of("prefix_length", 33))
                .statusCode(400)
                .body("[0].prefix_length", contains("Invalid prefix length (33) for IPv4"));
        // IPv6
        String v6 = Ipam.v6Block();
        int p6 = Ipam.prefix(v6 + "::/48", null);
        Ipam.prefix(v6 + "::/64", null);
        auth().get("/api/ipam/prefixes/" + p6 + "/available-prefixes/")
                .then()
                .body("prefix[0]", equalTo(v6 + ":1::/64"))
                .body("prefix[1]", equalTo(v6 + ":2::/63"))
                .body("[0].family", equalTo(6));
        post("/api/ipam/prefixes/" + p6 + "/available-prefixes/", Map.of("prefix_length", 56))
                .statusCode(201)
                .body("prefix", equalTo(v6 + ":100::/56"));
    }
}
