package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * NetBox 4.6's rack groups (a rack's {@code group}, with the rack, rack reservation and VLAN
 * group filters that follow it) and cable bundles (their cable count, cleared on delete).
 */
@QuarkusTest
class RackGroupsAndCableBundlesTest {
    @Inject
    DataSource dataSource;

    @Test
    void racksJoinARackGroup() {
        String u = uniq();
        int group = create("/api/dcim/rack-groups/", Map.of("name", "row-" + u, "slug", "row-" + u, "comments", "c"));
        int site = Api.site("rg");
        int rack = create("/api/dcim/racks/", Map.of("name", "r1", "site", site, "group", group));
        int loose = create("/api/dcim/racks/", Map.of("name", "r2", "site", site));
        auth().get("/api/dcim/racks/" + rack + "/")
                .then()
                .statusCode(200)
                .body("group.id", equalTo(group))
                .body("group.keySet()", containsInAnyOrder("id", "url", "display", "name", "slug", "description"));
        auth().get("/api/dcim/rack-groups/" + group + "/")
                .then()
                .statusCode(200)
                .body("rack_count", equalTo(1))
                .body("comments", equalTo("c"))
                .body("owner", nullValue());
        String ofSite = "/api/dcim/racks/?site_id=" + site;
        auth().get(ofSite + "&group_id=" + group).then().body("results.id", contains(rack));
        auth().get(ofSite + "&group=row-" + u).then().body("results.id", contains(rack));
        auth().get(ofSite + "&group_id__n=" + group).then().body("results.id", contains(loose));
        int user =
                auth().get("/api/users/users/?username=admin").then().extract().path("results[0].id");
        int reservation = create(
                "/api/dcim/rack-reservations/",
                Map.of("rack", rack, "units", List.of(1, 2), "user", user, "description", "held"));
        auth().get("/api/dcim/rack-reservations/?group_id=" + group)
                .then()
                .statusCode(200)
                .body("results.id", contains(reservation));
        auth().get("/api/dcim/rack-reservations/?group=row-" + u)
                .then()
                .statusCode(200)
                .body("results.id", contains(reservation));
        // a VLAN group may be scoped to a rack group
        int vlanGroup = create(
                "/api/ipam/vlan-groups/",
                Map.of("name", "vg-" + u, "slug", "vg-" + u, "scope_type", "dcim.rackgroup", "scope_id", group));
        auth().get("/api/ipam/vlan-groups/?rack_group=" + group)
                .then()
                .statusCode(200)
                .body("results.id", contains(vlanGroup));
        // a group with racks is protected
        auth().delete("/api/dcim/rack-groups/" + group + "/").then().statusCode(409);
        auth().body(Map.of("name", "row-" + u, "slug", "other-" + u))
                .post("/api/dcim/rack-groups/")
                .then()
                .statusCode(400)
                .body("name", contains("rack group with this name already exists."));
    }

    @Test
    void aCableBundleCountsItsCablesAndIsClearedOnDelete() throws SQLException {
        String u = uniq();
        int bundle = create("/api/dcim/cable-bundles/", Map.of("name", "bundle-" + u, "description", "trunk"));
        int site = Api.site("cb");
        int device = Api.device(site, Api.deviceTypeAndRole(), "cb-" + u);
        int a = create("/api/dcim/interfaces/", Map.of("device", device, "name", "a", "type", "1000base-t"));
        int b = create("/api/dcim/interfaces/", Map.of("device", device, "name", "b", "type", "1000base-t"));
        int cable = create(
                "/api/dcim/cables/",
                Map.of(
                        "a_terminations", List.of(Map.of("object_type", "dcim.interface", "object_id", a)),
                        "b_terminations", List.of(Map.of("object_type", "dcim.interface", "object_id", b))));
        // the cable's side of the relation (its bundle field) is declared with the cables
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("update dcim_cable set bundle_id = ? where id = ?")) {
            ps.setLong(1, bundle);
            ps.setLong(2, cable);
            ps.executeUpdate();
        }
        auth().get("/api/dcim/cable-bundles/" + bundle + "/")
                .then()
                .statusCode(200)
                .body("cable_count", equalTo(1))
                .body("description", equalTo("trunk"));
        auth().get("/api/dcim/cable-bundles/?brief=1&name=bundle-" + u)
                .then()
                .statusCode(200)
                .body("results[0].keySet()", containsInAnyOrder("id", "url", "display", "name", "description"));
        auth().delete("/api/dcim/cable-bundles/" + bundle + "/").then().statusCode(204);
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select bundle_id from dcim_cable where id = ?")) {
            ps.setLong(1, cable);
            try (var rs = ps.executeQuery()) {
                rs.next();
                org.junit.jupiter.api.Assertions.assertNull(rs.getObject(1));
            }
        }
    }
}
