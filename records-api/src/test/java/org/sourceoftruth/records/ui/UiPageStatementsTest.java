package org.sourceoftruth.records.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * A list page costs the same statements for 1 row as for 20 (related objects are read per page,
 * not per row); an object's page holds no rows of its children (each child table is a request
 * of its own, htmx loads it), and a child table costs the same for 1 row as for 10. Counted with the test profile's X-SQL-Statements header, on a
 * second request of each page (the first may fill the engine's nested-object cache).
 */
@QuarkusTest
class UiPageStatementsTest {
    @Test
    void pageStatementsDoNotGrowWithTheirRows() {
        String u = Api.uniq();
        int tenant = Api.create("/api/tenancy/tenants/", Map.of("name", "st-" + u, "slug", "st-" + u));
        List<Map<String, Object>> many = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            many.add(Map.of("name", "many-" + u + "-" + i, "slug", "many-" + u + "-" + i, "tenant", tenant));
        }
        Api.post("/api/dcim/sites/", many).statusCode(201);
        int one = Api.create("/api/dcim/sites/", Map.of("name", "one-" + u, "slug", "one-" + u, "tenant", tenant));
        int oneRow = statements("/dcim/sites/?q=one-" + u, "one-" + u);
        int twentyRows = statements("/dcim/sites/?q=many-" + u, "many-" + u + "-19");
        assertEquals(oneRow, twentyRows, "statements of a list page of 1 and of 20 rows");

        int[] typeAndRole = Api.deviceTypeAndRole();
        int other = Api.site("st-other");
        Api.device(other, typeAndRole, "st-device-" + u + "-single");
        for (int i = 0; i < 20; i++) {
            Api.device(one, typeAndRole, "st-device-" + u + "-" + i);
        }
        // the object's page names its child tables and holds none of their rows
        String page =
                Api.auth().accept("text/html").get("/dcim/sites/" + one + "/").asString();
        assertTrue(
                page.contains("hx-get=\"/dcim/devices/table/?site_id=" + one + "\""),
                "the devices' table is loaded by htmx");
        assertFalse(page.contains("st-device-" + u), "no child row in the object's page itself");
        // a child table costs the same for 1 child as for 10 of 20
        assertEquals(
                statements("/dcim/devices/table/?site_id=" + other, "st-device-" + u + "-single"),
                statements("/dcim/devices/table/?site_id=" + one, "st-device-" + u + "-"),
                "statements of a child table of 1 and of 10 rows");
    }

    /** The statements of the page's second request (the first may fill the engine's caches). */
    private static int statements(String path, String expected) {
        Api.auth().accept("text/html").get(path).then().statusCode(200);
        Response r = Api.auth().accept("text/html").get(path);
        r.then().statusCode(200);
        assertTrue(r.asString().contains(expected), path + " shows " + expected);
        return Integer.parseInt(r.header("X-SQL-Statements"));
    }
}
