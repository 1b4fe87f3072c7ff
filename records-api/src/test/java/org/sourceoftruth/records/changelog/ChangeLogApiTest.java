package org.sourceoftruth.records.changelog;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Every write leaves change records, found by the response's X-Request-ID. */
@QuarkusTest
class ChangeLogApiTest {

    private static String requestId(ExtractableResponse<Response> r) {
        return r.header("X-Request-ID");
    }

    @Test
    void createPatchPutDeleteAndBulkCreateAreRecorded() {
        String u = Api.uniq();
        var created = Api.post("/api/dcim/sites/", Map.of("name", "cl-" + u, "slug", "cl-" + u))
                .statusCode(201)
                .extract();
        int id = created.path("id");
        auth().get("/api/core/object-changes/?request_id=" + requestId(created))
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results[0].action.value", equalTo("create"))
                .body("results[0].changed_object_type", equalTo("dcim.site"))
                .body("results[0].changed_object_id", equalTo(id))
                .body("results[0].changed_object.name", equalTo("cl-" + u))
                .body("results[0].user_name", equalTo("admin"))
                .body("results[0].prechange_data", nullValue())
                .body("results[0].postchange_data.slug", equalTo("cl-" + u));
        auth().get("/api/dcim/sites/?created_by_request=" + requestId(created))
                .then()
                .body("results.id", contains(id));

        var patched = auth().body(Map.of("description", "after"))
                .patch("/api/dcim/sites/" + id + "/")
                .then()
                .statusCode(200)
                .extract();
        auth().get("/api/extras/object-changes/?request_id=" + requestId(patched))
                .then()
                .body("results", hasSize(1))
                .body("results[0].action.value", equalTo("update"))
                .body("results[0].prechange_data.description", equalTo(""))
                .body("results[0].postchange_data.description", equalTo("after"));
        auth().get("/api/dcim/sites/?updated_by_request=" + requestId(patched))
                .then()
                .body("results.id", contains(id));
        auth().get("/api/dcim/sites/?created_by_request=" + requestId(patched))
                .then()
                .body("count", equalTo(0));
        auth().get("/api/dcim/sites/?modified_by_request=" + requestId(patched))
                .then()
                .body("results.id", contains(id));

        var put = auth().body(Map.of("name", "cl2-" + u, "slug", "cl2-" + u))
                .put("/api/dcim/sites/" + id + "/")
                .then()
                .statusCode(200)
                .extract();
        auth().get("/api/core/object-changes/?request_id=" + requestId(put))
                .then()
                .body("results[0].action.value", equalTo("update"))
                .body("results[0].postchange_data.name", equalTo("cl2-" + u));

        var deleted = auth().delete("/api/dcim/sites/" + id + "/")
                .then()
                .statusCode(204)
                .extract();
        auth().get("/api/core/object-changes/?request_id=" + requestId(deleted))
                .then()
                .body("results[0].action.value", equalTo("delete"))
                .body("results[0].prechange_data.name", equalTo("cl2-" + u))
                .body("results[0].postchange_data", nullValue())
                .body("results[0].changed_object", nullValue());

        var bulk = Api.post(
                        "/api/dcim/sites/",
                        List.of(
                                Map.of("name", "cb1-" + u, "slug", "cb1-" + u),
                                Map.of("name", "cb2-" + u, "slug", "cb2-" + u)))
                .statusCode(201)
                .extract();
        auth().get("/api/core/object-changes/?request_id=" + requestId(bulk) + "&ordering=object_repr")
                .then()
                .body("results", hasSize(2))
                .body("results.object_repr", contains("cb1-" + u, "cb2-" + u));
        auth().get("/api/dcim/sites/?created_by_request=" + requestId(bulk))
                .then()
                .body("count", equalTo(2));
    }

    @Test
    void rejectedWritesLeaveNoRecordAndTheLogIsReadOnly() {
        String u = Api.uniq();
        var bad = Api.post(
                        "/api/dcim/sites/", List.of(Map.of("name", "ok-" + u, "slug", "ok-" + u), Map.of("name", "x")))
                .statusCode(400)
                .extract();
        auth().get("/api/core/object-changes/?request_id=" + requestId(bad))
                .then()
                .body("count", equalTo(0));
        auth().body(Map.of("object_repr", "x"))
                .post("/api/core/object-changes/")
                .then()
                .statusCode(405)
                .body("detail", notNullValue());
    }
}
