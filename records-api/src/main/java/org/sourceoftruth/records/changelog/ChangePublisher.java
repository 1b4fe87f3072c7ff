package org.sourceoftruth.records.changelog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.sourceoftruth.model.ChangeEvent;

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
 *
 * <p>Size: events are compressed (gzip unless kafka.compression.type says otherwise; see
 * {@link #DEFAULT_COMPRESSION}) and may be
 * as large as the ceiling ({@link EventEncoder}); larger ones go out reduced and flagged. A row
 * Kafka refuses for what it holds (too large for the topic, invalid), or that cannot be turned
 * into an event at all, is <em>rejected</em>: the relay parks it and carries on with the next
 * rows, because retrying it would block every later event forever. Failures of the broker or the
 * connection are never a rejection: the relay waits and resends, as before.
 */
final class ChangePublisher implements AutoCloseable {

    /**
     * gzip: the JDK's own zlib, so it works in the native executable with nothing to register
     * (zstd and snappy are JNI libraries, lz4 falls back to its pure-Java code there). On the JVM
     * the relay's rate with it was not below zstd's within the benchmark's noise, at 11 % more
     * bytes on the topic than zstd and 36 % fewer than lz4 (bench/relay-codec, docs/operations.md).
     * Every codec is registered for the native image (kafka-codecs), so the consumer reads any,
     * older zstd records included.
     */
    static final String DEFAULT_COMPRESSION = "gzip";

    /** The most the idempotent producer keeps in order. */
    private static final int MAX_IN_FLIGHT = 5;
    /**
     * Room above the event ceiling for the record and batch headers and the key, in
     * max.request.size and in the topic's max.message.bytes (deploy/local/stack adds the same).
     */
    static final int RECORD_OVERHEAD_BYTES = 16 * 1024;

    /**
     * How a round went. {@code acknowledged} leading changes reached the broker. After them:
     * <ul>
     * <li>{@code rejection} not null: the next change can never be published, for that reason;</li>
     * <li>{@code resendReduced}: Kafka refused the next change as too large, and the next round
     * sends it in reduced form (the broker or topic allows less than the ceiling);</li>
     * <li>otherwise Kafka failed ({@code failure}) or the round was interrupted: resend later.</li>
     * </ul>
     * {@code truncated}: how many of the acknowledged events went out in reduced form.
     */
    record Outcome(int acknowledged, String rejection, boolean resendReduced, Throwable failure, int truncated) {}

    private final Map<String, Object> config;
    private final String topic;
    private final EventEncoder encoder;
    /** ce_source of the CloudEvents headers; null: no such headers. */
    private final String cloudEventsSource;
    /** Rows Kafka refused in full form: their next attempt goes out reduced. */
    private final Set<Long> sendReduced = new HashSet<>();

    private KafkaProducer<String, byte[]> producer;

    ChangePublisher(Map<String, Object> producerConfig, String topic, int maxEventBytes, String cloudEventsSource) {
        this.config = effectiveConfig(producerConfig, maxEventBytes);
        this.topic = topic;
        this.encoder = new EventEncoder(maxEventBytes);
        this.cloudEventsSource = cloudEventsSource;
    }

    /**
     * The given kafka.* configuration (producer settings only), with what ordering and delivery
     * depend on forced, and defaults for the rest.
     */
    static Map<String, Object> effectiveConfig(Map<String, Object> given, int maxEventBytes) {
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
        config.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, DEFAULT_COMPRESSION);
        // Lets every event up to the ceiling through the producer's own check (it measures the
        // uncompressed record). Set lower explicitly, it makes the producer refuse larger events,
        // which then go out reduced, as when the broker refuses them.
        int maxRequestSize = maxEventBytes + RECORD_OVERHEAD_BYTES;
        config.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequestSize);
        // A record must also fit in the producer's buffer.
        config.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG, Math.max(32L * 1024 * 1024, 2L * maxRequestSize));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
        int inFlight = Integer.parseInt(String.valueOf(
                config.getOrDefault(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, MAX_IN_FLIGHT)));
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, Math.min(inFlight, MAX_IN_FLIGHT));
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return Map.copyOf(config);
    }

    /**
     * Sends the changes in order and waits for the broker; see {@link Outcome} for what comes back.
     */
    Outcome publish(List<PendingChange> changes) {
        AtomicReference<Exception> firstFailure = new AtomicReference<>();
        List<Future<RecordMetadata>> sent = new ArrayList<>(changes.size());
        List<Boolean> sentReduced = new ArrayList<>(changes.size());
        String unsendable = null;
        try {
            KafkaProducer<String, byte[]> producer = producer();
            try {
                for (PendingChange change : changes) {
                    if (firstFailure.get() != null) {
                        break;
                    }
                    ChangeEvent event;
                    EventEncoder.Encoded encoded;
                    try {
                        event = change.toEvent();
                        encoded = sendReduced.contains(change.id())
                                ? encoder.encodeReduced(event)
                                : encoder.encode(event);
                    } catch (EventEncoder.TooLargeException | RuntimeException e) {
                        // Nothing after it is sent either: the relay parks it, then goes on from there.
                        unsendable = (e instanceof EventEncoder.TooLargeException ? "" : "cannot be made an event: ")
                                + e.getMessage();
                        break;
                    }
                    sentReduced.add(encoded.truncated());
                    ProducerRecord<String, byte[]> record =
                            new ProducerRecord<>(topic, event.kafkaKey(), encoded.bytes());
                    if (cloudEventsSource != null) {
                        CloudEventHeaders.add(record.headers(), event, cloudEventsSource);
                    }
                    sent.add(producer.send(record, (metadata, failure) -> {
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
        Throwable failure = firstFailure.get();
        int acknowledged = 0;
        Throwable refusal = null;
        for (Future<RecordMetadata> result : sent) {
            try {
                result.get();
                acknowledged++;
            } catch (ExecutionException e) {
                refusal = e.getCause();
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = e;
                break;
            }
        }
        if (failure != null) {
            // The retry starts with a fresh producer: nothing of this round is left behind in it.
            close();
        }
        int truncated = (int) sentReduced.subList(0, acknowledged).stream()
                .filter(reduced -> reduced)
                .count();
        forgetReduced(changes.subList(0, acknowledged));
        if (acknowledged == sent.size() && unsendable != null && failure == null) {
            forgetReduced(changes.subList(acknowledged, acknowledged + 1));
            return new Outcome(acknowledged, unsendable, false, null, truncated);
        }
        if (refusal != null && refusesTheRecord(refusal)) {
            PendingChange refused = changes.get(acknowledged);
            if (refusal instanceof RecordTooLargeException && !sentReduced.get(acknowledged)) {
                sendReduced.add(refused.id());
                return new Outcome(acknowledged, null, true, refusal, truncated);
            }
            forgetReduced(List.of(refused));
            return new Outcome(
                    acknowledged, "Kafka refused the event: " + refusal.getMessage(), false, refusal, truncated);
        }
        return new Outcome(acknowledged, null, false, failure, truncated);
    }

    /** Published or parked: these rows are never sent again, reduced or not. */
    private void forgetReduced(List<PendingChange> changes) {
        if (!sendReduced.isEmpty()) {
            changes.forEach(change -> sendReduced.remove(change.id()));
        }
    }

    /**
     * Whether Kafka refused the record for what it holds, so that sending it again can never
     * succeed. Everything else (the broker away, no leader, timeouts, authorization, an unknown
     * topic) is a failure of the path, not of the record, and is waited out.
     */
    static boolean refusesTheRecord(Throwable failure) {
        return failure instanceof RecordTooLargeException
                || failure instanceof RecordBatchTooLargeException
                || failure instanceof InvalidRecordException;
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
