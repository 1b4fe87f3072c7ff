package org.sourceoftruth.records.testsupport;

import io.quarkus.test.common.http.TestHTTPResourceManager;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import java.net.URI;

/**
 * Requests to the management interface (/q/health/*, /q/metrics) of the records-api under test:
 * it listens on a port of its own, chosen at random in tests (quarkus.management.test-port=0).
 */
public final class Management {

    private Management() {}

    public static RequestSpecification given() {
        return RestAssured.given().port(port());
    }

    public static int port() {
        String uri = TestHTTPResourceManager.getManagementUri();
        int port = URI.create(uri).getPort();
        if (port <= 0) {
            throw new IllegalStateException("the management interface does not listen (yet): " + uri);
        }
        return port;
    }
}
