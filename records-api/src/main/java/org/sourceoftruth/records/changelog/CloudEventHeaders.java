package org.sourceoftruth.records.changelog;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.kafka.common.header.Headers;
import org.sourceoftruth.model.ChangeEvent;

/**
 * The CloudEvents attributes of a change event, as Kafka headers in the binary content mode of
 * the CloudEvents Kafka binding (the record's value, the change event, is the CloudEvent's data):
 * for consumers that read CloudEvents rather than this project's events. Written when
 * {@code sot.outbox.cloud-events} is on; webhook-dispatcher does not need them. The AsyncAPI
 * document of the topic describes them.
 */
final class CloudEventHeaders {

    static final String SPEC_VERSION = "ce_specversion";
    static final String ID = "ce_id";
    static final String SOURCE = "ce_source";
    static final String TYPE = "ce_type";
    static final String SUBJECT = "ce_subject";
    static final String TIME = "ce_time";
    /** The CloudEvents "sequence" extension: the change-log id, increasing in commit order per object. */
    static final String SEQUENCE = "ce_sequence";

    static final String CONTENT_TYPE = "content-type";

    /** ce_type of a change: {@code org.sourceoftruth.object.created}, {@code .updated} or {@code .deleted}. */
    static final String TYPE_PREFIX = "org.sourceoftruth.object.";

    private CloudEventHeaders() {}

    /** Adds the event's attributes; {@code source} is the ce_source of every event (sot.outbox.cloud-events-source). */
    static void add(Headers headers, ChangeEvent event, String source) {
        put(headers, SPEC_VERSION, "1.0");
        put(headers, ID, event.changeId().toString());
        put(headers, SOURCE, source);
        put(headers, TYPE, TYPE_PREFIX + event.event());
        put(headers, SUBJECT, event.kafkaKey());
        if (event.timestamp() != null) {
            put(
                    headers,
                    TIME,
                    event.timestamp()
                            .withOffsetSameInstant(ZoneOffset.UTC)
                            .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        }
        put(headers, SEQUENCE, Long.toString(event.sequence()));
        put(headers, CONTENT_TYPE, "application/json");
    }

    private static void put(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
