package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.sourceoftruth.model.Json;

/**
 * The change ids at the end of the topic: what a new leader reads before it publishes, to learn
 * which of the oldest unpublished rows its predecessor did publish but did not live to mark (it
 * died between the broker's acknowledgement and the mark). Those are marked instead of sent again,
 * so a change of leader after a crash puts no change on the topic twice. Only the last {@code
 * perPartition} records of each partition can be such rows: a leader marks each batch before it
 * sends the next.
 */
final class TopicTail {

    private TopicTail() {}

    /**
     * The change ids among the last {@code perPartition} records of each partition of the topic,
     * read within {@code timeout} (what was read by then, if it runs out).
     */
    static Set<UUID> changeIds(Map<String, Object> clientConfig, String topic, int perPartition, Duration timeout) {
        Map<String, Object> config = new HashMap<>();
        clientConfig.forEach((key, value) -> {
            if (ConsumerConfig.configNames().contains(key)) {
                config.put(key, value);
            }
        });
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "records-api-outbox-relay-tail");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<UUID> ids = new HashSet<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, timeout);
            for (TopicPartition partition : partitions) {
                consumer.seek(partition, Math.max(begin.get(partition), end.get(partition) - perPartition));
            }
            while (System.nanoTime() < deadline
                    && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    UUID id = changeId(record);
                    if (id != null) {
                        ids.add(id);
                    }
                }
            }
        }
        return ids;
    }

    /** The record's change id: its CloudEvents id header when it has one, else the event's change_id. */
    private static UUID changeId(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader(CloudEventHeaders.ID);
        try {
            if (header != null) {
                return UUID.fromString(new String(header.value(), java.nio.charset.StandardCharsets.UTF_8));
            }
            if (record.value() == null) {
                return null;
            }
            JsonNode id = Json.MAPPER.readTree(record.value()).get("change_id");
            return id == null ? null : UUID.fromString(id.asText());
        } catch (IOException | IllegalArgumentException notAnEvent) {
            return null;
        }
    }
}
