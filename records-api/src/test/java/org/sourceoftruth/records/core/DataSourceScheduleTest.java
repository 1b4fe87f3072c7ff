package org.sourceoftruth.records.core;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.uniq;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Data sources with a sync_interval are synchronised when due, once, by one replica at a time. */
@QuarkusTest
class DataSourceScheduleTest {
    @Inject
    DataSourceSchedule schedule;

    @Inject
    AgroalDataSource dataSource;

    private long jobs(int source) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement st = c.prepareStatement(
                        "select count(*) from core_job where object_type = 'core.datasource' and object_id = ?")) {
            st.setLong(1, source);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void backdateJobs(int source, String age) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement st = c.prepareStatement(
                        "update core_job set created = created - ?::interval where object_type = 'core.datasource' and object_id = ?")) {
            st.setString(1, age);
            st.setLong(2, source);
            st.executeUpdate();
        }
    }

    @Test
    void dueSourcesAreSynchronisedOnceAndAgainAfterTheirInterval() throws Exception {
        Path dir = Files.createTempDirectory("scheduled-source");
        Files.writeString(dir.resolve("a.txt"), "a");
        int hourly = Api.create(
                "/api/core/data-sources/",
                Map.of(
                        "name",
                        "sch-" + uniq(),
                        "type",
                        "local",
                        "source_url",
                        dir.toUri().toString(),
                        "sync_interval",
                        60));
        int unscheduled = Api.create(
                "/api/core/data-sources/",
                Map.of(
                        "name",
                        "sch-" + uniq(),
                        "type",
                        "local",
                        "source_url",
                        dir.toUri().toString()));
        int failing = Api.create(
                "/api/core/data-sources/",
                Map.of(
                        "name",
                        "sch-" + uniq(),
                        "type",
                        "git",
                        "source_url",
                        "https://example.invalid/repo.git",
                        "sync_interval",
                        60));

        // two replicas checking at once: each due source is synchronised exactly once
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> runs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                runs.add(pool.submit((Callable<Integer>) schedule::syncDue));
            }
            for (Future<Integer> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(1, jobs(hourly));
        assertEquals(1, jobs(failing), "a failing source is tried once, not at every check");
        assertEquals(0, jobs(unscheduled));
        Api.auth()
                .get("/api/core/data-sources/" + hourly + "/")
                .then()
                .body("status.value", equalTo("completed"))
                .body("file_count", equalTo(1));
        Api.auth()
                .get("/api/core/jobs/?object_id=" + hourly + "&object_type=core.datasource")
                .then()
                .body("results[0].status.value", equalTo("completed"))
                .body("results[0].user.username", equalTo("admin"));
        Api.auth()
                .get("/api/core/jobs/?object_id=" + failing + "&object_type=core.datasource")
                .then()
                .body("results[0].status.value", equalTo("errored"));

        // not due again within the interval; due once it has passed
        schedule.syncDue();
        assertEquals(1, jobs(hourly));
        backdateJobs(hourly, "61 minutes");
        schedule.syncDue();
        assertEquals(2, jobs(hourly));
        assertEquals(1, jobs(failing));
    }
}
