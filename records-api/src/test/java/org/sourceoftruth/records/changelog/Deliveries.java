package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.sourceoftruth.model.ChangeEvent;

/** What a consumer of the topic saw of a {@link SiteWriter}'s changes, and checks on it. */
final class Deliveries {

    private final Map<String, List<TopicReader.Received>> firstCopiesByKey = new LinkedHashMap<>();
    private final Map<String, Integer> partitionOfKey = new LinkedHashMap<>();
    private int copies;

    /** Keeps the writer's events, in the order read, dropping repeated copies of a change. */
    Deliveries(List<TopicReader.Received> received, SiteWriter writer) {
        this(received, writer::owns);
    }

    /** Keeps the events whose Kafka key {@code keys} accepts, in the order read, without repeats. */
    Deliveries(List<TopicReader.Received> received, Predicate<String> keys) {
        Set<UUID> seen = new HashSet<>();
        for (TopicReader.Received one : received) {
            if (!keys.test(one.key())) {
                continue;
            }
            copies++;
            assertNotNull(one.event().changeId(), "every event carries its change_id");
            Integer partition = partitionOfKey.putIfAbsent(one.key(), one.partition());
            assertTrue(partition == null || partition == one.partition(), "one partition per object: " + one.key());
            if (seen.add(one.event().changeId())) {
                firstCopiesByKey
                        .computeIfAbsent(one.key(), key -> new ArrayList<>())
                        .add(one);
            }
        }
    }

    /** Compares JSON by its text, so an id read back as int equals the long it was written as. */
    static void assertSameJson(JsonNode expected, JsonNode actual) {
        assertEquals(String.valueOf(expected), String.valueOf(actual));
    }

    int distinctChanges() {
        return firstCopiesByKey.values().stream().mapToInt(List::size).sum();
    }

    /** Copies read, repeats included. */
    int copies() {
        return copies;
    }

    /** Per Kafka key, the change ids of the first copies, in the order they were read. */
    Map<String, List<UUID>> firstCopyIdsByKey() {
        Map<String, List<UUID>> ids = new LinkedHashMap<>();
        firstCopiesByKey.forEach((key, copies) -> ids.put(
                key, copies.stream().map(copy -> copy.event().changeId()).toList()));
        return ids;
    }

    Set<UUID> changeIds() {
        Set<UUID> ids = new HashSet<>();
        firstCopiesByKey
                .values()
                .forEach(copies -> copies.forEach(copy -> ids.add(copy.event().changeId())));
        return ids;
    }

    /**
     * Per site, the first copies came in commit order: versions 1, 2, ... n without a gap, with
     * increasing sequence numbers, and n is how many changes the writer committed for the site.
     */
    void assertCommitOrderPerSite(SiteWriter writer) {
        for (int site = 0; site < writer.sites(); site++) {
            String key = SampleChanges.SITE + ":" + (writer.firstSiteId() + site);
            List<TopicReader.Received> events = firstCopiesByKey.getOrDefault(key, List.of());
            assertEquals(writer.version(site), events.size(), "changes of " + key);
            long previousSequence = 0;
            for (int i = 0; i < events.size(); i++) {
                ChangeEvent event = events.get(i).event();
                assertEquals(
                        i + 1,
                        event.data().get("version").asInt(),
                        "version order of " + key + ": "
                                + events.stream()
                                        .map(one -> one.event().data().get("version") + "@"
                                                + one.event().sequence() + "#" + one.partition() + "/" + one.offset())
                                        .toList());
                assertTrue(event.sequence() > previousSequence, "sequence order of " + key);
                previousSequence = event.sequence();
            }
        }
    }
}
