package org.sourceoftruth.records.core;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * With no dispatcher answering (%test: DISPATCHER_URL on a closed port), NetBox's
 * background-task paths answer 503 JSON, never a 500. Forwarding to a running dispatcher is
 * tested in webhook-dispatcher (BackgroundTasksAtRecordsApiTest).
 */
@QuarkusTest
class BackgroundTaskProxyTest {

    @Test
    void anUnreachableDispatcherIsA503InNetBoxsShape() {
        for (String path : new String[] {
            "/api/core/background-tasks/",
            "/api/core/background-queues/",
            "/api/core/background-workers/",
            "/api/core/background-tasks/1/"
        }) {
            Api.auth()
                    .get(path)
                    .then()
                    .statusCode(503)
                    .contentType("application/json")
                    .body("detail", startsWith("Background tasks are unavailable"));
        }
        Api.auth()
                .post("/api/core/background-tasks/1/requeue/")
                .then()
                .statusCode(503)
                .body("detail", equalTo("Background tasks are unavailable: the webhook dispatcher does not answer."));
    }

    @Test
    void otherCorePathsAreNotForwarded() {
        Api.auth().get("/api/core/object-changes/").then().statusCode(200);
    }
}
