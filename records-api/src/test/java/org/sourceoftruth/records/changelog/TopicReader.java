package org.sourceoftruth.records.changelog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/** Reads a change-event topic from its beginning, as a dispatcher would, for assertions. */
final class TopicReader implements AutoCloseable {

    /** One consumed event, with where and when it was read. */
    record Received(String key, ChangeEvent event, int partition, long offset, long receivedNanos) {}

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<Received> received = new ArrayList<>();

    TopicReader(String bootstrapServers, String topic) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false));
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Reads until {@code done} holds for everything read so far, or the timeout passes. */
    List<Received> readUntil(Predicate<List<Received>> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(received) && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                received.add(new Received(
                        record.key(),
                        Json.fromBytes(record.value(), ChangeEvent.class),
                        record.partition(),
                        record.offset(),
                        System.nanoTime()));
            }
        }
        return List.copyOf(received);
    }

    /** Reads everything the topic holds now (up to its current end offsets). */
    List<Received> readToEnd(Duration timeout) {
        Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), timeout);
        return readUntil(
                all -> end.entrySet().stream()
                        .allMatch(partition -> consumer.position(partition.getKey()) >= partition.getValue()),
                timeout);
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }

    static void createTopic(String bootstrapServers, String topic, int partitions) {
        createTopic(bootstrapServers, topic, partitions, Map.of());
    }

    /** Creates the topic with the given topic configs (e.g. max.message.bytes) unless it exists. */
    static void createTopic(String bootstrapServers, String topic, int partitions, Map<String, String> configs) {
        try (Admin admin = admin(bootstrapServers)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException(e);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static void deleteTopic(String bootstrapServers, String topic) {
        try (Admin admin = admin(bootstrapServers)) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // Best effort: a leftover test topic harms nobody.
        }
    }

    private static Admin admin(String bootstrapServers) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }
}
