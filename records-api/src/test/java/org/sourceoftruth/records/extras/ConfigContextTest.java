package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Rendered config contexts on devices and VMs: which contexts apply, merge order (weight, then
 * name; deeper keys merged, later wins), local_context_data on top, exclude=config_context.
 * Every context here is assigned to something only this test owns, so contexts of other tests
 * never apply to these objects and these never apply to theirs.
 */
@QuarkusTest
class ConfigContextTest {

    private static int context(String name, int weight, Map<String, Object> data, Map<String, Object> assignments) {
        Map<String, Object> body = new HashMap<>(assignments);
        body.put("name", name);
        body.put("weight", weight);
        body.put("data", data);
        return create("/api/extras/config-contexts/", body);
    }

    @Test
    void deviceContextMergesByWeightThenNameWithLocalDataOnTop() {
        String u = uniq();
        int parentRegion = create("/api/dcim/regions/", Map.of("name", "cc-r-" + u, "slug", "cc-r-" + u));
        int region = create(
                "/api/dcim/regions/", Map.of("name", "cc-r2-" + u, "slug", "cc-r2-" + u, "parent", parentRegion));
        int site = create("/api/dcim/sites/", Map.of("name", "cc-s-" + u, "slug", "cc-s-" + u, "region", region));
        int otherSite = Api.site("cc-other");
        int tag = create("/api/extras/tags/", Map.of("name", "cc-t-" + u, "slug", "cc-t-" + u));
        create("/api/extras/tags/", Map.of("name", "cc-t2-" + u, "slug", "cc-t2-" + u));
        int[] typeAndRole = Api.deviceTypeAndRole();
        int device = create(
                "/api/dcim/devices/",
                Map.of(
                        "name",
                        "cc-d-" + u,
                        "site",
                        site,
                        "device_type",
                        typeAndRole[0],
                        "role",
                        typeAndRole[1],
                        "tags",
                        List.of(tag)));

        // matched through the ancestor region, the lightest: applied first
        context(
                "cc-1-" + u,
                100,
                Map.of("a", 1, "nested", Map.of("x", 1, "y", 1), "list", List.of(1, 2)),
                Map.of("regions", List.of(parentRegion)));
        // same weight: name order decides, so cc-3 overrides cc-2's "b"
        context("cc-2-" + u, 200, Map.of("nested", Map.of("y", 2, "z", 2), "b", 2), Map.of("regions", List.of(region)));
        context("cc-3-" + u, 200, Map.of("b", 3, "list", List.of(9)), Map.of("sites", List.of(site)));
        // not for this device: another site, inactive, a tag it does not carry
        context("cc-4-" + u, 50, Map.of("a", 99), Map.of("sites", List.of(otherSite)));
        Map<String, Object> inactive = new HashMap<>(Map.of("sites", List.of(site), "is_active", false));
        context("cc-5-" + u, 900, Map.of("a", 100), inactive);
        context("cc-6-" + u, 1000, Map.of("t", true), Map.of("tags", List.of("cc-t-" + u), "sites", List.of(site)));
        context("cc-7-" + u, 1000, Map.of("t2", true), Map.of("tags", List.of("cc-t2-" + u), "sites", List.of(site)));

        Map<String, Object> expected =
                Map.of("a", 1, "nested", Map.of("x", 1, "y", 2, "z", 2), "list", List.of(9), "b", 3, "t", true);
        Map<String, Object> rendered = auth().get("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(200)
                .extract()
                .path("config_context");
        assertEquals(expected, rendered);

        // local context data is merged last
        auth().body(Map.of("local_context_data", Map.of("a", "local", "nested", Map.of("x", "L"))))
                .patch("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(200)
                .body("config_context.a", equalTo("local"))
                .body("config_context.nested.x", equalTo("L"))
                .body("config_context.nested.y", equalTo(2))
                .body("local_context_data.a", equalTo("local"));
        auth().body(Map.of("local_context_data", List.of(1)))
                .patch("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(400)
                .body("local_context_data", contains("JSON data must be in object form. Example: {\"foo\": 123}"));

        // exclude=config_context drops it, on details and lists; brief never has it
        auth().get("/api/dcim/devices/" + device + "/?exclude=config_context")
                .then()
                .statusCode(200)
                .body("$", not(hasKey("config_context")))
                .body("local_context_data.a", equalTo("local"));
        auth().get("/api/dcim/devices/?id=" + device + "&exclude=config_context")
                .then()
                .body("results[0]", not(hasKey("config_context")));
        auth().get("/api/dcim/devices/?id=" + device).then().body("results[0].config_context.b", equalTo(3));
        auth().get("/api/dcim/devices/?id=" + device + "&brief=1")
                .then()
                .body("results[0]", not(hasKey("config_context")));
        // weights can be changed: the heavier context now wins
        int first = auth().get("/api/extras/config-contexts/?name=cc-1-" + u)
                .then()
                .extract()
                .path("results[0].id");
        auth().body(Map.of("weight", 5000))
                .patch("/api/extras/config-contexts/" + first + "/")
                .then()
                .statusCode(200);
        auth().get("/api/dcim/devices/" + device + "/").then().body("config_context.list", equalTo(List.of(1, 2)));
    }

    @Test
    void configContextRepresentationAndFilters() {
        String u = uniq();
        int site = Api.site("ccf");
        int tag = create("/api/extras/tags/", Map.of("name", "ccf-" + u, "slug", "ccf-" + u));
        int id = context("ccf-" + u, 10, Map.of("k", "v"), Map.of("sites", List.of(site), "tags", List.of("ccf-" + u)));
        auth().get("/api/extras/config-contexts/" + id + "/")
                .then()
                .statusCode(200)
                .body("name", equalTo("ccf-" + u))
                .body("weight", equalTo(10))
                .body("is_active", equalTo(true))
                .body("sites[0].id", equalTo(site))
                .body("regions", equalTo(List.of()))
                .body("tags", contains("ccf-" + u))
                .body("data.k", equalTo("v"));
        auth().get("/api/extras/config-contexts/?site_id=" + site).then().body("count", equalTo(1));
        auth().get("/api/extras/config-contexts/?tag=ccf-" + u).then().body("count", equalTo(1));
        auth().get("/api/extras/tags/" + tag + "/").then().body("tagged_items", equalTo(1));
        post("/api/extras/config-contexts/", Map.of("name", "bad-" + u, "data", List.of(1, 2)))
                .statusCode(400)
                .body("data", contains("JSON data must be in object form. Example: {\"foo\": 123}"));
        post("/api/extras/config-contexts/", Map.of("name", "bad-" + u))
                .statusCode(400)
                .body("data", contains("This field is required."));
        post("/api/extras/config-contexts/", Map.of("name", "bad-" + u, "data", Map.of(), "tags", List.of("nope-" + u)))
                .statusCode(400)
                .body("tags", contains("Object with slug=nope-" + u + " does not exist."));
        post("/api/extras/config-contexts/", Map.of("name", "bad-" + u, "data", Map.of(), "sites", List.of(999999999)))
                .statusCode(400)
                .body("sites", contains("Invalid pk \"999999999\" - object does not exist."));
        auth().get("/api/extras/config-contexts/?name=bad-" + u).then().body("count", equalTo(0));
    }

    @Test
    void virtualMachinesGetTheirContextToo() {
        String u = uniq();
        int type = create("/api/virtualization/cluster-types/", Map.of("name", "ccv-" + u, "slug", "ccv-" + u));
        int cluster = create("/api/virtualization/clusters/", Map.of("name", "ccv-" + u, "type", type));
        int vm = create(
                "/api/virtualization/virtual-machines/",
                Map.of("name", "ccv-" + u, "cluster", cluster, "local_context_data", Map.of("dns", "10.0.0.53")));
        context("ccv-1-" + u, 10, Map.of("ntp", "pool", "dns", "1.1.1.1"), Map.of("clusters", List.of(cluster)));
        context("ccv-2-" + u, 20, Map.of("syslog", "x"), Map.of("cluster_types", List.of(type)));
        // a device-type assignment never matches a VM
        context(
                "ccv-3-" + u,
                30,
                Map.of("no", true),
                Map.of("clusters", List.of(cluster), "device_types", List.of(Api.deviceTypeAndRole()[0])));
        Map<String, Object> rendered = auth().get("/api/virtualization/virtual-machines/" + vm + "/")
                .then()
                .statusCode(200)
                .extract()
                .path("config_context");
        assertEquals(Map.of("ntp", "pool", "dns", "10.0.0.53", "syslog", "x"), rendered);
        auth().get("/api/virtualization/virtual-machines/?id=" + vm + "&exclude=config_context")
                .then()
                .body("results[0]", not(hasKey("config_context")));
    }
}
