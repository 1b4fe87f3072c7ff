package org.sourceoftruth.records.changelog;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ServiceEndpoints;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.testsupport.Management;

/** The relay's lag on /q/metrics: backlog rows and the age of the oldest unpublished change. */
@QuarkusTest
class OutboxMetricsTest {

    @Inject
    RelayLifecycle lifecycle;

    @Test
    void backlogAndAgeOfTheOldestUnpublishedChangeShowAndDrain() {
        lifecycle.relay().stop(Duration.ofSeconds(10));
        try {
            Api.site("lag");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> gauge("sot_outbox_backlog_rows") >= 1
                            && gauge("sot_outbox_oldest_unpublished_age_seconds") >= 1);
        } finally {
            lifecycle.relay().start();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> gauge("sot_outbox_backlog_rows") == 0);
        assertEquals(0.0, gauge("sot_outbox_oldest_unpublished_age_seconds"));
        assertTrue(gauge("sot_outbox_failed_total") >= 0, "failed rounds are counted");
    }

    /** The value of a series without labels other than the common ones. */
    private static double gauge(String name) {
        String metrics = Management.given()
                .get(ServiceEndpoints.METRICS_PATH)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        return metrics.lines()
                .filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " is not on " + ServiceEndpoints.METRICS_PATH));
    }
}
