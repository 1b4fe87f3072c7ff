package org.sourceoftruth.records.ipam;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** ASNs, ASN ranges with their available-asns action, route targets on VRFs, and ASNs on sites and providers. */
@QuarkusTest
class AsnTest {

    /** A private 4-byte block of 1000 numbers no other test uses. */
    private static long block() {
        return 4_200_000_000L + ThreadLocalRandom.current().nextLong(0, 90_000) * 1000;
    }

    private static int rir(String u) {
        return create("/api/ipam/rirs/", Map.of("name", "RIR " + u, "slug", "rir-" + u, "is_private", true));
    }

    @Test
    void asnsAreUniqueInRangeAndShownOnSitesAndProviders() {
        String u = uniq();
        long base = block();
        int rir = rir(u);
        int asn = create("/api/ipam/asns/", Map.of("asn", base, "rir", rir));
        int small = create(
                "/api/ipam/asns/",
                Map.of("asn", 64512 + ThreadLocalRandom.current().nextInt(1000)));
        auth().get("/api/ipam/asns/" + asn + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("AS" + base + " (" + base / 65536 + "." + base % 65536 + ")"))
                .body("rir.id", equalTo(rir))
                .body("site_count", equalTo(0));
        post("/api/ipam/asns/", Map.of("asn", base))
                .statusCode(400)
                .body("asn", hasItem("ASN with this asn already exists."));
        post("/api/ipam/asns/", Map.of("asn", 0)).statusCode(400);
        post("/api/ipam/asns/", Map.of("asn", 4_294_967_296L)).statusCode(400);

        int site = Api.site("asn");
        int plain = Api.site("asn");
        auth().contentType("application/json")
                .body(Map.of("asns", List.of(asn, small)))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
        int provider =
                create("/api/circuits/providers/", Map.of("name", "P " + u, "slug", "p-" + u, "asns", List.of(asn)));
        auth().get("/api/dcim/sites/" + site + "/").then().body("asns.asn", hasItem(base));
        auth().get("/api/circuits/providers/" + provider + "/").then().body("asns.id", contains(asn));
        auth().get("/api/ipam/asns/" + asn + "/")
                .then()
                .body("site_count", equalTo(1))
                .body("provider_count", equalTo(1));
        auth().get("/api/dcim/sites/?asn=" + base + "&id=" + site + "&id=" + plain)
                .then()
                .body("results.id", contains(site));
        auth().get("/api/dcim/sites/?asn_id__n=" + asn + "&id=" + site + "&id=" + plain)
                .then()
                .body("results.id", contains(plain));
        auth().get("/api/circuits/providers/?asn_id=" + asn).then().body("results.id", contains(provider));
        auth().get("/api/ipam/asns/?site_id=" + site + "&ordering=asn").then().body("count", equalTo(2));
        auth().get("/api/ipam/asns/?provider=p-" + u).then().body("results.id", contains(asn));
        auth().get("/api/ipam/asns/?rir_id=" + rir).then().body("results.id", contains(asn));
        // an ASN in use by a site is simply unlinked when deleted
        auth().delete("/api/ipam/asns/" + small + "/").then().statusCode(204);
        auth().get("/api/dcim/sites/" + site + "/").then().body("asns.id", contains(asn));
    }

    @Test
    void rangesCountTheirAsnsAndRefuseReversedBounds() {
        String u = uniq();
        long base = block();
        int rir = rir(u);
        post(
                        "/api/ipam/asn-ranges/",
                        Map.of("name", "r " + u, "slug", "r-" + u, "rir", rir, "start", base + 10, "end", base + 1))
                .statusCode(400)
                .body(
                        "__all__",
                        hasItem("Starting ASN (" + (base + 10) + ") must be lower than ending ASN (" + (base + 1)
                                + ")."));
        int range = create(
                "/api/ipam/asn-ranges/",
                Map.of("name", "r " + u, "slug", "r-" + u, "rir", rir, "start", base + 1, "end", base + 5));
        create("/api/ipam/asns/", Map.of("asn", base + 2));
        create("/api/ipam/asns/", Map.of("asn", base + 9));
        auth().get("/api/ipam/asn-ranges/" + range + "/")
                .then()
                .body("asn_count", equalTo(1))
                .body("display", equalTo("r " + u));
        auth().get("/api/ipam/asn-ranges/" + range + "/available-asns/")
                .then()
                .statusCode(200)
                .body("asn", contains(base + 1, base + 3, base + 4, base + 5))
                .body("[0].rir.id", equalTo(rir));
        auth().get("/api/ipam/asn-ranges/" + range + "/available-asns/?limit=2")
                .then()
                .body("asn", contains(base + 1, base + 3));
        auth().get("/api/ipam/asn-ranges/999999999/available-asns/").then().statusCode(404);
    }

