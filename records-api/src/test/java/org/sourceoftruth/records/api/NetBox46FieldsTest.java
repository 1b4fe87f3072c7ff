package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Behaviour NetBox 4.5 and 4.6 added to existing models (see docs/netbox-4.6-api.md). */
@QuarkusTest
class NetBox46FieldsTest {

    /** TaggableModelSerializer's add_tags / remove_tags, on a single and a bulk update, and their rules. */
    @Test
    void addAndRemoveTagsChangeTagsWithoutRestatingThem() {
        String u = uniq();
        for (String t : List.of("a", "b", "c")) {
            create("/api/extras/tags/", Map.of("name", t + "-" + u, "slug", t + "-" + u));
        }
        int site = create(
                "/api/dcim/sites/",
                Map.of("name", "at-" + u, "slug", "at-" + u, "add_tags", List.of(Map.of("slug", "a-" + u))));
        String detail = "/api/dcim/sites/" + site + "/";
        auth().get(detail).then().body("tags.slug", contains("a-" + u));
        auth().body(Map.of("add_tags", List.of(Map.of("slug", "b-" + u), Map.of("slug", "c-" + u))))
                .patch(detail)
                .then()
                .statusCode(200)
                .body("tags.slug", containsInAnyOrder("a-" + u, "b-" + u, "c-" + u));
        auth().body(List.of(Map.of("id", site, "remove_tags", List.of(Map.of("slug", "a-" + u)))))
                .patch("/api/dcim/sites/")
                .then()
                .statusCode(200);
        auth().get(detail).then().body("tags.slug", containsInAnyOrder("b-" + u, "c-" + u));
        // the change record shows the tags as stored
        String request = auth().body(Map.of("remove_tags", List.of(Map.of("slug", "c-" + u))))
                .patch(detail)
                .then()
                .statusCode(200)
                .extract()
                .header("X-Request-ID");
        auth().get("/api/core/object-changes/?request_id=" + request)
                .then()
                .body("results[0].postchange_data.tags", contains("b-" + u));
        auth().body(Map.of("tags", List.of(Map.of("slug", "a-" + u)), "add_tags", List.of(Map.of("slug", "b-" + u))))
                .patch(detail)
                .then()
                .statusCode(400)
                .body("tags", contains("Cannot specify \"tags\" together with \"add_tags\" or \"remove_tags\"."));
        auth().body(Map.of(
                        "add_tags",
                        List.of(Map.of("slug", "a-" + u)),
                        "remove_tags",
                        List.of(Map.of("slug", "a-" + u))))
                .patch(detail)
                .then()
                .statusCode(400)
                .body(
                        "remove_tags",
                        contains("Tags may not be present in both \"add_tags\" and \"remove_tags\": a-" + u));
        post(
                        "/api/dcim/sites/",
                        Map.of("name", "ax-" + u, "slug", "ax-" + u, "remove_tags", List.of(Map.of("slug", "a-" + u))))
                .statusCode(400)
                .body("remove_tags", contains("Cannot use \"remove_tags\" when creating a new object."));
        auth().body(Map.of("add_tags", List.of(Map.of("slug", "no-such-" + u))))
                .patch(detail)
                .then()
                .statusCode(400)
                .body("add_tags.size()", equalTo(1));
        auth().get(detail).then().body("tags.slug", contains("b-" + u));
        // tag__any: any of the tags; tag: all of them
        int other = create(
                "/api/dcim/sites/",
                Map.of("name", "ao-" + u, "slug", "ao-" + u, "tags", List.of(Map.of("slug", "c-" + u))));
        String mine = "/api/dcim/sites/?ordering=id&slug__isw=a&slug__iew=" + u;
        auth().get(mine + "&tag__any=b-" + u + "&tag__any=c-" + u).then().body("results.id", contains(site, other));
        auth().get(mine + "&tag=b-" + u + "&tag=c-" + u).then().body("count", equalTo(0));
    }

