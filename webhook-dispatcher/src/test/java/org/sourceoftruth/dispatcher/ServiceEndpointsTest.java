package org.sourceoftruth.dispatcher;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ServiceEndpoints;
import org.sourceoftruth.records.testsupport.Management;

/** webhook-dispatcher serves the probe and metrics paths the Helm chart points Kubernetes at. */
@QuarkusTest
@io.quarkus.test.common.WithTestResource(org.sourceoftruth.dispatcher.support.TestInfrastructure.class)
class ServiceEndpointsTest {

    @Test
    void probePathsOfTheChartAreServed() throws java.io.IOException {
        Management.given()
                .get(ServiceEndpoints.LIVENESS_PATH)
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"));
        Management.given()
                .get(ServiceEndpoints.READINESS_PATH)
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"));
        Management.given().get(ServiceEndpoints.STARTUP_PATH).then().statusCode(200);
        Management.given()
                .get(ServiceEndpoints.METRICS_PATH)
                .then()
                .statusCode(200)
                .body(containsString("jvm_"));
        // The port outside tests (tests use a random one) is the chart's.
        Properties properties = new Properties();
        try (var in = java.nio.file.Files.newInputStream(
                java.nio.file.Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        assertEquals(
                "${MANAGEMENT_PORT:" + ServiceEndpoints.WEBHOOK_DISPATCHER_MANAGEMENT_PORT + "}",
                properties.getProperty("quarkus.management.port"),
                "the chart's management port");
        // not on the public port
        RestAssured.given().get(ServiceEndpoints.READINESS_PATH).then().statusCode(404);
    }
}
