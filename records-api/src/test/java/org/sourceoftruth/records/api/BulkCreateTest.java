package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Bulk creates are validated as a whole against the stored rows, then written set-wise: what
 * the items of one request conflict on among themselves, what they refer to, their tags and
 * their change records must come out as if they had been written one by one.
 */
@QuarkusTest
class BulkCreateTest {

    @Test
    void itemsThatRepeatEachOtherAreRefusedAndNothingIsWritten() {
        String u = uniq();
        int site = Api.site("bk");
        int device = Api.device(site, Api.deviceTypeAndRole(), "bk-" + u);
        List<Map<String, Object>> items = List.of(
                Map.of("device", device, "name", "eth0", "type", "1000base-t"),
                Map.of("device", device, "name", "eth1", "type", "1000base-t"),
                Map.of("device", device, "name", "eth0", "type", "1000base-t"));
        Api.post("/api/dcim/interfaces/", items)
                .statusCode(400)
                .body("[0]", equalTo(Map.of()))
                .body("[1]", equalTo(Map.of()))
                .body("[2].__all__", contains("Interface with this Device and Name already exists."));
        // Case-insensitive rules compare as the database would: device names per site and tenant.
        int[] typeAndRole = Api.deviceTypeAndRole();
        Api.post(
                        "/api/dcim/devices/",
                        List.of(
                                Map.of(
                                        "name",
                                        "Core-" + u,
                                        "site",
                                        site,
                                        "device_type",
                                        typeAndRole[0],
                                        "role",
                                        typeAndRole[1]),
                                Map.of(
                                        "name",
                                        "core-" + u,
                                        "site",
                                        site,
                                        "device_type",
                                        typeAndRole[0],
                                        "role",
                                        typeAndRole[1])))
                .statusCode(400)
                .body("[1].__all__", hasSize(1));
        auth().get("/api/dcim/interfaces/?device_id=" + device).then().body("count", equalTo(0));
        auth().get("/api/dcim/devices/?site_id=" + site).then().body("count", equalTo(1));
    }

    @Test
    void referencesAreCheckedPerItemAndAStoredConflictIsReported() {
        String u = uniq();
        int site = Api.site("bk");
        int device = Api.device(site, Api.deviceTypeAndRole(), "bk-" + u);
        create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth0", "type", "1000base-t"));
        Api.post(
                        "/api/dcim/interfaces/",
                        List.of(
                                Map.of("device", device, "name", "eth0", "type", "1000base-t"),
                                Map.of("device", 999_999_999, "name", "eth1", "type", "1000base-t"),
                                Map.of("device", String.valueOf(device), "name", "eth2", "type", "1000base-t")))
                .statusCode(400)
                .body("[0].__all__", contains("Interface with this Device and Name already exists."))
                .body("[1].device", contains("Related object not found using the provided numeric ID: 999999999"))
                .body("[2]", equalTo(Map.of()));
        auth().get("/api/dcim/interfaces/?device_id=" + device).then().body("count", equalTo(1));
    }

    @Test
    void everyColumnTypeIsStoredAsSentThroughTheBulkInsert() {
        // a bulk insert sends each column as one array, as text cast to the column's type unless
        // it holds whole numbers: quotes, commas, braces and backslashes in text, an integer array
        // (ports), an address (inet), a decimal and a date must come back as sent
        String u = uniq();
        int site = Api.site("bk");
        int device = Api.device(site, Api.deviceTypeAndRole(), "bk-" + u);
        String tricky = "a,b {c} \"q\" \\ d' NULL " + u;
        List<Map<String, Object>> services = List.of(
                Map.of(
                        "parent_object_type",
                        "dcim.device",
                        "parent_object_id",
                        device,
                        "name",
                        tricky,
                        "protocol",
                        "tcp",
                        "ports",
                        List.of(22, 443)),
                Map.of(
                        "parent_object_type",
                        "dcim.device",
                        "parent_object_id",
                        device,
                        "name",
                        "plain-" + u,
                        "protocol",
                        "udp",
                        "ports",
                        List.of(53),
                        "description",
                        "\u00e9 \u4e2d {}"));
        Api.post("/api/ipam/services/", services)
                .statusCode(201)
                .body("name", contains(tricky, "plain-" + u))
                .body("ports", contains(List.of(22, 443), List.of(53)))
                .body("[1].description", equalTo("\u00e9 \u4e2d {}"));
        auth().get("/api/ipam/services/?device_id=" + device + "&ordering=name")
                .then()
                .body("results.name", contains(tricky, "plain-" + u))
                .body("results.ports", contains(List.of(22, 443), List.of(53)));
        int vrf =
                create("/api/ipam/vrfs/", Map.of("name", "bk-" + u)); // addresses of its own, whatever other tests hold
        Api.post(
                        "/api/ipam/ip-addresses/",
                        List.of(
                                Map.of("address", "198.51.100.7/24", "vrf", vrf, "dns_name", "a-" + u + ".example"),
                                Map.of("address", "2001:db8::7/64", "vrf", vrf, "description", u)))
                .statusCode(201)
                .body("address", contains("198.51.100.7/24", "2001:db8::7/64"));
        auth().get("/api/ipam/ip-addresses/?description=" + u)
                .then()
                .body("results.address", contains("2001:db8::7/64"));
        int provider = create("/api/circuits/providers/", Map.of("name", "bk-" + u, "slug", "bk-" + u));
        int type = create("/api/circuits/circuit-types/", Map.of("name", "bk-" + u, "slug", "bk-" + u));
        Api.post(
                        "/api/circuits/circuits/",
                        List.of(
                                Map.of(
                                        "cid",
                                        "c1-" + u,
                                        "provider",
                                        provider,
                                        "type",
                                        type,
                                        "install_date",
                                        "2026-02-28",
                                        "commit_rate",
                                        10000,
                                        "distance",
                                        "12.50",
                                        "distance_unit",
                                        "km"),
                                Map.of("cid", "c2-" + u, "provider", provider, "type", type)))
                .statusCode(201)
                .body("install_date", contains("2026-02-28", null))
                .body("commit_rate", contains(10000, null))
                .body("[0].distance", equalTo(12.5f));
    }

