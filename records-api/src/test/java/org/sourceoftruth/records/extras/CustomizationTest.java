package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Choice sets and the select custom fields using them, custom links, config context profiles, tagged objects. */
@QuarkusTest
class CustomizationTest {

    @Test
    void selectCustomFieldsTakeTheChoicesOfTheirChoiceSet() {
        String u = uniq();
        int set = create(
                "/api/extras/custom-field-choice-sets/",
                Map.of(
                        "name",
                        "tiers " + u,
                        "extra_choices",
                        List.of(List.of("gold", "Gold"), List.of("bronze", "Bronze"), List.of("silver", "Silver")),
                        "order_alphabetically",
                        true));
        auth().get("/api/extras/custom-field-choice-sets/" + set + "/")
                .then()
                .statusCode(200)
                .body("choices_count", equalTo(3))
                .body("base_choices", equalTo(null));
        auth().get("/api/extras/custom-field-choice-sets/" + set + "/choices/")
                .then()
                .statusCode(200)
                .body("count", equalTo(3))
                .body("results.id", contains("bronze", "gold", "silver"))
                .body("results.display", contains("Bronze", "Gold", "Silver"));
        auth().get("/api/extras/custom-field-choice-sets/" + set + "/choices/?q=SIL")
                .then()
                .body("results.id", contains("silver"));
        auth().get("/api/extras/custom-field-choice-sets/?choice=gold&name=tiers " + u)
                .then()
                .body("results.id", contains(set));
        auth().get("/api/extras/custom-field-choice-sets/?choice=platinum&name=tiers " + u)
                .then()
                .body("count", equalTo(0));
        // countries from ISO 3166; the lists not bundled here are refused, as are sets without choices
        int countries = create(
                "/api/extras/custom-field-choice-sets/",
                Map.of("name", "countries " + u, "base_choices", "ISO_3166", "extra_choices", List.of()));
        auth().get("/api/extras/custom-field-choice-sets/" + countries + "/choices/?q=germany")
                .then()
                .body("results.id", contains("DE"));
        post(
                        "/api/extras/custom-field-choice-sets/",
                        Map.of("name", "air " + u, "base_choices", "IATA", "extra_choices", List.of()))
                .statusCode(400)
                .body("base_choices", hasItem(startsWith("The IATA (Airport codes) list is not available")));
        post("/api/extras/custom-field-choice-sets/", Map.of("name", "none " + u, "extra_choices", List.of()))
                .statusCode(400)
                .body("__all__", hasItem("Must define base or extra choices."));
        // NetBox 4.6's serializer requires the extra choices, empty or not
        post("/api/extras/custom-field-choice-sets/", Map.of("name", "nolist " + u, "base_choices", "ISO_3166"))
                .statusCode(400)
                .body("extra_choices", contains("This field is required."));
        post("/api/extras/custom-field-choice-sets/", Map.of("name", "odd " + u, "extra_choices", List.of("a")))
                .statusCode(400)
                .body("extra_choices.size()", equalTo(1));

        String field = "tier_" + u.replace('-', '_');
        post(
                        "/api/extras/custom-fields/",
                        Map.of("name", field + "x", "object_types", List.of("dcim.site"), "type", "select"))
                .statusCode(400)
                .body("choice_set", hasItem("Selection fields must specify a set of choices."));
        create(
                "/api/extras/custom-fields/",
                Map.of("name", field, "object_types", List.of("dcim.site"), "type", "select", "choice_set", set));
        int site = create(
                "/api/dcim/sites/",
                Map.of("name", "cf-" + u, "slug", "cf-" + u, "custom_fields", Map.of(field, "gold")));
        auth().get("/api/dcim/sites/" + site + "/").then().body("custom_fields." + field, equalTo("gold"));
        post(
                        "/api/dcim/sites/",
                        Map.of("name", "cf2-" + u, "slug", "cf2-" + u, "custom_fields", Map.of(field, "platinum")))
                .statusCode(400);
        // a set in use cannot go
        auth().delete("/api/extras/custom-field-choice-sets/" + set + "/")
                .then()
                .statusCode(409);
    }

