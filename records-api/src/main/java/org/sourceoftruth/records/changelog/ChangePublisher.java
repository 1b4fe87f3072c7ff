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
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends change events to Kafka and says how many of a batch the broker acknowledged, counting
 * from the first. The relay resends from the first unacknowledged row, so rows after it may
 * arrive twice; what must never happen is a row reaching the topic while an earlier row of the
 * same object did not (its first copy would then come after a later change). Hence:
 * <ul>
 * <li>The producer is idempotent (acks=all, at most five requests in flight): its own retries
 * neither duplicate nor reorder within a partition.</li>
 * <li>Its batches never expire (delivery.timeout.ms is unbounded): with a finite timeout an
 * earlier batch of a partition can expire while a later one still gets through. While the
 * broker is away the relay simply waits for the producer, which keeps reconnecting.</li>
 * <li>No record is sent after one has failed: send() reports some failures (metadata not
 * available within max.block.ms, record too large) through an already-failed future and
 * carries on accepting the following records, which would leave a gap.</li>
 * </ul>
 */
final class ChangePublisher implements AutoCloseable {

    /** The most the idempotent producer keeps in order. */
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
     * The given kafka.* configuration (producer settings only), with what ordering and delivery
     * depend on forced, and defaults for the rest.
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
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
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
        AtomicReference<Exception> firstFailure = new AtomicReference<>();
        List<Future<RecordMetadata>> sent = new ArrayList<>(changes.size());
        try {
            KafkaProducer<String, byte[]> producer = producer();
            try {
                for (PendingChange change : changes) {
                    if (firstFailure.get() != null) {
                        break;
                    }
                    ChangeEvent event = change.toEvent();
                    sent.add(producer.send(new ProducerRecord<>(topic, event.kafkaKey(), Json.toBytes(event)),
                            (metadata, failure) -> {
                                if (failure != null) {
                                    firstFailure.compareAndSet(null, failure);
                                }
                            }));
                }
            } finally {
                // The records before a failure are on their way; wait for their acknowledgement.
                producer.flush();
            }
        } catch (KafkaException e) {
            firstFailure.compareAndSet(null, e);
        }
        lastFailure = firstFailure.get();
        int acknowledged = 0;
        for (Future<RecordMetadata> result : sent) {
            try {
                result.get();
                acknowledged++;
            } catch (ExecutionException e) {
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                lastFailure = e;
                break;
            }
        }
        if (lastFailure != null) {
            // The retry starts with a fresh producer: nothing of this round is left behind in it.
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
            // close() waits for the producer's thread, which an interrupt (OutboxRelay.stop)
            // would cut short with an exception; keep the interrupt for the caller instead.
            boolean interrupted = Thread.interrupted();
            try {
                producer.close(Duration.ZERO);
            } finally {
                producer = null;
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
