package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.records.Api;

/**
 * The models NetBox 4.5 and 4.6 added (owner groups, owners, rack groups, cable bundles, virtual
 * machine types) are logged like every other: a create, an update and a delete each make one
 * change record with NetBox's snapshots, and one event on the change topic.
 */
@QuarkusTest
class NetBox46ModelsChangeLogTest {
    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "sot.changes-topic")
    String topic;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @Test
    void createUpdateAndDeleteOfEachNewModelAreRecordedAndPublished() {
        String u = Api.uniq();
        Map<String, Map<String, Object>> bodies = new LinkedHashMap<>();
        bodies.put("users/owner-groups", Map.of("name", "og-" + u));
        bodies.put("users/owners", new java.util.HashMap<>(Map.of("name", "ow-" + u)));
        bodies.get("users/owners").put("group", null);
        bodies.put("dcim/rack-groups", Map.of("name", "rg-" + u, "slug", "rg-" + u));
        bodies.put("dcim/cable-bundles", Map.of("name", "cb-" + u));
        bodies.put("virtualization/virtual-machine-types", Map.of("name", "vt-" + u, "slug", "vt-" + u));
        ChangeLogTable table = new ChangeLogTable(dataSource);
        List<ChangeLogTable.Row> rows = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> e : bodies.entrySet()) {
            String list = "/api/" + e.getKey() + "/";
            var created = Api.post(list, e.getValue()).statusCode(201).extract();
            int id = created.path("id");
            var updated = auth().body(Map.of("description", "changed"))
                    .patch(list + id + "/")
                    .then()
                    .statusCode(200)
                    .extract();
            var deleted = auth().delete(list + id + "/").then().statusCode(204).extract();
            List<ChangeLogTable.Row> mine = new ArrayList<>();
            for (var r : List.of(created, updated, deleted)) {
                mine.addAll(table.ofRequest(UUID.fromString(r.header("X-Request-ID"))));
            }
            assertEquals(
                    List.of("create", "update", "delete"),
                    mine.stream().map(ChangeLogTable.Row::action).toList(),
                    e.getKey());
            mine.forEach(r -> assertEquals(id, r.objectId(), e.getKey()));
            assertEquals(
                    e.getValue().get("name"),
                    mine.get(0).postchange().path("name").asText(),
                    e.getKey());
            assertEquals("changed", mine.get(1).postchange().path("description").asText(), e.getKey());
            assertEquals("changed", mine.get(2).prechange().path("description").asText(), e.getKey());
            rows.addAll(mine);
        }
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
                    .filter(ev -> changeIds.contains(ev.changeId()))
                    .toList();
            assertEquals(changeIds.size(), events.size(), "one event per change record");
            Map<String, Long> byType =
                    events.stream().collect(Collectors.groupingBy(ChangeEvent::model, Collectors.counting()));
            assertEquals(
                    Map.of(
                            "users.ownergroup", 3L,
                            "users.owner", 3L,
                            "dcim.rackgroup", 3L,
                            "dcim.cablebundle", 3L,
                            "virtualization.virtualmachinetype", 3L),
                    byType);
        }
    }
}
