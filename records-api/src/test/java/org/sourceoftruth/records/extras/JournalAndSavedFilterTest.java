package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/** Journal entries on journaled objects, and saved filters applied to lists with ?filter= / ?filter_id=. */
@QuarkusTest
class JournalAndSavedFilterTest {

    @Test
    void journalEntriesAreWrittenByTheCallerOnJournaledObjectsAndGoWithThem() {
        int site = Api.site("jr");
        int entry = create(
                "/api/extras/journal-entries/",
                Map.of(
                        "assigned_object_type",
                        "dcim.site",
                        "assigned_object_id",
                        site,
                        "kind",
                        "warning",
                        "comments",
                        "rack 4 is leaking"));
        int me = auth().get("/api/authentication-check/")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        auth().get("/api/extras/journal-entries/" + entry + "/")
                .then()
                .statusCode(200)
                .body("assigned_object.id", equalTo(site))
                .body("assigned_object_type", equalTo("dcim.site"))
                .body("created_by", equalTo(me))
                .body("kind.value", equalTo("warning"))
                .body("kind.label", equalTo("Warning"))
                .body("display", matchesPattern("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(Warning\\)"));
        // another user writes as himself
        Accounts.Account bob = Accounts.account("bob");
        Accounts.permission(List.of("extras.journalentry"), List.of("view", "add"), null, List.of(bob.id()));
        int bobs = bob.api()
                .body(Map.of("assigned_object_type", "dcim.site", "assigned_object_id", site, "comments", "checked"))
                .post("/api/extras/journal-entries/")
                .then()
                .statusCode(201)
                .body("created_by", equalTo(bob.id()))
                .body("kind.value", equalTo("info"))
                .extract()
                .path("id");

        auth().get("/api/extras/journal-entries/?assigned_object_type=dcim.site&assigned_object_id=" + site)
                .then()
                .body("results.id", contains(bobs, entry));
        auth().get("/api/extras/journal-entries/?created_by=" + bob.username())
                .then()
                .body("results.id", contains(bobs));
        auth().get("/api/extras/journal-entries/?kind=warning&assigned_object_id=" + site)
                .then()
                .body("results.id", contains(entry));
        auth().get("/api/extras/journal-entries/?q=leaking&assigned_object_id=" + site)
                .then()
                .body("results.id", contains(entry));

        // comments are required; object types NetBox does not journal are refused; the object must exist
        post("/api/extras/journal-entries/", Map.of("assigned_object_type", "dcim.site", "assigned_object_id", site))
                .statusCode(400)
                .body("comments", hasItem("This field is required."));
        post(
                        "/api/extras/journal-entries/",
                        Map.of("assigned_object_type", "extras.tag", "assigned_object_id", 1, "comments", "x"))
                .statusCode(400);
        post(
                        "/api/extras/journal-entries/",
                        Map.of("assigned_object_type", "dcim.site", "assigned_object_id", 999999999, "comments", "x"))
                .statusCode(400);
        post(
                        "/api/extras/journal-entries/",
                        Map.of(
                                "assigned_object_type",
                                "dcim.site",
                                "assigned_object_id",
                                site,
                                "comments",
                                "x",
                                "kind",
                                "bogus"))
                .statusCode(400)
                .body("kind", hasItem("\"bogus\" is not a valid choice."));

        // the journal goes with its object
        auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        auth().get("/api/extras/journal-entries/" + entry + "/").then().statusCode(404);
        auth().get("/api/extras/journal-entries/" + bobs + "/").then().statusCode(404);
    }

    @Test
    void savedFiltersMergeTheirParametersIntoAnyList() {
        String u = uniq();
        int a = create("/api/dcim/sites/", Map.of("name", "sfa-" + u, "slug", "sfa-" + u, "status", "planned"));
        int b = create("/api/dcim/sites/", Map.of("name", "sfb-" + u, "slug", "sfb-" + u, "status", "active"));
        int c = create("/api/dcim/sites/", Map.of("name", "sfc-" + u, "slug", "sfc-" + u, "status", "planned"));
        int saved = create(
                "/api/extras/saved-filters/",
                Map.of(
                        "name",
                        "planned " + u,
                        "slug",
                        "planned-" + u,
                        "object_types",
                        List.of("dcim.site"),
                        "parameters",
                        Map.of("status", List.of("planned"), "name__isw", "sf")));
        auth().get("/api/extras/saved-filters/" + saved + "/")
                .then()
                .statusCode(200)
                .body("parameters.status", contains("planned"))
                .body("enabled", equalTo(true))
                .body("shared", equalTo(true))
                .body("weight", equalTo(100))
                .body("object_types", contains("dcim.site"));

        auth().get("/api/dcim/sites/?filter=planned-" + u + "&name__ic=" + u)
                .then()
                .statusCode(200)
                .body("results.id", containsInAnyOrder(a, c));
        auth().get("/api/dcim/sites/?filter_id=" + saved + "&name__ic=" + u)
                .then()
                .statusCode(200)
                .body("results.id", containsInAnyOrder(a, c));
        // a parameter the request also gives gains the saved values (ORed)
        auth().get("/api/dcim/sites/?filter=planned-" + u + "&status=active&name__ic=" + u)
                .then()
                .statusCode(200)
                .body("results.id", containsInAnyOrder(a, b, c));
        // an unknown slug adds nothing (NetBox); a filter_id that is no number is a 400 naming it
        auth().get("/api/dcim/sites/?filter=no-such-" + u + "&name__ic=" + u)
                .then()
                .statusCode(200)
                .body("results.id", containsInAnyOrder(a, b, c));
        auth().get("/api/dcim/sites/?filter_id=abc")
                .then()
                .statusCode(400)
                .body("filter_id", hasItem("Enter a whole number."));

        // parameters must be an object; filters of saved filters
        post(
                        "/api/extras/saved-filters/",
                        Map.of(
                                "name",
                                "bad " + u,
                                "slug",
                                "bad-" + u,
                                "object_types",
                                List.of("dcim.site"),
                                "parameters",
                                List.of("status")))
                .statusCode(400)
                .body("parameters", hasItem("Filter parameters must be stored as a dictionary of keyword arguments."));
        auth().get("/api/extras/saved-filters/?object_type=dcim.site&slug=planned-" + u)
                .then()
                .body("results.id", contains(saved));
        auth().get("/api/extras/saved-filters/?usable=true&slug=planned-" + u)
                .then()
                .body("results.id", contains(saved));
        auth().body(Map.of("enabled", false))
                .patch("/api/extras/saved-filters/" + saved + "/")
                .then()
                .statusCode(200);
        auth().get("/api/extras/saved-filters/?usable=true&slug=planned-" + u)
                .then()
                .body("results.id", equalTo(List.of()));
        auth().get("/api/extras/saved-filters/?usable=false&slug=planned-" + u)
                .then()
                .body("results.id", contains(saved));
    }
}