    @Test
    void customLinksAndTaggedObjects() {
        String u = uniq();
        int link = create(
                "/api/extras/custom-links/",
                Map.of(
                        "name",
                        "docs " + u,
                        "object_types",
                        List.of("dcim.site"),
                        "link_text",
                        "Docs",
                        "link_url",
                        "https://docs.example.com/{{ object.slug }}"));
        auth().get("/api/extras/custom-links/" + link + "/")
                .then()
                .statusCode(200)
                .body("button_class", equalTo("default"))
                .body("weight", equalTo(100))
                .body("new_window", equalTo(false))
                .body("enabled", equalTo(true));
        auth().get("/api/extras/custom-links/?object_type=dcim.site&name=docs " + u)
                .then()
                .body("results.id", contains(link));
        post(
                        "/api/extras/custom-links/",
                        Map.of(
                                "name",
                                "bad " + u,
                                "object_types",
                                List.of("dcim.site"),
                                "link_text",
                                "x",
                                "link_url",
                                "y",
                                "button_class",
                                "neon"))
                .statusCode(400);

        int tag = create("/api/extras/tags/", Map.of("name", "to-" + u, "slug", "to-" + u));
        int site = create("/api/dcim/sites/", Map.of("name", "to-" + u, "slug", "to-" + u, "tags", List.of(tag)));
        auth().get("/api/extras/tagged-objects/?tag=to-" + u)
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results[0].object_type", equalTo("dcim.site"))
                .body("results[0].object_id", equalTo(site))
                .body("results[0].object.id", equalTo(site))
                .body("results[0].tag.id", equalTo(tag));
        auth().get("/api/extras/tagged-objects/?object_type=dcim.site&object_id=" + site)
                .then()
                .body("count", equalTo(1));
        auth().body(Map.of("tag", tag))
                .post("/api/extras/tagged-objects/")
                .then()
                .statusCode(405);
        // deleting the object removes its tag assignment (no change record for it, as NetBox)
        auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        auth().get("/api/extras/tagged-objects/?tag_id=" + tag).then().body("count", equalTo(0));
    }

    @Test
    void configContextDataMustMatchItsProfileSchema() {
        String u = uniq();
        int profile = create(
                "/api/extras/config-context-profiles/",
                Map.of(
                        "name",
                        "ntp " + u,
                        "schema",
                        Map.of("properties", Map.of("ntp", Map.of("type", "array")), "required", List.of("ntp"))));
        auth().get("/api/extras/config-context-profiles/" + profile + "/")
                .then()
                .statusCode(200)
                .body("data_source", equalTo(null))
                .body("tags", equalTo(List.of()));
        post("/api/extras/config-context-profiles/", Map.of("name", "bad " + u, "schema", Map.of("type", "object")))
                .statusCode(400)
                .body("schema", hasItem("JSON schema must define properties"));
        int site = Api.site("prof");
        int ok = create(
                "/api/extras/config-contexts/",
                Map.of(
                        "name",
                        "ok " + u,
                        "profile",
                        profile,
                        "sites",
                        List.of(site),
                        "data",
                        Map.of("ntp", List.of("10.0.0.1"))));
        auth().get("/api/extras/config-contexts/" + ok + "/")
                .then()
                .body("profile.id", equalTo(profile))
                .body("profile.name", equalTo("ntp " + u));
        post("/api/extras/config-contexts/", Map.of("name", "nope " + u, "profile", profile, "data", Map.of("dns", 1)))
                .statusCode(400)
                .body("data", hasItem("Data does not conform to profile schema: 'ntp' is a required property"));
        auth().get("/api/extras/config-contexts/?profile_id=" + profile).then().body("results.id", contains(ok));
        auth().delete("/api/extras/config-context-profiles/" + profile + "/")
                .then()
                .statusCode(409);
    }

