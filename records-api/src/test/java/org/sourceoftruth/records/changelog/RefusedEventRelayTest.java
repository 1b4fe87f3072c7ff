package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.records.Api;

/**
 * Kafka allows less than the event ceiling (here the producer's max.request.size is set to 512 KiB,
 * as a topic or broker left at a smaller limit would): an event under the ceiling but over that
 * limit is refused, and the relay sends it again reduced instead of retrying it forever.
 */
@QuarkusTest
@TestProfile(RefusedEventRelayTest.Profile.class)
class RefusedEventRelayTest {

    public static class Profile extends UniqueTopicProfile {
        @Override
        protected Map<String, String> extraConfig() {
            return Map.of("kafka.max.request.size", String.valueOf(512 * 1024));
        }
    }

    @ConfigProperty(name = "sot.changes-topic")
    String topic;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @AfterEach
    void deleteTopic() {
        TopicReader.deleteTopic(bootstrapServers, topic);
    }

    @Test
    void anEventKafkaRefusesAsTooLargeIsSentAgainReduced() {
        TopicReader.createTopic(bootstrapServers, topic, 3);
        String comment = LargeEventRelayTest.randomText(400_000); // about 800 kB of event: under 8 MiB, over 512 KiB
        String name = "refused-" + Api.uniq();
        int large = Api.create("/api/dcim/sites/", Map.of("name", name, "slug", name, "comments", comment));
        int next = Api.site("after-refused");

        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            List<TopicReader.Received> read = reader.readUntil(
                    all -> all.stream().anyMatch(one -> one.key().equals("dcim.site:" + next)), Duration.ofSeconds(60));
            ChangeEvent reduced = read.stream()
                    .filter(one -> one.key().equals("dcim.site:" + large))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no event of the large site"))
                    .event();
            assertTrue(reduced.truncated());
            assertEquals(
                    EventEncoder.KEPT_CHARS,
                    reduced.data().get("comments").asText().length());
            assertTrue(
                    read.stream().anyMatch(one -> one.key().equals("dcim.site:" + next)),
                    "the change after it is published");
        }
    }
}