    @Test
    void storedConflictsAreFoundInBulkWhateverTheColumnTypes() {
        // several rows are probed through arrays cast to each column's type: a VLAN's group
        // (bigint) and vid (integer); a device's name, compared case-insensitively per site
        String u = uniq();
        int group = create("/api/ipam/vlan-groups/", Map.of("name", "bk-" + u, "slug", "bk-" + u));
        create("/api/ipam/vlans/", Map.of("group", group, "vid", 100, "name", "v100-" + u));
        Api.post(
                        "/api/ipam/vlans/",
                        List.of(
                                Map.of("group", group, "vid", 101, "name", "v101-" + u),
                                Map.of("group", group, "vid", 100, "name", "other-" + u),
                                Map.of("group", group, "vid", 102, "name", "v102-" + u)))
                .statusCode(400)
                .body("[0]", equalTo(Map.of()))
                .body("[1].__all__", hasSize(1))
                .body("[2]", equalTo(Map.of()));
        int site = Api.site("bk");
        int[] typeAndRole = Api.deviceTypeAndRole();
        create(
                "/api/dcim/devices/",
                Map.of("name", "Edge-" + u, "site", site, "device_type", typeAndRole[0], "role", typeAndRole[1]));
        Api.post(
                        "/api/dcim/devices/",
                        List.of(
                                Map.of(
                                        "name",
                                        "edge-" + u,
                                        "site",
                                        site,
                                        "device_type",
                                        typeAndRole[0],
                                        "role",
                                        typeAndRole[1]),
                                Map.of(
                                        "name",
                                        "edge2-" + u,
                                        "site",
                                        site,
                                        "device_type",
                                        typeAndRole[0],
                                        "role",
                                        typeAndRole[1])))
                .statusCode(400)
                .body("[0].__all__", hasSize(1))
                .body("[1]", equalTo(Map.of()));
        auth().get("/api/ipam/vlans/?group_id=" + group).then().body("count", equalTo(1));
        auth().get("/api/dcim/devices/?site_id=" + site).then().body("count", equalTo(1));
        // without the conflicts, the same bulk requests are written
        Api.post(
                        "/api/ipam/vlans/",
                        List.of(
                                Map.of("group", group, "vid", 101, "name", "v101-" + u),
                                Map.of("group", group, "vid", 102, "name", "v102-" + u)))
                .statusCode(201);
    }

    @Test
    void aLargeBulkCreateWritesTagsAndOneChangeRecordPerObject() {
        String u = uniq();
        int tagB = create("/api/extras/tags/", Map.of("name", "b-" + u, "slug", "b-" + u));
        int tagA = create("/api/extras/tags/", Map.of("name", "a-" + u, "slug", "a-" + u));
        List<Map<String, Object>> sites = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            // odd items untagged: their snapshots list no tags while their neighbours' do
            sites.add(Map.of(
                    "name",
                    "bk-" + u + "-" + i,
                    "slug",
                    "bk-" + u + "-" + i,
                    "tags",
                    i % 2 == 0 ? List.of(tagB, tagA) : List.of()));
        }
        var created = Api.post("/api/dcim/sites/", sites)
                .statusCode(201)
                .body("$", hasSize(300))
                .body("[299].name", equalTo("bk-" + u + "-299"))
                .body("[0].tags.name", contains("a-" + u, "b-" + u))
                .body("[1].tags", hasSize(0))
                .body("url", everyItem(startsWith("http://")))
                .extract();
        String requestId = created.header("X-Request-ID");
        List<Integer> ids = created.path("id");
        assertTrue(ids.get(0) < ids.get(299), "ids follow the request order");
        auth().get("/api/extras/object-changes/?request_id=" + requestId + "&limit=1000")
                .then()
                .statusCode(200)
                .body("count", equalTo(300))
                .body("results.action.value", everyItem(equalTo("create")))
                .body("results.prechange_data", everyItem(equalTo(null)))
                .body(
                        "results.find { it.changed_object_id == " + ids.get(8) + " }.postchange_data.tags",
                        contains("a-" + u, "b-" + u))
                .body("results.find { it.changed_object_id == " + ids.get(7) + " }.postchange_data.tags", hasSize(0))
                .body(
                        "results.find { it.changed_object_id == " + ids.get(7) + " }.postchange_data.name",
                        equalTo("bk-" + u + "-7"));
        auth().get("/api/dcim/sites/?created_by_request=" + requestId + "&limit=1")
                .then()
                .body("count", equalTo(300));
        auth().get("/api/dcim/sites/?tag=a-" + u + "&limit=1").then().body("count", equalTo(150));
    }
}
