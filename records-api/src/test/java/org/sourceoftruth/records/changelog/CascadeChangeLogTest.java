package org.sourceoftruth.records.changelog;

import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.records.Api;

/**
 * A delete logs every object it touches, as NetBox does: objects deleted with it (foreign keys
 * with CASCADE, generic relations such as an interface's IP addresses) get their own delete
 * record, objects that lose a reference to it (SET_NULL, cleared generic relations) an update
 * record with both snapshots; all in the same request, dependents before what they depend on,
 * each with its event on the change topic.
 */
@QuarkusTest
class CascadeChangeLogTest {
    /** Third octets of 172.20.x.0/24 blocks (the other IPAM tests use 10.x; addresses are global). */
    private static final AtomicInteger BLOCKS = new AtomicInteger();

    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "sot.changes-topic")
    String topic;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private ChangeLogTable table;

    @BeforeEach
    void table() {
        table = new ChangeLogTable(dataSource);
    }

    /** (type, id, action) of one change record, for comparing sequences. */
    private record Change(String type, long id, String action) {
        static Change of(ChangeLogTable.Row row) {
            return new Change(row.objectType(), row.objectId(), row.action());
        }
    }

    private static UUID requestId(ExtractableResponse<Response> r) {
        return UUID.fromString(r.header("X-Request-ID"));
    }

    @Test
    void deletingADeviceLogsItsInterfacesTheirAddressesAndWhatPointedAtThem() {
        String u = Api.uniq();
        String block = "172.20." + BLOCKS.incrementAndGet();
        int site = Api.site("cc");
        int device = Api.device(site, Api.deviceTypeAndRole(), "cc-" + u);
        int eth0 = create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth0", "type", "1000base-t"));
        int eth1 = create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth1", "type", "1000base-t"));
        int inside = create(
                "/api/ipam/ip-addresses/",
                Map.of(
                        "address",
                        block + ".1/24",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        eth0));
        auth().body(Map.of("primary_ip4", inside))
                .patch("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(200);
        // an unassigned address whose NAT inside is the interface's: it survives, with the reference cleared
        int outside = create("/api/ipam/ip-addresses/", Map.of("address", block + ".100/24", "nat_inside", inside));

        var deleted = auth().body(Map.of("changelog_message", "decommissioned"))
                .delete("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(204)
                .extract();

        List<ChangeLogTable.Row> rows = table.ofRequest(requestId(deleted));
        // Deepest first: the outside address (it pointed at the inside one), the inside address
        // (it was on eth0), the interfaces, the device last.
        assertEquals(
                List.of(
                        new Change("ipam.ipaddress", outside, "update"),
                        new Change("ipam.ipaddress", inside, "delete"),
                        new Change("dcim.interface", eth0, "delete"),
                        new Change("dcim.interface", eth1, "delete"),
                        new Change("dcim.device", device, "delete")),
                rows.stream().map(Change::of).toList());
        Map<String, ChangeLogTable.Row> byObject =
                rows.stream().collect(Collectors.toMap(r -> r.objectType() + ":" + r.objectId(), r -> r));

        ChangeLogTable.Row outsideRow = byObject.get("ipam.ipaddress:" + outside);
        assertEquals(inside, outsideRow.prechange().get("nat_inside").asInt());
        assertTrue(
                outsideRow.postchange().get("nat_inside").isNull(), "nat_inside cleared: " + outsideRow.postchange());
        assertEquals(block + ".100/24", outsideRow.postchange().get("address").asText());
        assertTrue(outsideRow.eventData().get("nat_inside").isNull(), "rendered after the change");

        ChangeLogTable.Row insideRow = byObject.get("ipam.ipaddress:" + inside);
        assertEquals(
                "dcim.interface",
                insideRow.prechange().get("assigned_object_type").asText());
        assertEquals(eth0, insideRow.prechange().get("assigned_object_id").asInt());
        assertEquals(null, insideRow.postchange());
        assertEquals(block + ".1/24", insideRow.eventData().get("address").asText());

        ChangeLogTable.Row eth1Row = byObject.get("dcim.interface:" + eth1);
        assertEquals("eth1", eth1Row.prechange().get("name").asText());
        assertEquals(device, eth1Row.prechange().get("device").asInt());
        assertEquals(null, eth1Row.postchange());
        assertEquals("eth1", eth1Row.eventData().get("name").asText());

        ChangeLogTable.Row deviceRow = rows.get(rows.size() - 1);
        assertEquals(
                inside, deviceRow.prechange().get("primary_ip4").asInt(), "snapshot taken before anything changed");
        assertEquals(2, deviceRow.eventData().get("interface_count").asInt(), "rendered before anything changed");
        // the request's message is the requested object's; cascaded records carry none (NetBox)
        assertEquals("decommissioned", deviceRow.message());
        for (ChangeLogTable.Row row : rows) {
            assertEquals("admin", row.userName());
            if (row != deviceRow) {
                assertEquals("", row.message());
            }
        }

        auth().get("/api/dcim/interfaces/" + eth1 + "/").then().statusCode(404);
        auth().get("/api/ipam/ip-addresses/" + inside + "/").then().statusCode(404);
        auth().get("/api/ipam/ip-addresses/" + outside + "/")
                .then()
                .statusCode(200)
                .body("nat_inside", nullValue());

        // every record is an event on the change topic, with its snapshots
        Set<UUID> changeIds = rows.stream().map(ChangeLogTable.Row::changeId).collect(Collectors.toSet());
        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            List<ChangeEvent> events = reader
                    .readUntil(
                            all -> all.stream()
                                            .map(r -> r.event().changeId())
                                            .filter(changeIds::contains)
                                            .count()
                                    == changeIds.size(),
                            Duration.ofSeconds(60))
                    .stream()
                    .map(TopicReader.Received::event)
                    .filter(e -> changeIds.contains(e.changeId()))
                    .toList();
            assertEquals(changeIds.size(), events.size(), "one event per change record");
            Map<String, Long> kinds =
                    events.stream().collect(Collectors.groupingBy(ChangeEvent::event, Collectors.counting()));
            assertEquals(Map.of(ChangeEvent.DELETED, 4L, ChangeEvent.UPDATED, 1L), kinds);
            events.forEach(e -> assertEquals(requestId(deleted).toString(), e.requestId()));
        }
    }

    @Test
    void deletingARegionLogsItsChildRegionsFirstAndWhatLostItsRegion() {
        String u = Api.uniq();
        int region = create("/api/dcim/regions/", Map.of("name", "r-" + u, "slug", "r-" + u));
        int child1 = create("/api/dcim/regions/", Map.of("name", "r1-" + u, "slug", "r1-" + u, "parent", region));
        int child2 = create("/api/dcim/regions/", Map.of("name", "r2-" + u, "slug", "r2-" + u, "parent", region));
        int grandchild = create("/api/dcim/regions/", Map.of("name", "r11-" + u, "slug", "r11-" + u, "parent", child1));
        int site1 = create("/api/dcim/sites/", Map.of("name", "s1-" + u, "slug", "s1-" + u, "region", region));
        int site2 = create("/api/dcim/sites/", Map.of("name", "s2-" + u, "slug", "s2-" + u, "region", grandchild));
        int prefix = create(
                "/api/ipam/prefixes/",
                Map.of(
                        "prefix",
                        "172.21." + BLOCKS.incrementAndGet() + ".0/24",
                        "scope_type",
                        "dcim.region",
                        "scope_id",
                        child2));

        var deleted = auth().delete("/api/dcim/regions/" + region + "/")
                .then()
                .statusCode(204)
                .extract();

        List<ChangeLogTable.Row> rows = table.ofRequest(requestId(deleted));
        List<Change> changes = rows.stream().map(Change::of).toList();
        assertEquals(
                Set.of(
                        new Change("dcim.region", region, "delete"),
                        new Change("dcim.region", child1, "delete"),
                        new Change("dcim.region", child2, "delete"),
                        new Change("dcim.region", grandchild, "delete"),
                        new Change("dcim.site", site1, "update"),
                        new Change("dcim.site", site2, "update"),
                        new Change("ipam.prefix", prefix, "update")),
                Set.copyOf(changes));
        assertEquals(7, changes.size(), "one record per object: " + changes);
        assertEquals(new Change("dcim.region", region, "delete"), changes.get(changes.size() - 1), "the region last");
        assertBefore(
                changes, new Change("dcim.region", grandchild, "delete"), new Change("dcim.region", child1, "delete"));
        assertBefore(
                changes, new Change("dcim.site", site2, "update"), new Change("dcim.region", grandchild, "delete"));
        assertBefore(changes, new Change("ipam.prefix", prefix, "update"), new Change("dcim.region", child2, "delete"));

        for (ChangeLogTable.Row row : rows) {
            if (row.objectType().equals("dcim.site")) {
                assertEquals(
                        row.objectId() == site1 ? region : grandchild,
                        row.prechange().get("region").asInt());
                assertTrue(row.postchange().get("region").isNull(), "region cleared: " + row.postchange());
                assertTrue(row.eventData().get("region").isNull());
            } else if (row.objectType().equals("ipam.prefix")) {
                assertEquals(child2, row.prechange().get("scope_id").asInt());
                assertTrue(row.postchange().get("scope_id").isNull()
                        && row.postchange().get("scope_type").isNull());
            } else {
                assertEquals(null, row.postchange());
                assertTrue(row.prechange().get("name").asText().endsWith(u));
            }
        }
        auth().get("/api/dcim/sites/" + site2 + "/").then().statusCode(200).body("region", nullValue());
    }

    @Test
    void bulkDeletingSitesLogsTheirNestedLocationsInnermostFirst() {
        String u = Api.uniq();
        int siteA = Api.site("cl");
        int siteB = Api.site("cl");
        int a1 = location("a1-" + u, siteA, null);
        int a2 = location("a2-" + u, siteA, a1);
        int a3 = location("a3-" + u, siteA, a2);
        int b1 = location("b1-" + u, siteB, null);

        var deleted = auth().body(List.of(Map.of("id", siteA), Map.of("id", siteB)))
                .delete("/api/dcim/sites/")
                .then()
                .statusCode(204)
                .extract();

        List<Change> changes =
                table.ofRequest(requestId(deleted)).stream().map(Change::of).toList();
        assertEquals(6, changes.size(), "one record per object: " + changes);
        assertBefore(changes, new Change("dcim.location", a3, "delete"), new Change("dcim.location", a2, "delete"));
        assertBefore(changes, new Change("dcim.location", a2, "delete"), new Change("dcim.location", a1, "delete"));
        assertBefore(changes, new Change("dcim.location", a1, "delete"), new Change("dcim.site", siteA, "delete"));
        assertBefore(changes, new Change("dcim.location", b1, "delete"), new Change("dcim.site", siteB, "delete"));
        auth().get("/api/dcim/locations/" + a3 + "/").then().statusCode(404);
    }

    @Test
    void aProtectedObjectAnywhereInTheCascadeRefusesTheWholeDelete() {
        String u = Api.uniq();
        int[] typeAndRole = Api.deviceTypeAndRole();
        int child = create(
                "/api/dcim/device-roles/", Map.of("name", "cr-" + u, "slug", "cr-" + u, "parent", typeAndRole[1]));
        int device = Api.device(Api.site("cp"), new int[] {typeAndRole[0], child}, "cp-" + u);

        var refused = auth().delete("/api/dcim/device-roles/" + typeAndRole[1] + "/")
                .then()
                .statusCode(409)
                .extract();

        assertTrue(refused.path("detail").toString().contains("cp-" + u + " (" + device + ")"), refused.asString());
        assertEquals(List.of(), table.ofRequest(requestId(refused)));
        auth().get("/api/dcim/device-roles/" + child + "/").then().statusCode(200);
    }

    @Test
    void deletingAVlanLogsTheInterfaceThatLosesItAsOneUpdate() {
        String u = Api.uniq();
        int vlan = create("/api/ipam/vlans/", Map.of("vid", 42, "name", "v-" + u));
        int device = Api.device(Api.site("cv"), Api.deviceTypeAndRole(), "cv-" + u);
        int iface = create(
                "/api/dcim/interfaces/",
                Map.of(
                        "device",
                        device,
                        "name",
                        "eth0",
                        "type",
                        "1000base-t",
                        "mode",
                        "tagged",
                        "untagged_vlan",
                        vlan,
                        "tagged_vlans",
                        List.of(vlan)));

        var deleted = auth().delete("/api/ipam/vlans/" + vlan + "/")
                .then()
                .statusCode(204)
                .extract();

        List<ChangeLogTable.Row> rows = table.ofRequest(requestId(deleted));
        assertEquals(
                List.of(new Change("dcim.interface", iface, "update"), new Change("ipam.vlan", vlan, "delete")),
                rows.stream().map(Change::of).toList());
        ChangeLogTable.Row update = rows.get(0);
        assertEquals(vlan, update.prechange().get("untagged_vlan").asInt());
        assertEquals(List.of(vlan), ids(update.prechange().get("tagged_vlans")));
        assertTrue(
                update.postchange().get("untagged_vlan").isNull(),
                update.postchange().toString());
        assertEquals(List.of(), ids(update.postchange().get("tagged_vlans")));
        auth().get("/api/dcim/interfaces/" + iface + "/")
                .then()
                .statusCode(200)
                .body("untagged_vlan", nullValue())
                .body("tagged_vlans", org.hamcrest.Matchers.empty());
    }

    @Test
    void deletingAWebhookDeletesAndLogsItsEventRules() {
        String u = Api.uniq();
        int hook = create("/api/extras/webhooks/", Map.of("name", "h-" + u, "payload_url", "http://hooks.example/x"));
        int rule = create(
                "/api/extras/event-rules/",
                Map.of(
                        "name",
                        "r-" + u,
                        "object_types",
                        List.of("dcim.site"),
                        "event_types",
                        List.of("object_created"),
                        "action_object_type",
                        "extras.webhook",
                        "action_object_id",
                        hook));

        var deleted = auth().delete("/api/extras/webhooks/" + hook + "/")
                .then()
                .statusCode(204)
                .extract();

        assertEquals(
                List.of(new Change("extras.eventrule", rule, "delete"), new Change("extras.webhook", hook, "delete")),
                table.ofRequest(requestId(deleted)).stream().map(Change::of).toList());
        auth().get("/api/extras/event-rules/" + rule + "/").then().statusCode(404);
    }

    private static List<Integer> ids(com.fasterxml.jackson.databind.JsonNode array) {
        List<Integer> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asInt()));
        return out;
    }

    private static int location(String name, int site, Integer parent) {
        Map<String, Object> body = new HashMap<>(Map.of("name", name, "slug", name, "site", site));
        body.put("parent", parent);
        return create("/api/dcim/locations/", body);
    }

    private static void assertBefore(List<Change> changes, Change first, Change second) {
        int a = changes.indexOf(first);
        int b = changes.indexOf(second);
        assertTrue(a >= 0 && b >= 0 && a < b, first + " before " + second + " in " + changes);
    }
}