    @Test
    void concurrentAllocationsHandOutEachAsnOnce() throws Exception {
        String u = uniq();
        long base = block();
        int rir = rir(u);
        int range = create(
                "/api/ipam/asn-ranges/",
                Map.of("name", "c " + u, "slug", "c-" + u, "rir", rir, "start", base + 1, "end", base + 10));
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<Future<Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                String description = "n" + i;
                Callable<Response> call = () -> auth().contentType("application/json")
                        .body(Map.of("description", description))
                        .post("/api/ipam/asn-ranges/" + range + "/available-asns/");
                answers.add(pool.submit(call));
            }
            Set<Long> allocated = new TreeSet<>();
            int conflicts = 0;
            for (Future<Response> f : answers) {
                Response r = f.get();
                if (r.statusCode() == 201) {
                    allocated.add(r.jsonPath().getLong("asn"));
                    assertEquals(rir, r.jsonPath().getInt("rir.id"));
                } else {
                    assertEquals(409, r.statusCode(), r.asString());
                    assertEquals(
                            "Insufficient resources are available to satisfy the request",
                            r.jsonPath().getString("detail"));
                    conflicts++;
                }
            }
            Set<Long> expected = new TreeSet<>();
            for (long n = base + 1; n <= base + 10; n++) {
                expected.add(n);
            }
            assertEquals(expected, allocated);
            assertEquals(10, conflicts);
        } finally {
            pool.shutdownNow();
        }
        auth().get("/api/ipam/asn-ranges/" + range + "/").then().body("asn_count", equalTo(10));
        auth().get("/api/ipam/asn-ranges/" + range + "/available-asns/").then().body("size()", equalTo(0));
        // a list asks for several at once, all or nothing
        int wide = create(
                "/api/ipam/asn-ranges/",
                Map.of("name", "w " + u, "slug", "w-" + u, "rir", rir, "start", base + 11, "end", base + 13));
        auth().contentType("application/json")
                .body(List.of(Map.of(), Map.of(), Map.of(), Map.of()))
                .post("/api/ipam/asn-ranges/" + wide + "/available-asns/")
                .then()
                .statusCode(409);
        auth().contentType("application/json")
                .body(List.of(Map.of(), Map.of()))
                .post("/api/ipam/asn-ranges/" + wide + "/available-asns/")
                .then()
                .statusCode(201)
                .body("asn", contains(base + 11, base + 12));
    }

    @Test
    void vrfsImportAndExportRouteTargets() {
        String u = uniq();
        int red = create("/api/ipam/route-targets/", Map.of("name", "65000:" + u.hashCode() % 10000));
        int blue = create("/api/ipam/route-targets/", Map.of("name", "65001:" + u.hashCode() % 10000));
        post("/api/ipam/route-targets/", Map.of("name", "65000:" + u.hashCode() % 10000))
                .statusCode(400);
        post("/api/ipam/route-targets/", Map.of("name", "x".repeat(22))).statusCode(400);
        String rd = "64999:" + Math.abs(u.hashCode() % 100000);
        int vrf = create(
                "/api/ipam/vrfs/",
                Map.of(
                        "name",
                        "v " + u,
                        "rd",
                        rd,
                        "import_targets",
                        List.of(red, blue),
                        "export_targets",
                        List.of(blue)));
        int other = create("/api/ipam/vrfs/", Map.of("name", "o " + u));
        auth().get("/api/ipam/vrfs/" + vrf + "/")
                .then()
                .statusCode(200)
                .body("import_targets.id", contains(red, blue))
                .body("export_targets.id", contains(blue));
        String both = "&id=" + vrf + "&id=" + other;
        auth().get("/api/ipam/vrfs/?import_target_id=" + red + both).then().body("results.id", contains(vrf));
        auth().get("/api/ipam/vrfs/?export_target_id__n=" + blue + both).then().body("results.id", contains(other));
        auth().get("/api/ipam/route-targets/?importing_vrf_id=" + vrf).then().body("count", equalTo(2));
        auth().get("/api/ipam/route-targets/?exporting_vrf=" + rd).then().body("results.id", contains(blue));
        // a route target in use is unlinked from the VRFs when deleted
        auth().delete("/api/ipam/route-targets/" + red + "/").then().statusCode(204);
        auth().get("/api/ipam/vrfs/" + vrf + "/").then().body("import_targets.id", contains(blue));
    }

    /**
     * {@code start} on asn-ranges is the range's start (NetBox 4.4's filter), with its lookups,
     * not NetBox 4.6's cursor: the list pages by offset and counts. On other lists {@code start}
     * stays the cursor (EngineListTest).
     */
    @Test
    void startFiltersAsnRangesByTheirStartNotByCursor() {
        String u = uniq();
        long base = block();
        int rir = rir(u);
        int low = create(
                "/api/ipam/asn-ranges/",
                Map.of("name", "low " + u, "slug", "low-" + u, "rir", rir, "start", base + 1, "end", base + 100));
        int high = create(
                "/api/ipam/asn-ranges/",
                Map.of("name", "high " + u, "slug", "high-" + u, "rir", rir, "start", base + 500, "end", base + 600));
        auth().get("/api/ipam/asn-ranges/?start=" + (base + 1))
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results.id", contains(low));
        auth().get("/api/ipam/asn-ranges/?start=" + (base + 500) + "&start=" + (base + 1) + "&rir_id=" + rir)
                .then()
                .statusCode(200)
                .body("count", equalTo(2))
                .body("results.id", containsInAnyOrder(high, low));
        // a start no range has matches nothing, even one below every id (a cursor would match all)
        auth().get("/api/ipam/asn-ranges/?start=1&rir_id=" + rir)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        auth().get("/api/ipam/asn-ranges/?start__gte=" + (base + 2) + "&rir_id=" + rir)
                .then()
                .body("results.id", contains(high));
        // with offset and ordering, as any filter (the cursor refuses both)
        auth().get("/api/ipam/asn-ranges/?start=" + (base + 1) + "&offset=0&ordering=-name")
                .then()
                .statusCode(200)
                .body("results.id", contains(low));
        auth().get("/api/ipam/asn-ranges/?start=abc")
                .then()
                .statusCode(400)
                .body("start", contains("Enter a whole number."));
        // another list still pages by cursor
        auth().get("/api/ipam/asns/?start=0&limit=1").then().statusCode(200).body("count", nullValue());
    }
}
