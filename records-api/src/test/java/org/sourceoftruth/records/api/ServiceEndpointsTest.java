package org.sourceoftruth.records.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ServiceEndpoints;
import org.sourceoftruth.records.testsupport.Management;

/** records-api serves the probe and metrics paths the Helm chart points Kubernetes at, on the management port only. */
@QuarkusTest
class ServiceEndpointsTest {
    /** The management interface (its root path is /q; only its port is used here). */
    @TestHTTPResource(value = "/", management = true)
    URL management;

    @Test
    void probePathsOfTheChartAreServed() throws java.io.IOException {
        given().port(management.getPort())
                .get(ServiceEndpoints.LIVENESS_PATH)
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"));
        given().port(management.getPort())
                .get(ServiceEndpoints.READINESS_PATH)
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"));
        given().port(management.getPort())
                .get(ServiceEndpoints.STARTUP_PATH)
                .then()
                .statusCode(200);
        given().port(management.getPort())
                .get(ServiceEndpoints.METRICS_PATH)
                .then()
                .statusCode(200)
                .body(containsString("jvm_"));
        assertEquals(management.getPort(), Management.port(), "the port Management.given() uses");
        // The port outside tests (tests use a random one) is the chart's.
        Properties properties = new Properties();
        try (var in = java.nio.file.Files.newInputStream(
                java.nio.file.Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        assertEquals(
                "${MANAGEMENT_PORT:" + ServiceEndpoints.RECORDS_API_MANAGEMENT_PORT + "}",
                properties.getProperty("quarkus.management.port"),
                "the chart's management port");
        // not on the public port
        given().get(ServiceEndpoints.METRICS_PATH).then().statusCode(404);
        given().get(ServiceEndpoints.READINESS_PATH).then().statusCode(404);
    }
}
