package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Create, read, update, delete, bulk atomicity, relations, uniqueness and ETags on the engine. */
@QuarkusTest
class EngineWriteTest {

    @Test
    void crudOfOrganizationalTreeAndDcimModels() {
        String u = uniq();
        int tg = create("/api/tenancy/tenant-groups/", Map.of("name", "tg-" + u, "slug", "tg-" + u));
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "t-" + u, "slug", "t-" + u, "group", tg));
        int site = create(
                "/api/dcim/sites/",
                Map.of(
                        "name",
                        "s-" + u,
                        "slug",
                        "s-" + u,
                        "tenant",
                        tenant,
                        "status",
                        "planned",
                        "facility",
                        "Building 7"));
        auth().get("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .body("status.value", equalTo("planned"))
                .body("status.label", equalTo("Planned"))
                .body("tenant.id", equalTo(tenant))
                .body("tenant.url", containsString("/api/tenancy/tenants/" + tenant + "/"))
                .body("facility", equalTo("Building 7"))
                .body("display", equalTo("s-" + u))
                .body("custom_fields", org.hamcrest.Matchers.instanceOf(Map.class))
                .body("tags", hasSize(0));
        auth().body(Map.of("description", "patched"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .body("description", equalTo("patched"))
                .body("name", equalTo("s-" + u));
        // PUT needs every required field
        auth().body(Map.of("description", "x"))
                .put("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(400)
                .body("name", contains("This field is required."))
                .body("slug", contains("This field is required."));
        auth().body(Map.of("name", "s2-" + u, "slug", "s2-" + u))
                .put("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .body("name", equalTo("s2-" + u))
                .body("description", equalTo("patched"));
        // the tenant is protected while a site uses it
        auth().delete("/api/tenancy/tenants/" + tenant + "/")
                .then()
                .statusCode(409)
                .body("detail", startsWith("Unable to delete object. 1 dependent objects were found: s2-" + u));
        auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        auth().get("/api/dcim/sites/" + site + "/").then().statusCode(404);
        auth().delete("/api/tenancy/tenants/" + tenant + "/").then().statusCode(204);
    }

    @Test
    void deviceWithInterfacesAndDeprecatedRoleAlias() {
        int site = Api.site("dev");
        int[] tr = Api.deviceTypeAndRole();
        String name = "dev-" + uniq();
        int dev = create(
                "/api/dcim/devices/", Map.of("name", name, "site", site, "device_type", tr[0], "device_role", tr[1]));
        auth().get("/api/dcim/devices/" + dev + "/")
                .then()
                .statusCode(200)
                .body("role.id", equalTo(tr[1]))
                .body("display_name", equalTo(name))
                .body("device_type.manufacturer.slug", startsWith("mfr-"));
        int eth = create(
                "/api/dcim/interfaces/",
                Map.of(
                        "device",
                        dev,
                        "name",
                        "eth0",
                        "type",
                        "10gbase-x-sfpp",
                        "mtu",
                        9000,
                        "mac_address",
                        "00:11:22:33:44:55",
                        "mode",
                        "access"));
        auth().get("/api/dcim/interfaces/" + eth + "/")
                .then()
                .statusCode(200)
                .body("device.display_name", equalTo(name))
                .body("type.label", equalTo("SFP+ (10GE)"))
                .body("mtu", equalTo(9000))
                .body("enabled", equalTo(true))
                .body("mode.value", equalTo("access"));
        // (device, name) is unique
        Api.post("/api/dcim/interfaces/", Map.of("device", dev, "name", "eth0", "type", "virtual"))
                .statusCode(400)
                .body("__all__", contains("Interface with this Device and Name already exists."));
        // device names are unique per site, case-insensitively
        Api.post(
                        "/api/dcim/devices/",
                        Map.of("name", name.toUpperCase(), "site", site, "device_type", tr[0], "role", tr[1]))
                .statusCode(400)
                .body("__all__", contains("Device name must be unique per site."));
        // deleting the device cascades to its interfaces
        auth().delete("/api/dcim/devices/" + dev + "/").then().statusCode(204);
        auth().get("/api/dcim/interfaces/" + eth + "/").then().statusCode(404);
    }

    @Test
    void relationsByAttributesMustMatchExactlyOne() {
        String u = uniq();
        int parentA = create("/api/dcim/regions/", Map.of("name", "A-" + u, "slug", "a-" + u));
        int parentB = create("/api/dcim/regions/", Map.of("name", "B-" + u, "slug", "b-" + u));
        create("/api/dcim/regions/", Map.of("name", "same-" + u, "slug", "same-a-" + u, "parent", parentA));
        create("/api/dcim/regions/", Map.of("name", "same-" + u, "slug", "same-b-" + u, "parent", parentB));
        // by attributes, nested: exactly one
        int site = create(
                "/api/dcim/sites/",
                Map.of(
                        "name",
                        "s-" + u,
                        "slug",
                        "s-" + u,
                        "region",
                        Map.of("name", "same-" + u, "parent", Map.of("slug", "b-" + u))));
        auth().get("/api/dcim/sites/" + site + "/")
                .then()
                .body("region.slug", equalTo("same-b-" + u))
                .body("region._depth", equalTo(1));
        // two matches
        Api.post("/api/dcim/sites/", Map.of("name", "t-" + u, "slug", "t-" + u, "region", Map.of("name", "same-" + u)))
                .statusCode(400)
                .body("region", contains("Multiple objects match the provided attributes: {'name': 'same-" + u + "'}"));
        // no match
        Api.post("/api/dcim/sites/", Map.of("name", "t-" + u, "slug", "t-" + u, "region", Map.of("slug", "nope-" + u)))
                .statusCode(400)
                .body(
                        "region",
                        contains("Related object not found using the provided attributes: {'slug': 'nope-" + u + "'}"));
        Api.post("/api/dcim/sites/", Map.of("name", "t-" + u, "slug", "t-" + u, "region", 99999999))
                .statusCode(400)
                .body("region", contains("Related object not found using the provided numeric ID: 99999999"));
        auth().get("/api/dcim/sites/?name=t-" + u).then().body("count", equalTo(0));
    }

    @Test
    void uniquenessAndValidationMessages() {
        String u = uniq();
        create("/api/dcim/sites/", Map.of("name", "u-" + u, "slug", "u-" + u));
        Api.post("/api/dcim/sites/", Map.of("name", "u-" + u, "slug", "u-" + u))
                .statusCode(400)
                .body("name", contains("site with this name already exists."))
                .body("slug", contains("site with this slug already exists."));
        Api.post(
                        "/api/dcim/sites/",
                        Map.of("name", "v-" + u, "slug", "bad slug", "status", "nope", "latitude", "north"))
                .statusCode(400)
                .body(
                        "slug",
                        contains("Enter a valid \"slug\" consisting of letters, numbers, underscores or hyphens."))
                .body("status", contains("\"nope\" is not a valid choice."))
                .body("latitude", contains("A valid number is required."));
        Api.post("/api/dcim/sites/", Map.of("name", "w-" + u, "slug", "w-" + u, "status", Map.of("value", "active")))
                .statusCode(400)
                .body(
                        "status",
                        contains(
                                "Value must be passed directly (e.g. \"foo\": 123); do not use a dictionary or list."));
        create("/api/dcim/regions/", Map.of("name", "top-" + u, "slug", "top-" + u));
        Api.post("/api/dcim/regions/", Map.of("name", "top-" + u, "slug", "top2-" + u))
                .statusCode(400)
                .body("__all__", contains("A top-level region with this name already exists."));
    }

    @Test
    void bulkCreateUpdateDeleteAreAllOrNothing() {
        String u = uniq();
        List<Map<String, Object>> sites = List.of(
                Map.of("name", "b1-" + u, "slug", "b1-" + u),
                Map.of("name", "b2-" + u, "slug", "b2-" + u),
                Map.of("name", "b3-" + u, "slug", "b3-" + u));
        List<Integer> ids = Api.post("/api/dcim/sites/", sites)
                .statusCode(201)
                .body("name", contains("b1-" + u, "b2-" + u, "b3-" + u))
                .extract()
                .path("id");
        // one bad element: nothing created, errors aligned with the input
        Api.post("/api/dcim/sites/", List.of(Map.of("name", "b4-" + u, "slug", "b4-" + u), Map.of("name", "b5-" + u)))
                .statusCode(400)
                .body("[0]", equalTo(Map.of()))
                .body("[1].slug", contains("This field is required."));
        auth().get("/api/dcim/sites/?name=b4-" + u).then().body("count", equalTo(0));
        // bulk PATCH with different attributes per object
        auth().body(List.of(Map.of("id", ids.get(0), "description", "one"), Map.of("id", ids.get(1), "facility", "F2")))
                .patch("/api/dcim/sites/")
                .then()
                .statusCode(200)
                .body("description", contains("one", ""))
                .body("facility", contains("", "F2"));
        // one invalid element aborts the whole bulk update
        auth().body(List.of(
                        Map.of("id", ids.get(0), "description", "changed"),
                        Map.of("id", ids.get(1), "status", "bogus")))
                .patch("/api/dcim/sites/")
                .then()
                .statusCode(400)
                .body("[1].status", contains("\"bogus\" is not a valid choice."));
        auth().get("/api/dcim/sites/" + ids.get(0) + "/").then().body("description", equalTo("one"));
        auth().body(List.of(Map.of("description", "no id")))
                .patch("/api/dcim/sites/")
                .then()
                .statusCode(400)
                .body("[0].id", contains("This field is required."));
        // bulk delete blocked by one protected object deletes nothing
        int[] tr = Api.deviceTypeAndRole();
        Api.device(ids.get(2), tr, "blocker-" + u);
        auth().body(List.of(Map.of("id", ids.get(0)), Map.of("id", ids.get(2))))
                .delete("/api/dcim/sites/")
                .then()
                .statusCode(409);
        auth().get("/api/dcim/sites/?name=b1-" + u).then().body("count", equalTo(1));
        auth().body(List.of(Map.of("id", ids.get(0)), Map.of("id", ids.get(1))))
                .delete("/api/dcim/sites/")
                .then()
                .statusCode(204);
        auth().get("/api/dcim/sites/?name=b1-" + u + "&name=b2-" + u).then().body("count", equalTo(0));
    }

    @Test
    void tagsAndCustomFields() {
        String u = uniq();
        int tag = create("/api/extras/tags/", Map.of("name", "Tag " + u, "slug", "tag-" + u, "color", "ff0000"));
        Api.post("/api/extras/tags/", Map.of("name", "bad-" + u, "slug", "bad-" + u, "color", "#ff0000"))
                .statusCode(400)
                .body("color", hasItem("Ensure this field has no more than 6 characters."));
        String cf = "cf_" + u.replace("-", "");
        create(
                "/api/extras/custom-fields/",
                Map.of(
                        "name",
                        cf,
                        "object_types",
                        List.of("dcim.site"),
                        "type",
                        "integer",
                        "validation_maximum",
                        100,
                        "default",
                        5));
        Api.post(
                        "/api/extras/custom-fields/",
                        Map.of("name", "x" + cf, "object_types", List.of("dcim.nothing"), "type", "text"))
                .statusCode(400)
                .body("object_types", contains("Invalid content type: dcim.nothing"));
        int site = create(
                "/api/dcim/sites/",
                Map.of("name", "cf-" + u, "slug", "cf-" + u, "tags", List.of(tag, Map.of("slug", "tag-" + u))));
        auth().get("/api/dcim/sites/" + site + "/")
                .then()
                .body("custom_fields." + cf, equalTo(5))
                .body("tags", hasSize(1))
                .body("tags[0].slug", equalTo("tag-" + u))
                .body("tags[0].color", equalTo("ff0000"));
        auth().body(Map.of("custom_fields", Map.of(cf, 500)))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(400)
                .body("__all__", contains("Invalid value for custom field '" + cf + "': Value must not exceed 100"));
        auth().body(Map.of("custom_fields", Map.of("nope_" + u, 1)))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(400);
        auth().body(Map.of("custom_fields", Map.of(cf, 7), "tags", List.of()))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .body("custom_fields." + cf, equalTo(7))
                .body("tags", hasSize(0));
        auth().get("/api/extras/tags/" + tag + "/").then().body("tagged_items", equalTo(0));
    }

    @Test
    void etagAndIfMatch() {
        int site = Api.site("etag");
        String etag = auth().get("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .extract()
                .header("ETag");
        org.junit.jupiter.api.Assertions.assertTrue(etag.startsWith("W/\""), etag);
        auth().header("If-Match", "W/\"1999-01-01T00:00:00.000000+00:00\"")
                .body(Map.of("description", "x"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(412)
                .body("detail", equalTo("Precondition failed."))
                .header("ETag", etag);
        String newTag = auth().header("If-Match", etag)
                .body(Map.of("description", "y"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .extract()
                .header("ETag");
        auth().header("If-Match", etag)
                .delete("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(412);
        auth().header("If-Match", newTag)
                .delete("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(204);
    }

    @Test
    void optionsListsChoicesForWriters() {
        auth().options("/api/dcim/sites/")
                .then()
                .statusCode(200)
                .body("name", equalTo("Site List"))
                .body("actions.POST.status.choices.value", hasItem("active"))
                .body("actions.POST.status.choices.display_name", hasItem("Decommissioning"))
                .body("actions.POST.name.required", equalTo(true))
                .body("actions.POST.id.read_only", equalTo(true));
        auth().options("/api/dcim/interfaces/")
                .then()
                .statusCode(200)
                .body(
                        "actions.POST.type.choices.find { it.value == '10gbase-x-sfpp' }.display_name",
                        equalTo("SFP+ (10GE)"));
    }

    @Test
    void bulkCreateAnswersInRequestOrder() {
        String u = uniq();
        List<Integer> ids = Api.post(
                        "/api/dcim/manufacturers/",
                        List.of(Map.of("name", "z-" + u, "slug", "z-" + u), Map.of("name", "a-" + u, "slug", "a-" + u)))
                .statusCode(201)
                .extract()
                .path("id");
        assertEquals(2, ids.size());
        org.junit.jupiter.api.Assertions.assertTrue(ids.get(0) < ids.get(1));
        auth().get("/api/dcim/manufacturers/" + ids.get(0) + "/")
                .then()
                .body("name", equalTo("z-" + u))
                .body("devicetype_count", equalTo(0))
                .body("description", equalTo(""))
                .body("custom_fields", org.hamcrest.Matchers.instanceOf(Map.class))
                .body(
                        "created",
                        org.hamcrest.Matchers.matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"));
        auth().get("/api/dcim/manufacturers/" + ids.get(0) + "/?brief=1")
                .then()
                .body("created", nullValue())
                .body("name", equalTo("z-" + u));
    }
}
