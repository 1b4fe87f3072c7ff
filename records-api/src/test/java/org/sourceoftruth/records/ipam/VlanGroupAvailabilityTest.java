package org.sourceoftruth.records.ipam;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** A VLAN group's available-vlans: the free VIDs of its ranges, and race-free creation at the next ones. */
@QuarkusTest
class VlanGroupAvailabilityTest {

    private static int group(String u, List<List<Integer>> ranges) {
        return create("/api/ipam/vlan-groups/", Map.of("name", "g " + u, "slug", "g-" + u, "vid_ranges", ranges));
    }

    @Test
    void listsFreeVidsOfTheRangesAndCreatesAtTheNextOnes() {
        String u = uniq();
        int group = group(u, List.of(List.of(100, 103), List.of(200, 201)));
        create("/api/ipam/vlans/", Map.of("vid", 101, "name", "taken " + u, "group", group));
        auth().get("/api/ipam/vlan-groups/" + group + "/available-vlans/")
                .then()
                .statusCode(200)
                .body("vid", contains(100, 102, 103, 200, 201))
                .body("[0].group.id", equalTo(group))
                .body("[0].group.slug", equalTo("g-" + u));
        auth().get("/api/ipam/vlan-groups/" + group + "/available-vlans/?limit=2")
                .then()
                .body("vid", contains(100, 102));
        auth().get("/api/ipam/vlan-groups/999999999/available-vlans/")
                .then()
                .statusCode(404)
                .body("detail", equalTo("No VLANGroup matches the given query."));

        auth().contentType("application/json")
                .body(Map.of("name", "first " + u, "status", "reserved"))
                .post("/api/ipam/vlan-groups/" + group + "/available-vlans/")
                .then()
                .statusCode(201)
                .body("vid", equalTo(100))
                .body("group.id", equalTo(group))
                .body("status.value", equalTo("reserved"));
        // a list asks for several at once, all or nothing; each needs a name
        auth().contentType("application/json")
                .body(List.of(Map.of("name", "a " + u), Map.of("description", "x")))
                .post("/api/ipam/vlan-groups/" + group + "/available-vlans/")
                .then()
                .statusCode(400)
                .body("[1].name", contains("This field is required."));
        auth().contentType("application/json")
                .body(List.of(
                        Map.of("name", "a " + u),
                        Map.of("name", "b " + u),
                        Map.of("name", "c " + u),
                        Map.of("name", "d " + u),
                        Map.of("name", "e " + u)))
                .post("/api/ipam/vlan-groups/" + group + "/available-vlans/")
                .then()
                .statusCode(409)
                .body("detail", equalTo("The requested number of VLANs is not available"));
        auth().contentType("application/json")
                .body(List.of(Map.of("name", "a " + u), Map.of("name", "b " + u)))
                .post("/api/ipam/vlan-groups/" + group + "/available-vlans/")
                .then()
                .statusCode(201)
                .body("vid", contains(102, 103));
        auth().get("/api/ipam/vlan-groups/" + group + "/available-vlans/")
                .then()
                .body("vid", contains(200, 201));
        auth().get("/api/ipam/vlans/?group_id=" + group).then().body("count", equalTo(4));
    }

    @Test
    void concurrentAllocationsHandOutEachVidOnce() throws Exception {
        String u = uniq();
        int group = group(u, List.of(List.of(10, 14), List.of(20, 24)));
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<Future<Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                String name = "v" + i + " " + u;
                Callable<Response> call = () -> auth().contentType("application/json")
                        .body(Map.of("name", name))
                        .post("/api/ipam/vlan-groups/" + group + "/available-vlans/");
                answers.add(pool.submit(call));
            }
            Set<Integer> allocated = new TreeSet<>();
            int conflicts = 0;
            for (Future<Response> f : answers) {
                Response r = f.get();
                if (r.statusCode() == 201) {
                    allocated.add(r.jsonPath().getInt("vid"));
                    assertEquals(group, r.jsonPath().getInt("group.id"));
                } else {
                    assertEquals(409, r.statusCode(), r.asString());
                    assertEquals(
                            "The requested number of VLANs is not available",
                            r.jsonPath().getString("detail"));
                    conflicts++;
                }
            }
            assertEquals(Set.of(10, 11, 12, 13, 14, 20, 21, 22, 23, 24), allocated);
            assertEquals(10, conflicts);
        } finally {
            pool.shutdownNow();
        }
        auth().get("/api/ipam/vlan-groups/" + group + "/").then().body("vlan_count", equalTo(10));
        auth().get("/api/ipam/vlan-groups/" + group + "/available-vlans/")
                .then()
                .body("size()", equalTo(0));
    }
}
