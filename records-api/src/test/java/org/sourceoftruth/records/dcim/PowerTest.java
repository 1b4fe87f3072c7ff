package org.sourceoftruth.records.dcim;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Power panels and power feeds as NetBox's: site rules, voltage rules, counts, filters through the panel. */
@QuarkusTest
class PowerTest {

    @Test
    void feedsOfAPanelAreCountedAndFilteredThroughThePanelsSite() {
        String u = uniq();
        int region = create("/api/dcim/regions/", Map.of("name", "pr-" + u, "slug", "pr-" + u));
        int site = create("/api/dcim/sites/", Map.of("name", "ps-" + u, "slug", "ps-" + u, "region", region));
        int rack = create("/api/dcim/racks/", Map.of("name", "R1", "site", site));
        int panel = create("/api/dcim/power-panels/", Map.of("site", site, "name", "Panel " + u));
        int feed = create(
                "/api/dcim/power-feeds/",
                Map.of(
                        "power_panel",
                        panel,
                        "rack",
                        rack,
                        "name",
                        "Feed A",
                        "phase",
                        "three-phase",
                        "voltage",
                        208,
                        "amperage",
                        30,
                        "max_utilization",
                        80));
        create("/api/dcim/power-feeds/", Map.of("power_panel", panel, "name", "Feed B", "type", "redundant"));

        auth().get("/api/dcim/power-feeds/" + feed + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("Feed A"))
                .body("status.value", equalTo("active"))
                .body("phase.label", equalTo("Three-phase"))
                .body("supply.value", equalTo("ac"))
                .body("power_panel.id", equalTo(panel))
                .body("rack.id", equalTo(rack))
                .body("cable", nullValue())
                .body("_occupied", equalTo(false))
                .body("link_peers", equalTo(List.of()))
                .body("connected_endpoints", nullValue())
                // no path: NetBox 4.6's serializer answers False
                .body("connected_endpoints_reachable", equalTo(false));
        auth().get("/api/dcim/power-panels/" + panel + "/").then().body("powerfeed_count", equalTo(2));
        auth().get("/api/dcim/racks/" + rack + "/").then().body("powerfeed_count", equalTo(1));
        auth().get("/api/dcim/power-feeds/?site_id=" + site).then().body("count", equalTo(2));
        auth().get("/api/dcim/power-feeds/?region=pr-" + u + "&type=redundant")
                .then()
                .body("results.name", contains("Feed B"));
        // 208 V x 30 A x 80 % x sqrt(3) = 8,646 VA
        auth().get("/api/dcim/power-feeds/?power_panel_id=" + panel + "&available_power=8646")
                .then()
                .body("results.name", contains("Feed A"));
        auth().get("/api/dcim/power-feeds/?power_panel_id=" + panel + "&available_power__lt=8646")
                .then()
                .body("results.name", contains("Feed B"));
        auth().get("/api/dcim/power-feeds/?q=Panel " + u).then().body("count", equalTo(2));

        // the panel is protected while it feeds something
        auth().delete("/api/dcim/power-panels/" + panel + "/").then().statusCode(409);
        post("/api/dcim/power-feeds/", Map.of("power_panel", panel, "name", "Feed A"))
                .statusCode(400)
                .body("__all__", hasItem("Power feed with this Power panel and Name already exists."));
    }

    @Test
    void netBoxsModelRulesAreFieldErrors() {
        String u = uniq();
        int site = create("/api/dcim/sites/", Map.of("name", "pa-" + u, "slug", "pa-" + u));
        int other = create("/api/dcim/sites/", Map.of("name", "pb-" + u, "slug", "pb-" + u));
        int elsewhere = create("/api/dcim/locations/", Map.of("name", "L " + u, "slug", "l-" + u, "site", other));
        post("/api/dcim/power-panels/", Map.of("site", site, "location", elsewhere, "name", "P"))
                .statusCode(400)
                .body("__all__[0]", equalTo("Location L " + u + " (pb-" + u + ") is in a different site than pa-" + u));
        int panel = create("/api/dcim/power-panels/", Map.of("site", site, "name", "P"));
        int foreignRack = create("/api/dcim/racks/", Map.of("name", "R9", "site", other));
        post("/api/dcim/power-feeds/", Map.of("power_panel", panel, "rack", foreignRack, "name", "F"))
                .statusCode(400)
                .body("__all__[0]", containsString("are in different sites"));
        post("/api/dcim/power-feeds/", Map.of("power_panel", panel, "name", "F", "voltage", 0))
                .statusCode(400)
                .body("voltage", contains("This value may not be 0."));
        post("/api/dcim/power-feeds/", Map.of("power_panel", panel, "name", "F", "voltage", -48))
                .statusCode(400)
                .body("voltage", contains("Voltage cannot be negative for AC supply"));
        create("/api/dcim/power-feeds/", Map.of("power_panel", panel, "name", "F", "voltage", -48, "supply", "dc"));
        post("/api/dcim/power-feeds/", Map.of("power_panel", panel, "name", "G", "max_utilization", 101))
                .statusCode(400)
                .body("max_utilization", contains("Ensure this value is less than or equal to 100."));
        auth().get("/api/dcim/power-feeds/?power_panel_id=" + panel).then().body("count", equalTo(1));
    }
}
