package org.sourceoftruth.records.circuits;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Providers, circuit types, circuits and their A/Z terminations. */
@QuarkusTest
class CircuitsTest {

    @Test
    void circuitWithTerminationsOnSitesAndRegions() {
        String u = uniq();
        int provider = create("/api/circuits/providers/", Map.of("name", "P " + u, "slug", "p-" + u));
        int type =
                create("/api/circuits/circuit-types/", Map.of("name", "T " + u, "slug", "t-" + u, "color", "aa1409"));
        int region = create("/api/dcim/regions/", Map.of("name", "cr-" + u, "slug", "cr-" + u));
        int site = create("/api/dcim/sites/", Map.of("name", "cs-" + u, "slug", "cs-" + u, "region", region));
        int circuit = create(
                "/api/circuits/circuits/",
                Map.of(
                        "cid",
                        "CID-" + u,
                        "provider",
                        provider,
                        "type",
                        type,
                        "commit_rate",
                        10000,
                        "install_date",
                        "2024-01-31",
                        "distance",
                        12.5,
                        "distance_unit",
                        "km"));
        auth().get("/api/circuits/circuits/" + circuit + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("CID-" + u))
                .body("status.value", equalTo("active"))
                .body("provider.slug", equalTo("p-" + u))
                .body("type.slug", equalTo("t-" + u))
                .body("distance", equalTo(12.5f))
                .body("distance_unit.label", equalTo("Kilometers"))
                .body("termination_a", nullValue())
                .body("termination_z", nullValue());
        auth().get("/api/circuits/circuits/" + circuit + "/?brief=1")
                .then()
                .body("cid", equalTo("CID-" + u))
                .body("provider.id", equalTo(provider));
        int a = create(
                "/api/circuits/circuit-terminations/",
                Map.of(
                        "circuit",
                        circuit,
                        "term_side",
                        "A",
                        "termination_type",
                        "dcim.site",
                        "termination_id",
                        site,
                        "port_speed",
                        1000000,
                        "xconnect_id",
                        "XC1"));
        create(
                "/api/circuits/circuit-terminations/",
                Map.of(
                        "circuit",
                        circuit,
                        "term_side",
                        "Z",
                        "termination_type",
                        "dcim.region",
                        "termination_id",
                        region));
        auth().get("/api/circuits/circuit-terminations/" + a + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("CID-" + u + ": Termination A"))
                .body("term_side", equalTo("A"))
                .body("termination_type", equalTo("dcim.site"))
                .body("termination.slug", equalTo("cs-" + u))
                .body("circuit.cid", equalTo("CID-" + u))
                .body("cable", nullValue())
                .body("_occupied", equalTo(false))
                .body("link_peers", equalTo(List.of()));
        auth().get("/api/circuits/circuits/" + circuit + "/")
                .then()
                .body("termination_a.id", equalTo(a))
                .body("termination_a.termination_type", equalTo("dcim.site"))
                .body("termination_a.termination.id", equalTo(site))
                .body("termination_a.port_speed", equalTo(1000000))
                .body("termination_a.xconnect_id", equalTo("XC1"))
                .body("termination_z.termination_type", equalTo("dcim.region"));
        auth().get("/api/circuits/circuits/?site_id=" + site).then().body("count", equalTo(1));
        auth().get("/api/circuits/circuits/?region=cr-" + u).then().body("count", equalTo(1));
        auth().get("/api/circuits/circuit-terminations/?site_id=" + site).then().body("count", equalTo(1));
        auth().get("/api/circuits/circuit-terminations/?circuit_id=" + circuit + "&term_side=Z")
                .then()
                .body("count", equalTo(1));
        auth().get("/api/circuits/providers/?site_id=" + site).then().body("results.slug", contains("p-" + u));
        auth().get("/api/circuits/providers/" + provider + "/").then().body("circuit_count", equalTo(1));
        auth().get("/api/circuits/circuit-types/" + type + "/")
                .then()
                .body("circuit_count", equalTo(1))
                .body("color", equalTo("aa1409"));

        // uniqueness and required parts
        post("/api/circuits/circuits/", Map.of("cid", "CID-" + u, "provider", provider, "type", type))
                .statusCode(400)
                .body("__all__", contains("Circuit with this Provider and Circuit ID already exists."));
        post(
                        "/api/circuits/circuit-terminations/",
                        Map.of(
                                "circuit",
                                circuit,
                                "term_side",
                                "A",
                                "termination_type",
                                "dcim.site",
                                "termination_id",
                                site))
                .statusCode(400)
                .body(
                        "__all__",
                        contains("Circuit termination with this Circuit and Termination side already exists."));
        post(
                        "/api/circuits/circuit-terminations/",
                        Map.of(
                                "circuit",
                                circuit,
                                "term_side",
                                "B",
                                "termination_type",
                                "dcim.site",
                                "termination_id",
                                site))
                .statusCode(400)
                .body("term_side", contains("\"B\" is not a valid choice."));
        int c2 = create("/api/circuits/circuits/", Map.of("cid", "CID2-" + u, "provider", provider, "type", type));
        post("/api/circuits/circuit-terminations/", Map.of("circuit", c2, "term_side", "A"))
                .statusCode(400)
                .body("__all__", contains("A circuit termination must attach to a terminating object."));
        post(
                        "/api/circuits/circuit-terminations/",
                        Map.of("circuit", c2, "term_side", "A", "termination_type", "dcim.device", "termination_id", 1))
                .statusCode(400)
                .body("termination_type", contains("Invalid content type: dcim.device"));
        // the provider is protected by its circuits; a circuit takes its terminations along
        auth().delete("/api/circuits/providers/" + provider + "/").then().statusCode(409);
        auth().delete("/api/circuits/circuits/" + circuit + "/").then().statusCode(204);
        auth().get("/api/circuits/circuit-terminations/" + a + "/").then().statusCode(404);
        Api.post("/api/circuits/circuit-types/", Map.of("name", "T2 " + u, "slug", "t2-" + u, "color", "#fff"))
                .statusCode(400);
    }
}
