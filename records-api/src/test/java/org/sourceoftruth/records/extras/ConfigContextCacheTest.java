package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.Snapshots;

/**
 * Config contexts are held in memory and matched in Java: a device page costs a fixed number of
 * statements for config_context whatever its size (none at all while no context is active), and
 * every change to a context, its assignments, its tags or the trees it matches through shows in
 * the next response — also a change made behind the API's back (another replica, psql), which
 * reaches this replica through LISTEN/NOTIFY.
 */
@QuarkusTest
class ConfigContextCacheTest {

    @Inject
    ConfigContextCache cache;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void devicePageCostsTheSameFewStatementsForAnySizeWithOrWithoutContexts() throws Exception {
        List<Integer> othersActive = deactivateAllContexts();
        try {
            String u = Api.uniq();
            int region = create("/api/dcim/regions/", Map.of("name", "ccq-r-" + u, "slug", "ccq-r-" + u));
            int site = create("/api/dcim/sites/", Map.of("name", "ccq-s-" + u, "slug", "ccq-s-" + u, "region", region));
            int tag = create("/api/extras/tags/", Map.of("name", "ccq-t-" + u, "slug", "ccq-t-" + u));
            int[] tr = Api.deviceTypeAndRole();
            List<Map<String, Object>> devices = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                devices.add(Map.of(
                        "name",
                        "ccq-d-" + u + "-" + i,
                        "site",
                        site,
                        "device_type",
                        tr[0],
                        "role",
                        tr[1],
                        "tags",
                        List.of(tag)));
            }
            Api.post("/api/dcim/devices/", devices).statusCode(201);
            String page = "/api/dcim/devices/?site_id=" + site + "&limit=";

            int without = statements(page + 40 + "&exclude=config_context", 40);
            assertEquals(without, statements(page + 40, 40), "no active context: config_context costs no statement");
            assertEquals(without, statements(page + 4, 4), "no active context, small page");

            // a context through the region tree, one assigned by tag, one for everything: both paths
            Map<String, Object> byRegion = new HashMap<>(
                    Map.of("name", "ccq-1-" + u, "weight", 10, "data", Map.of("a", 1), "regions", List.of(region)));
            create("/api/extras/config-contexts/", byRegion);
            create(
                    "/api/extras/config-contexts/",
                    Map.of("name", "ccq-2-" + u, "weight", 20, "data", Map.of("b", 2), "tags", List.of("ccq-t-" + u)));
            create(
                    "/api/extras/config-contexts/",
                    Map.of("name", "ccq-3-" + u, "weight", 30, "data", Map.of("c", 3), "sites", List.of(site)));
            int withForty = statements(page + 40, 40);
            int withFour = statements(page + 4, 4);
            assertEquals(withFour, withForty, "statements for 4 vs 40 devices with contexts");
            // what matching needs of the page, tags included, is one statement
            assertEquals(1, withForty - without, "statements config_context costs with a context by tag");
            auth().get(page + 40)
                    .then()
                    .body(
                            "results.config_context",
                            org.hamcrest.Matchers.everyItem(
                                    org.hamcrest.Matchers.equalTo(Map.of("a", 1, "b", 2, "c", 3))));

            // the contexts are read once, not per request
            long reads = cache.reads();
            for (int i = 0; i < 5; i++) {
                auth().get(page + 40).then().statusCode(200);
            }
            assertEquals(reads, cache.reads(), "no write happened: the contexts must not be read again");
        } finally {
            reactivate(othersActive);
        }
    }

    @Test
    void everyKindOfChangeShowsInTheNextResponse() {
        String u = Api.uniq();
        int parent = create("/api/dcim/regions/", Map.of("name", "cci-p-" + u, "slug", "cci-p-" + u));
        int region = create("/api/dcim/regions/", Map.of("name", "cci-r-" + u, "slug", "cci-r-" + u));
        int site = create("/api/dcim/sites/", Map.of("name", "cci-s-" + u, "slug", "cci-s-" + u, "region", region));
        int otherSite = Api.site("cci-o");
        int tag = create("/api/extras/tags/", Map.of("name", "cci-t-" + u, "slug", "cci-t-" + u));
        int device = Api.device(site, Api.deviceTypeAndRole(), "cci-d-" + u);
        String url = "/api/dcim/devices/" + device + "/";
        assertEquals(Map.of(), contextOf(url));

        // create
        int id = create(
                "/api/extras/config-contexts/",
                Map.of("name", "cci-" + u, "data", Map.of("k", 1), "sites", List.of(site)));
        String ctx = "/api/extras/config-contexts/" + id + "/";
        assertEquals(Map.of("k", 1), contextOf(url));
        // data changed
        patch(ctx, Map.of("data", Map.of("k", 2)));
        assertEquals(Map.of("k", 2), contextOf(url));
        // assignment moved to another site, and back
        patch(ctx, Map.of("sites", List.of(otherSite)));
        assertEquals(Map.of(), contextOf(url));
        patch(ctx, Map.of("sites", List.of(site)));
        assertEquals(Map.of("k", 2), contextOf(url));
        // deactivated and activated
        patch(ctx, Map.of("is_active", false));
        assertEquals(Map.of(), contextOf(url));
        patch(ctx, Map.of("is_active", true));
        // assigned by a tag the device does not carry, then tagging the device
        patch(ctx, Map.of("tags", List.of("cci-t-" + u)));
        assertEquals(Map.of(), contextOf(url));
        patch(url, Map.of("tags", List.of(tag)));
        assertEquals(Map.of("k", 2), contextOf(url));
        // assigned to a region the device's region is not under, then moving its region there
        patch(ctx, Map.of("tags", List.of(), "sites", List.of(), "regions", List.of(parent)));
        assertEquals(Map.of(), contextOf(url));
        patch("/api/dcim/regions/" + region + "/", Map.of("parent", parent));
        assertEquals(Map.of("k", 2), contextOf(url));
        // deleting the assigned region leaves the context unassigned: it then matches everything
        auth().delete("/api/dcim/regions/" + parent + "/").then().statusCode(204);
        auth().get(ctx).then().body("regions", hasSize(0));
        assertEquals(
                Map.of("k", 2),
                contextOf("/api/dcim/devices/" + Api.device(otherSite, Api.deviceTypeAndRole(), "cci-d2-" + u) + "/"));
        // deleted
        auth().delete(ctx).then().statusCode(204);
        assertEquals(Map.of(), contextOf(url));
    }

    @Test
    void aChangeMadeOutsideThisReplicaArrivesThroughNotify() throws Exception {
        String u = Api.uniq();
        int site = Api.site("ccn");
        int device = Api.device(site, Api.deviceTypeAndRole(), "ccn-d-" + u);
        String url = "/api/dcim/devices/?id=" + device;
        int id = create(
                "/api/extras/config-contexts/",
                Map.of("name", "ccn-" + u, "data", Map.of("v", "api"), "sites", List.of(site)));
        try {
            assertEquals(Map.of("v", "api"), listedContextOf(url));
            // as another replica (or psql) would: committed straight to the database, no local hook
            try (Connection c = dataSource.getConnection();
                    PreparedStatement ps = c.prepareStatement(
                            "update extras_configcontext set data = '{\"v\": \"sql\"}' where id = ?")) {
                ps.setLong(1, id);
                ps.executeUpdate();
            }
            long deadline = System.currentTimeMillis() + 5_000;
            while (!Map.of("v", "sql").equals(listedContextOf(url)) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(Map.of("v", "sql"), listedContextOf(url), "the NOTIFY of the commit should drop the copy");
        } finally {
            auth().delete("/api/extras/config-contexts/" + id + "/").then().statusCode(204);
        }
    }

    /**
     * With JIT on (PostgreSQL's default) no query of config_context may cost enough to be
     * compiled: the one per page stays well below the default jit_above_cost (100,000) even for
     * the largest page (1,000 objects).
     */
    @Test
    void thePageQueryStaysBelowTheJitThreshold() throws Exception {
        Object[] ids = new Object[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = String.valueOf(i + 1);
        }
        try (Connection c = dataSource.getConnection()) {
            for (boolean tags : new boolean[] {false, true}) {
                for (String q : List.of(
                        ConfigContexts.factsQuery("dcim_device", true, tags),
                        ConfigContexts.factsQuery("virtualization_virtualmachine", false, tags))) {
                    assertCostBelowTheJitThreshold(c, q, tags, ids);
                }
            }
        }
    }

    private static void assertCostBelowTheJitThreshold(Connection c, String q, boolean tags, Object[] ids)
            throws Exception {
        try (PreparedStatement ps = c.prepareStatement("explain (format json) " + q)) {
            int parameter = 1;
            if (tags) {
                ps.setString(parameter++, "dcim.device");
            }
            ps.setArray(parameter, c.createArrayOf("text", ids));
            try (ResultSet r = ps.executeQuery()) {
                r.next();
                double cost = Json.MAPPER
                        .readTree(r.getString(1))
                        .get(0)
                        .get("Plan")
                        .get("Total Cost")
                        .asDouble();
                assertTrue(cost < 50_000, "cost " + cost + " of " + q);
            }
        }
    }

    private static Object contextOf(String url) {
        return auth().get(url).then().statusCode(200).extract().path("config_context");
    }

    private static Object listedContextOf(String url) {
        return auth().get(url).then().statusCode(200).extract().path("results[0].config_context");
    }

    private static void patch(String url, Map<String, Object> body) {
        auth().body(body).patch(url).then().log().ifValidationFails().statusCode(200);
    }

    /** Contexts of other tests would make "no context" impossible; they are switched off meanwhile. */
    private static List<Integer> deactivateAllContexts() {
        List<Integer> ids = auth().get("/api/extras/config-contexts/?is_active=true&limit=1000")
                .then()
                .statusCode(200)
                .extract()
                .path("results.id");
        setActive(ids, false);
        return ids;
    }

    private static void reactivate(List<Integer> ids) {
        setActive(ids, true);
    }

    private static void setActive(List<Integer> ids, boolean active) {
        if (ids.isEmpty()) {
            return;
        }
        List<Map<String, Object>> body = ids.stream()
                .map(id -> Map.<String, Object>of("id", id, "is_active", active))
                .toList();
        auth().body(body)
                .patch("/api/extras/config-contexts/")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(200);
    }

    /** The fewest statements over three identical requests (see QueryCountTest). */
    private static int statements(String url, int expected) {
        int min = Integer.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            Snapshots.moveOn(); // every request looks its nested objects up (none reused)
            var r = auth().get(url)
                    .then()
                    .statusCode(200)
                    .body("results", hasSize(expected))
                    .extract();
            min = Math.min(min, Integer.parseInt(r.header("X-SQL-Statements")));
        }
        return min;
    }
}
