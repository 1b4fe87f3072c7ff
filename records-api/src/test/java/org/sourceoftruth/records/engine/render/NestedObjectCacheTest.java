package org.sourceoftruth.records.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ServiceEndpoints;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.Management;
import org.sourceoftruth.records.testsupport.Snapshots;

/**
 * Nested objects and tag lists of reads are reused while the database shows the same data, and looked up
 * again after any change, whoever made it; their URLs follow each request's own host.
 */
@QuarkusTest
class NestedObjectCacheTest {
    @Inject
    AgroalDataSource dataSource;

    @Test
    void aNestedObjectIsReusedUntilAnyoneChangesTheData() throws Exception {
        String u = Api.uniq();
        int site = Api.site("nested-" + u);
        int[] typeAndRole = Api.deviceTypeAndRole();
        int tag = Api.create("/api/extras/tags/", Map.of("name", "nested-" + u, "slug", "nested-" + u));
        int device = Api.create(
                "/api/dcim/devices/",
                Map.of(
                        "name",
                        "nested-" + u + "-a",
                        "site",
                        site,
                        "device_type",
                        typeAndRole[0],
                        "role",
                        typeAndRole[1],
                        "tags",
                        java.util.List.of(tag)));
        Api.device(site, typeAndRole, "nested-" + u + "-b");
        String list = "/api/dcim/devices/?site_id=" + site + "&ordering=name";
        String detail = "/api/dcim/devices/" + device + "/";

        Snapshots.moveOn();
        String looked = auth().get(list).then().statusCode(200).extract().asString();
        // the relay's marking of published changes also moves the snapshot: ask until a request
        // meets the data unchanged since the one before it
        boolean reusedOnce = false;
        for (int attempt = 0; attempt < 50 && !reusedOnce; attempt++) {
            double before = metric("reused");
            String again = auth().get(list).then().statusCode(200).extract().asString();
            assertEquals(looked, again, "a page with kept nested objects reads as one that looked them up");
            reusedOnce = metric("reused") > before;
            if (!reusedOnce) {
                Thread.sleep(100);
            }
        }
        assertTrue(reusedOnce, "a request on unchanged data reuses the nested objects");
        auth().get(detail).then().statusCode(200); // the detail keeps its own (same options, same objects)

        // the site renamed beside the API, by another session: the next reads show the new name
        try (Connection c = dataSource.getConnection();
                PreparedStatement st =
                        c.prepareStatement("update dcim_site set name = name || '-renamed' where id = ?")) {
            st.setLong(1, site);
            assertEquals(1, st.executeUpdate());
        }
        for (int i = 0; i < 2; i++) {
            auth().get(list)
                    .then()
                    .statusCode(200)
                    .body("results[0].site.name", org.hamcrest.Matchers.endsWith("-renamed"))
                    .body("results[1].site.name", org.hamcrest.Matchers.endsWith("-renamed"));
            auth().get(detail).then().statusCode(200).body("site.name", org.hamcrest.Matchers.endsWith("-renamed"));
        }

        // the device's tag taken off beside the API: its tag list is read again too
        auth().get(detail).then().statusCode(200).body("tags.slug", org.hamcrest.Matchers.contains("nested-" + u));
        try (Connection c = dataSource.getConnection();
                PreparedStatement st =
                        c.prepareStatement("delete from extras_taggeditem where object_id = ? and tag_id = ?")) {
            st.setLong(1, device);
            st.setLong(2, tag);
            assertEquals(1, st.executeUpdate());
        }
        auth().get(detail).then().statusCode(200).body("tags", org.hamcrest.Matchers.empty());
        auth().get(list).then().statusCode(200).body("results[0].tags", org.hamcrest.Matchers.empty());

        // and through the API (a change record, an outbox row, the relay after it)
        String renamed = "nested-" + u + "-api";
        auth().body(Map.of("name", renamed))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
        auth().get(detail).then().statusCode(200).body("site.name", org.hamcrest.Matchers.equalTo(renamed));
        auth().get(list).then().statusCode(200).body("results[1].site.name", org.hamcrest.Matchers.equalTo(renamed));
    }

    @Test
    void aKeptNestedObjectCarriesTheUrlsOfEachRequestsHost() throws Exception {
        int site = Api.site("nested-host");
        int device = Api.device(site, Api.deviceTypeAndRole(), "nested-host-" + Api.uniq());
        String detail = "/api/dcim/devices/" + device + "/";
        for (int i = 0; i < 3; i++) {
            auth().get(detail)
                    .then()
                    .statusCode(200)
                    .body("site.url", org.hamcrest.Matchers.endsWith("/api/dcim/sites/" + site + "/"))
                    .body(
                            "site.url",
                            org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("nb.example.com")));
            auth().header("X-Forwarded-Proto", "https")
                    .header("X-Forwarded-Host", "nb.example.com")
                    .get(detail)
                    .then()
                    .statusCode(200)
                    .body(
                            "site.url",
                            org.hamcrest.Matchers.equalTo("https://nb.example.com/api/dcim/sites/" + site + "/"));
        }
    }

    private static double metric(String outcome) {
        String line = Management.given()
                .get(ServiceEndpoints.METRICS_PATH)
                .then()
                .statusCode(200)
                .extract()
                .asString()
                .lines()
                .filter(l -> l.startsWith("sot_nested_objects_total{") && l.contains("outcome=\"" + outcome + "\""))
                .findFirst()
                .orElse(null);
        return line == null ? 0 : Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }
}
