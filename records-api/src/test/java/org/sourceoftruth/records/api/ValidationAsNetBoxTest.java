package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Validation points that the other tests do not cover: required sets and
 * duplicate errors answered as NetBox's serializers answer them.
 */
@QuarkusTest
class ValidationAsNetBoxTest {

    /** NetBox 4.4's required set of a custom field: name and object_types (type defaults to text). */
    @Test
    void customFieldRequiredSet() {
        Api.post("/api/extras/custom-fields/", Map.of())
                .statusCode(400)
                .body("keySet()", containsInAnyOrder("name", "object_types"))
                .body("name", contains("This field is required."))
                .body("object_types", contains("This field is required."));
        Api.post("/api/extras/event-rules/", Map.of())
                .statusCode(400)
                .body("keySet()", containsInAnyOrder("action_object_type", "event_types", "name", "object_types"));
    }

    /**
     * An exact duplicate name is the name field's error only (DRF's UniqueValidator, before any
     * object-level check); a duplicate differing in case is the object-level constraint's.
     */
    @Test
    void duplicateErrorsPerFieldFirst() {
        String name = "dup_" + Api.uniq().replace('-', '_');
        create("/api/extras/custom-fields/", Map.of("name", name, "object_types", List.of("dcim.site")));
        Api.post("/api/extras/custom-fields/", Map.of("name", name, "object_types", List.of("dcim.site")))
                .statusCode(400)
                .body("name", contains("custom field with this name already exists."))
                .body("$", not(hasKey("__all__")));
        Api.post("/api/extras/custom-fields/", Map.of("name", name.toUpperCase(), "object_types", List.of("dcim.site")))
                .statusCode(400)
                .body("__all__", contains("Custom field names must be unique."))
                .body("$", not(hasKey("name")));
        // a site duplicating name and slug: one error per field, as NetBox
        String site = "dupsite-" + Api.uniq();
        create("/api/dcim/sites/", Map.of("name", site, "slug", site));
        Api.post("/api/dcim/sites/", Map.of("name", site, "slug", site))
                .statusCode(400)
                .body("keySet()", containsInAnyOrder("name", "slug"));
        // choices refused with NetBox's quoting
        auth().body(Map.of("name", "q-" + site, "slug", "q-" + site, "status", "bogus"))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(400)
                .body("status", contains("\"bogus\" is not a valid choice."));
    }
}
