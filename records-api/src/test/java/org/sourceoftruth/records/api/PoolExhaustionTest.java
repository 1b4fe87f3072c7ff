package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.sourceoftruth.records.Api.auth;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.engine.customfields.CustomFields;
import org.sourceoftruth.records.engine.query.FilterCompiler;

/**
 * When every pooled connection stays busy past the acquisition time-out, the API is overloaded,
 * not broken: the request answers 503 with NetBox's {"detail": ...} and Retry-After, never a 500.
 * And a read never takes a second connection while it holds one (that deadlocks a busy pool).
 */
@QuarkusTest
@TestProfile(PoolExhaustionTest.TwoConnections.class)
class PoolExhaustionTest {
    @Inject
    FilterCompiler filters;

    /** A pool of two connections (Flyway needs two at start) that gives up waiting after half a second. */
    public static class TwoConnections implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "quarkus.datasource.jdbc.max-size", "2", "quarkus.datasource.jdbc.acquisition-timeout", "0.5S");
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CustomFields customFields;

    @Test
    void aRequestThatFindsNoFreeConnectionAnswers503() throws Exception {
        auth().get("/api/dcim/sites/?limit=1").then().statusCode(200);
        try (Connection first = dataSource.getConnection();
                Connection second = dataSource.getConnection()) {
            auth().get("/api/dcim/sites/?limit=1")
                    .then()
                    .statusCode(503)
                    .header("Retry-After", equalTo("1"))
                    .body("detail", startsWith("The service is busy"));
        }
        auth().get("/api/dcim/sites/?limit=1").then().statusCode(200);
    }

    /**
     * A list request holds one connection; reloading the custom-field definitions (every 5 s) on
     * a second one made 32 concurrent requests wait for each other until the time-out. With one
     * connection left in the pool, a list with stale definitions must still answer.
     */
    @Test
    void aListThatReloadsCustomFieldDefinitionsNeedsOneConnection() throws Exception {
        org.sourceoftruth.records.Api.site("pool"); // a row to render, with its custom fields
        try (Connection held = dataSource.getConnection()) {
            customFields.invalidate();
            auth().get("/api/dcim/sites/?limit=1").then().statusCode(200);
            customFields.invalidate();
            filters.strictFiltering(true); // cf_nothing is a 400 only under STRICT_FILTERING
            try {
                auth().get("/api/dcim/sites/?cf_nothing=1").then().statusCode(400);
            } finally {
                filters.strictFiltering(null);
            }
        }
    }
}