    @Test
    void reservationsCountTheirUnitsAndVlanGroupsTheirIds() {
        String u = uniq();
        int site = Api.site("r46");
        int rack = create("/api/dcim/racks/", Map.of("name", "R-" + u, "site", site));
        int user =
                auth().get("/api/users/users/?username=admin").then().extract().path("results[0].id");
        int three = create(
                "/api/dcim/rack-reservations/",
                Map.of("rack", rack, "units", List.of(1, 2, 3), "user", user, "description", "three"));
        int one = create(
                "/api/dcim/rack-reservations/",
                Map.of("rack", rack, "units", List.of(10), "user", user, "description", "one"));
        auth().get("/api/dcim/rack-reservations/" + three + "/").then().body("unit_count", equalTo(3));
        String ofRack = "/api/dcim/rack-reservations/?ordering=id&rack_id=" + rack;
        auth().get(ofRack + "&unit_count_min=2").then().body("results.id", contains(three));
        auth().get(ofRack + "&unit_count_max=2").then().body("results.id", contains(one));

        int group = create(
                "/api/ipam/vlan-groups/",
                Map.of(
                        "name",
                        "vg-" + u,
                        "slug",
                        "vg-" + u,
                        "vid_ranges",
                        List.of(List.of(100, 199), List.of(300, 300))));
        auth().get("/api/ipam/vlan-groups/" + group + "/").then().body("total_vlan_ids", equalTo(101));
        auth().body(Map.of("vid_ranges", List.of(List.of(1, 10))))
                .patch("/api/ipam/vlan-groups/" + group + "/")
                .then()
                .statusCode(200)
                .body("total_vlan_ids", equalTo(10));
        auth().get("/api/ipam/vlan-groups/?total_vlan_ids=10&slug=vg-" + u)
                .then()
                .body("results.id", contains(group));
        auth().get("/api/ipam/vlan-groups/?total_vlan_ids__gt=10&slug=vg-" + u)
                .then()
                .body("count", equalTo(0));
    }

    @Test
    void asnsHaveARoleAndSites() {
        String u = uniq();
        int rir = create("/api/ipam/rirs/", Map.of("name", "rir-" + u, "slug", "rir-" + u));
        int role = create("/api/ipam/roles/", Map.of("name", "transit-" + u, "slug", "transit-" + u));
        int site = Api.site("asn46");
        long number = 4_200_000_000L + Math.floorMod(u.hashCode(), 90_000_000);
        int asn = create("/api/ipam/asns/", Map.of("asn", number, "rir", rir, "role", role, "sites", List.of(site)));
        auth().get("/api/ipam/asns/" + asn + "/")
                .then()
                .body("role.id", equalTo(role))
                .body("sites.id", contains(site))
                .body("sites[0].keySet()", containsInAnyOrder("id", "url", "display", "name", "description", "slug"))
                .body("site_count", equalTo(1));
        auth().get("/api/dcim/sites/" + site + "/").then().body("asns.id", contains(asn));
        auth().get("/api/ipam/asns/?role_id=" + role).then().body("results.id", contains(asn));
        auth().get("/api/ipam/asns/?role=transit-" + u).then().body("results.id", contains(asn));
        auth().get("/api/ipam/roles/" + role + "/").then().body("asn_count", equalTo(1));
        auth().delete("/api/ipam/roles/" + role + "/").then().statusCode(204);
        auth().get("/api/ipam/asns/" + asn + "/").then().body("role", equalTo(null));
    }

    @Test
    void powerOutletTemplatesGiveTheirColorToTheirOutlets() {
        String u = uniq();
        int[] typeAndRole = Api.deviceTypeAndRole();
        int template = create(
                "/api/dcim/power-outlet-templates/",
                Map.of("device_type", typeAndRole[0], "name", "out-" + u, "type", "iec-60320-c13", "color", "ff0000"));
        auth().get("/api/dcim/power-outlet-templates/" + template + "/").then().body("color", equalTo("ff0000"));
        int device = Api.device(Api.site("poc"), typeAndRole, "pdu-" + u);
        auth().get("/api/dcim/power-outlets/?device_id=" + device).then().body("results.color", contains("ff0000"));
        post(
                        "/api/dcim/power-outlet-templates/",
                        Map.of("device_type", typeAndRole[0], "name", "bad-" + u, "color", "red"))
                .statusCode(400)
                .body("color", contains("Enter a valid hexadecimal RGB color code."));
    }
}
