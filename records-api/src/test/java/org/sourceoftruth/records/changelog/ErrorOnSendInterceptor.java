package org.sourceoftruth.records.changelog;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A Kafka producer interceptor (configured with {@code interceptor.classes}) that throws an
 * {@link OutOfMemoryError} from the producer's {@code send}, on the thread that sends, as many
 * times as armed. Kafka catches exceptions of interceptors, not errors: the error reaches the
 * caller as a real one would.
 */
public final class ErrorOnSendInterceptor implements ProducerInterceptor<Object, Object> {

    private static final AtomicInteger ARMED = new AtomicInteger();
    private static final AtomicInteger THROWN = new AtomicInteger();

    /** The next {@code times} sends (by any producer with this interceptor) throw. */
    static void arm(int times) {
        ARMED.set(times);
    }

    static int thrown() {
        return THROWN.get();
    }

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        if (ARMED.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            THROWN.incrementAndGet();
            throw new OutOfMemoryError("Java heap space (thrown by ErrorOnSendInterceptor)");
        }
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {}
}
