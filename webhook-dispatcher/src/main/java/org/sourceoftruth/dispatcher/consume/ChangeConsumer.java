package org.sourceoftruth.dispatcher.consume;

import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.memory.HeapBudget;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.model.memory.ByteBudget;

/**
 * Consumes the change-event topic a poll at a time. The method returns only after the poll's
 * events and their deliveries are committed in PostgreSQL (one transaction); only then are the
 * records acknowledged, and the "throttled" commit strategy commits offsets of acknowledged
 * records only. A crash therefore re-delivers unacknowledged records, and the processed-change
 * table turns those repeats into no-ops.
 */
@ApplicationScoped
public class ChangeConsumer {

    private static final Logger LOG = Logger.getLogger(ChangeConsumer.class);
    private static final long MAX_BACKOFF_MS = 30_000;

    @Inject
    ChangeProcessor processor;

    @Inject
    HeapBudget heap;

    private volatile boolean stopping;

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
    }

    /**
     * One Kafka poll at a time (batch mode): all its change events are recorded in one
     * transaction, and the poll's records are acknowledged only after that commit.
     */
    @Incoming("object-changes")
    @Blocking(ordered = true)
    public void consume(ConsumerRecords<String, byte[]> records) {
        long bytes = 0;
        for (ConsumerRecord<String, byte[]> record : records) {
            bytes += record.value() == null ? 0 : record.value().length;
        }
        // the poll's events parsed, and a body per webhook that fires: reserved before parsing,
        // given back once they are stored (see HeapBudget)
        try (ByteBudget.Reservation reserved = heap.reserve(HEAP_PER_EVENT_BYTE * bytes)) {
            consume(records, records.count());
        }
    }

    /** Heap per byte of a poll's events while they are parsed, matched and stored. */
    static final int HEAP_PER_EVENT_BYTE = 6;

    private void consume(ConsumerRecords<String, byte[]> records, int count) {
        List<ChangeEvent> events = new ArrayList<>(count);
        for (ConsumerRecord<String, byte[]> record : records) {
            ChangeEvent event = parse(record);
            if (event != null) {
                events.add(event); // an unreadable record can never be processed: acknowledged with the rest
            }
        }
        if (events.isEmpty()) {
            return;
        }
        long backoff = 500;
        while (true) {
            try {
                processor.processAll(events);
                return;
            } catch (SQLException | RecordsApiException | RuntimeException e) {
                if (stopping) {
                    // not acknowledged: the next process picks them up from the committed offsets
                    throw new IllegalStateException(
                            "stopping while " + events.size() + " changes (from "
                                    + events.get(0).changeId() + ") were not stored",
                            e);
                }
                // Keep the records (and everything after them on their partitions) until the
                // database (or records-api, for the rules) is back, rather than skip them.
                LOG.warnf(
                        "Could not process %d changes from %s (retrying in %d ms): %s",
                        events.size(), events.get(0).changeId(), backoff, e.getMessage());
                sleep(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
            }
        }
    }

    private static ChangeEvent parse(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            LOG.warnf("Skipping empty record at %s-%d@%d", record.topic(), record.partition(), record.offset());
            return null;
        }
        try {
            ChangeEvent event = Json.MAPPER.readValue(record.value(), ChangeEvent.class);
            if (event.changeId() == null || event.model() == null || event.event() == null) {
                LOG.warnf(
                        "Skipping record at %s-%d@%d: change_id, model and event are required",
                        record.topic(), record.partition(), record.offset());
                return null;
            }
            return event;
        } catch (IOException e) {
            LOG.warnf(
                    "Skipping record at %s-%d@%d that is not a change event: %s",
                    record.topic(), record.partition(), record.offset(), e.getMessage());
            return null;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry", e);
        }
    }
}