    /** NetBox 4.6: a choice set's colours name its choices' values and NetBox's colour names. */
    @Test
    void choiceColorsNameChoicesAndNamedColors() {
        String u = uniq();
        List<List<String>> choices = List.of(List.of("up", "Up"), List.of("down", "Down"));
        int set = create(
                "/api/extras/custom-field-choice-sets/",
                Map.of("name", "states " + u, "extra_choices", choices, "choice_colors", Map.of("up", "green")));
        auth().get("/api/extras/custom-field-choice-sets/" + set + "/")
                .then()
                .statusCode(200)
                .body("choice_colors.up", equalTo("green"));
        post(
                        "/api/extras/custom-field-choice-sets/",
                        Map.of(
                                "name",
                                "bad1 " + u,
                                "extra_choices",
                                choices,
                                "choice_colors",
                                Map.of("sideways", "red")))
                .statusCode(400)
                .body(
                        "choice_colors",
                        contains(
                                "Color mappings must reference an existing choice value. Invalid value(s): sideways."));
        post(
                        "/api/extras/custom-field-choice-sets/",
                        Map.of("name", "bad2 " + u, "extra_choices", choices, "choice_colors", Map.of("up", "mauve")))
                .statusCode(400)
                .body("choice_colors", contains("Invalid color value(s): mauve. Use a supported named color."));
        post(
                        "/api/extras/custom-field-choice-sets/",
                        Map.of("name", "bad3 " + u, "extra_choices", choices, "choice_colors", List.of("up")))
                .statusCode(400)
                .body("choice_colors", contains("Color mappings must be defined as a JSON object."));
        auth().get("/api/extras/custom-field-choice-sets/?name=bad1 " + u)
                .then()
                .body("count", equalTo(0));
    }

    /** NetBox 4.6: a JSON custom field's values conform to its validation schema. */
    @Test
    void jsonCustomFieldValuesConformToTheirSchema() {
        String field = "spec_" + uniq().replace('-', '_');
        Map<String, Object> schema = Map.of(
                "type",
                "object",
                "properties",
                Map.of("ports", Map.of("type", "integer")),
                "required",
                List.of("ports"));
        create(
                "/api/extras/custom-fields/",
                Map.of(
                        "name",
                        field,
                        "object_types",
                        List.of("dcim.site"),
                        "type",
                        "json",
                        "validation_schema",
                        schema));
        String u = uniq();
        create(
                "/api/dcim/sites/",
                Map.of("name", "js-" + u, "slug", "js-" + u, "custom_fields", Map.of(field, Map.of("ports", 48))));
        post(
                        "/api/dcim/sites/",
                        Map.of(
                                "name",
                                "jx-" + u,
                                "slug",
                                "jx-" + u,
                                "custom_fields",
                                Map.of(field, Map.of("ports", "many"))))
                .statusCode(400)
                .body(
                        "__all__",
                        hasItem(startsWith("Invalid value for custom field '" + field
                                + "': Value does not conform to the assigned schema: 'many' is not of type")));
        post(
                        "/api/extras/custom-fields/",
                        Map.of(
                                "name",
                                field + "_t",
                                "object_types",
                                List.of("dcim.site"),
                                "type",
                                "text",
                                "validation_schema",
                                schema))
                .statusCode(400)
                .body("validation_schema", contains("JSON schema validation is supported only for JSON fields"));
        post(
                        "/api/extras/custom-fields/",
                        Map.of(
                                "name",
                                field + "_b",
                                "object_types",
                                List.of("dcim.site"),
                                "type",
                                "json",
                                "validation_schema",
                                List.of(1)))
                .statusCode(400)
                .body("validation_schema", contains("Invalid JSON schema definition"));
        auth().get("/api/dcim/sites/?slug=jx-" + u).then().body("count", equalTo(0));
    }
}
