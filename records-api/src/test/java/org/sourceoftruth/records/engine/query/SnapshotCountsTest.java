package org.sourceoftruth.records.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ServiceEndpoints;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.testsupport.Management;

/** List totals reused while the database shows the same data, and counted again after any change. */
@QuarkusTest
class SnapshotCountsTest {
    @Inject
    SnapshotCounts counts;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aTotalIsReusedUntilAnyoneChangesTheData() throws Exception {
        String prefix = "snapcount-" + Api.uniq();
        for (int i = 0; i < 3; i++) {
            Api.site(prefix + "-" + i);
        }
        // limit=1 leaves matches after the page, so the total must be counted
        String page = "/api/dcim/sites/?limit=1&name__isw=" + prefix;
        assertEquals(3, total(page));
        // the relay's marking of published changes also moves the snapshot: ask until two
        // consecutive requests meet an unchanged database
        boolean reusedOnce = false;
        for (int attempt = 0; attempt < 50 && !reusedOnce; attempt++) {
            double before = metric("reused");
            assertEquals(3, total(page));
            reusedOnce = metric("reused") > before;
            if (!reusedOnce) {
                Thread.sleep(100);
            }
        }
        assertTrue(reusedOnce, "the second of two requests on unchanged data reuses the total");

        // a row written beside the API, by another session: the next total counts it
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement()) {
            st.executeUpdate("insert into dcim_site (name, slug)"
                    + " select name || '-sql', slug || '-sql' from dcim_site where name like '"
                    + prefix + "-0-%'");
        }
        assertEquals(4, total(page));
        assertEquals(4, total(page));
    }

    @Test
    void aTransactionThatWroteAlwaysCountsAndKeepsNothing() throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("create temp table snapshot_count_probe (a int) on commit drop");
                st.execute("insert into snapshot_count_probe values (1)");
                Db db = new Db(c);
                String sql = "select count(*) from snapshot_count_probe t where t.a > ?";
                assertEquals(1, counts.count(db, sql, List.of(0)));
                // same snapshot text (no other transaction ended), one more own row
                st.execute("insert into snapshot_count_probe values (2)");
                assertEquals(2, counts.count(db, sql, List.of(0)));
            } finally {
                c.rollback();
            }
        }
    }

    private static int total(String path) {
        return Api.auth().get(path).then().statusCode(200).extract().path("count");
    }

    private static double metric(String outcome) {
        String line = Management.given()
                .get(ServiceEndpoints.METRICS_PATH)
                .then()
                .statusCode(200)
                .extract()
                .asString()
                .lines()
                .filter(l -> l.startsWith("sot_list_counts_total{") && l.contains("outcome=\"" + outcome + "\""))
                .findFirst()
                .orElse(null);
        return line == null ? 0 : Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }
}
