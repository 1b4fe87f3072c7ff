package org.sourceoftruth.records.changelog;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Sends change events to Kafka and says how many of a batch the broker acknowledged, counting
 * from the first. The producer is idempotent with acks=all and at most five requests in flight,
 * so within a partition the broker never reorders or duplicates a producer's retries; a batch
 * that still fails stops at its first failure and the relay resends from there (duplicates of
 * later rows are possible then, reordering is not).
 */
final class ChangePublisher implements AutoCloseable {

    private static final int MAX_IN_FLIGHT = 5;

    private final Map<String, Object> config;
    private final String topic;
    private KafkaProducer<String, byte[]> producer;
    private Throwable lastFailure;

    ChangePublisher(Map<String, Object> producerConfig, String topic) {
        this.config = effectiveConfig(producerConfig);
        this.topic = topic;
    }

    /**
     * The given configuration with what the ordering and delivery guarantees depend on forced,
     * and short defaults for what decides how fast an outage is noticed.
     */
    static Map<String, Object> effectiveConfig(Map<String, Object> given) {
        Map<String, Object> config = new HashMap<>();
        given.forEach((key, value) -> {
            if (ProducerConfig.configNames().contains(key)) {
                config.put(key, value);
            }
        });
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "records-api-outbox-relay");
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        int inFlight = Integer.parseInt(String.valueOf(config.getOrDefault(
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, MAX_IN_FLIGHT)));
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, Math.min(inFlight, MAX_IN_FLIGHT));
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return Map.copyOf(config);
    }

    /**
     * Sends the changes in order and waits for the broker. Returns how many leading changes were
     * acknowledged; fewer than {@code changes.size()} means Kafka failed, see {@link #lastFailure()}.
     */
    int publish(List<PendingChange> changes) {
        lastFailure = null;
        List<Future<RecordMetadata>> sent = new ArrayList<>(changes.size());
        try {
            KafkaProducer<String, byte[]> producer = producer();
            try {
                for (PendingChange change : changes) {
                    ChangeEvent event = change.toEvent();
                    sent.add(producer.send(new ProducerRecord<>(topic, event.kafkaKey(), Json.toBytes(event))));
                }
            } finally {
                // Also after a failed send(): the ones before it are still to be acknowledged.
                producer.flush();
            }
        } catch (KafkaException e) {
            // send() fails by itself when it cannot get metadata within max.block.ms: broker away.
            lastFailure = e;
        }
        int acknowledged = 0;
        for (Future<RecordMetadata> result : sent) {
            try {
                result.get();
                acknowledged++;
            } catch (ExecutionException e) {
                lastFailure = e.getCause();
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                lastFailure = e;
                break;
            }
        }
        if (lastFailure != null) {
            // A fresh producer (new producer id) starts the retry from a clean slate; nothing of
            // the failed batch is left in flight behind it.
            close();
        }
        return acknowledged;
    }

    Throwable lastFailure() {
        return lastFailure;
    }

    private KafkaProducer<String, byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(config);
        }
        return producer;
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }
}
