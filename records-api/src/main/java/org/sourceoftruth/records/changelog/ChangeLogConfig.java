package org.sourceoftruth.records.changelog;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.sourceoftruth.model.Topics;

/** The change log, its retention, and the outbox relay that publishes it to Kafka. */
@ConfigMapping(prefix = "sot")
public interface ChangeLogConfig {
    /** The Kafka topic change events are published to (CHANGES_TOPIC). */
    @WithDefault(Topics.OBJECT_CHANGES)
    String changesTopic();

    Changelog changelog();

    Outbox outbox();

    interface Changelog {
        /** Days change records are kept (NetBox's CHANGELOG_RETENTION; 0 keeps them for ever). */
        @WithDefault("90")
        int retention();
    }

    interface Outbox {
        /** Whether this replica runs the relay at all (a leader lease picks the one that publishes). */
        @WithDefault("true")
        boolean enabled();

        @WithDefault("500")
        int batchSize();

        @WithDefault("16777216")
        long batchBytes();

        /** Largest event published whole (OUTBOX_MAX_EVENT_BYTES); larger ones are reduced. */
        @WithDefault("8388608")
        int maxEventBytes();

        @WithDefault("1s")
        Duration pollInterval();

        /**
         * How often the relay reads the whole table instead of from above the rows it published
         * (see OutboxStore): finds rows made unpublished by hand, without a notification.
         */
        @WithDefault("1m")
        Duration fullReadInterval();

        /**
         * How often a replica that is not the leader tries to take the lease: after a leader dies,
         * publishing resumes within about this long.
         */
        @WithDefault("1s")
        Duration standbyRetry();

        /**
         * Whether records also carry CloudEvents attributes as headers (binary content mode, see
         * CloudEventHeaders), for consumers other than webhook-dispatcher (OUTBOX_CLOUD_EVENTS).
         */
        @WithDefault("false")
        boolean cloudEvents();

        /** ce_source of those events (OUTBOX_CLOUD_EVENTS_SOURCE). */
        @WithDefault("urn:sot:records-api")
        String cloudEventsSource();

        @WithDefault("30s")
        Duration maxBackoff();
    }
}
