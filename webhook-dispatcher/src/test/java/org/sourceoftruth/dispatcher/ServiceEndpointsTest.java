package org.sourceoftruth.dispatcher;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ServiceEndpoints;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** webhook-dispatcher serves the probe and metrics paths the Helm chart points Kubernetes at. */
@QuarkusTest
@io.quarkus.test.common.WithTestResource(org.sourceoftruth.dispatcher.support.TestInfrastructure.class)
class ServiceEndpointsTest {

    @Test
    void probePathsOfTheChartAreServed() {
        given().get(ServiceEndpoints.LIVENESS_PATH).then().statusCode(200).body("status", equalTo("UP"));
        given().get(ServiceEndpoints.READINESS_PATH).then().statusCode(200).body("status", equalTo("UP"));
        given().get(ServiceEndpoints.STARTUP_PATH).then().statusCode(200);
        given().get(ServiceEndpoints.METRICS_PATH).then().statusCode(200).body(containsString("jvm_"));
    }
}
