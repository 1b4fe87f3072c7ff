package org.sourceoftruth.records.api;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;

/**
 * A list page costs the same number of SQL statements whatever its size: related objects are
 * loaded in one batched query per field, never one per row (no N+1).
 */
@QuarkusTest
class QueryCountTest {

    @Test
    void listingTenAndTwoHundredDevicesIssuesTheSameStatements() {
        String u = Api.uniq();
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "qt-" + u, "slug", "qt-" + u));
        int region = create("/api/dcim/regions/", Map.of("name", "qr-" + u, "slug", "qr-" + u));
        int site = create("/api/dcim/sites/", Map.of("name", "qs-" + u, "slug", "qs-" + u, "region", region,
                "tenant", tenant));
        int rack = create("/api/dcim/racks/", Map.of("name", "qk-" + u, "site", site));
        int platform = create("/api/dcim/platforms/", Map.of("name", "qp-" + u, "slug", "qp-" + u));
        int tag = create("/api/extras/tags/", Map.of("name", "qg-" + u, "slug", "qg-" + u));
        int[] tr = Api.deviceTypeAndRole();
        List<Map<String, Object>> devices = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            devices.add(Map.of("name", "qd-" + u + "-" + i, "site", site, "rack", rack, "tenant", tenant,
                    "platform", platform, "device_type", tr[0], "role", tr[1], "tags", List.of(tag)));
        }
        Api.post("/api/dcim/devices/", devices).statusCode(201).body("$", hasSize(200));

        String list = "/api/dcim/devices/?site_id=" + site + "&limit=";
        int ten = statements(list + 10, 10);
        int twoHundred = statements(list + 200, 200);
        assertEquals(ten, twoHundred, "statements for 10 vs 200 devices");
        assertTrue(ten < 25, "a device page should need few statements, took " + ten);
    }

    /**
     * The fewest statements over three identical requests: a request may also refresh a token's
     * last_used time or the custom-field cache, which costs a statement unrelated to the page.
     */
    private static int statements(String url, int expected) {
        int min = Integer.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            var r = auth().get(url).then().statusCode(200).body("results", hasSize(expected)).extract();
            min = Math.min(min, Integer.parseInt(r.header("X-SQL-Statements")));
        }
        return min;
    }
}
