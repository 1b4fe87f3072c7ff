package org.sourceoftruth.records.changelog;

import java.time.Duration;
import java.util.Map;

/**
 * What an {@link OutboxRelay} needs: where to read (its own JDBC connection, never a pooled one,
 * because the leader lease and LISTEN belong to one database session) and where to publish.
 *
 * @param jdbcUrl        PostgreSQL URL of the records database
 * @param dbUser         database user
 * @param dbPassword     database password
 * @param producerConfig Kafka producer configuration (bootstrap servers, security, timeouts)
 * @param topic          topic the change events go to
 * @param batchSize      rows published per round trip to the broker
 * @param batchBytes     JSON bytes of rows read per round (at least one row is): bounds the heap
 *                       a backlog of large changes takes
 * @param maxEventBytes  ceiling of a serialized event; larger ones are published reduced and
 *                       flagged truncated ({@link EventEncoder})
 * @param pollInterval   longest wait for a NOTIFY before looking at the table anyway
 * @param fullReadInterval how often the relay reads the whole table rather than from above the
 *                       rows it published ({@link OutboxStore})
 * @param standbyRetry   how often a standby relay tries to take the lease
 * @param maxBackoff     longest pause between attempts while Kafka or PostgreSQL fails
 * @param cloudEventsSource ce_source of the CloudEvents headers, null to write none
 *                       ({@link CloudEventHeaders})
 */
public record OutboxSettings(
        String jdbcUrl,
        String dbUser,
        String dbPassword,
        Map<String, Object> producerConfig,
        String topic,
        int batchSize,
        long batchBytes,
        int maxEventBytes,
        Duration pollInterval,
        Duration fullReadInterval,
        Duration standbyRetry,
        Duration maxBackoff,
        String cloudEventsSource) {

    public OutboxSettings {
        producerConfig = Map.copyOf(producerConfig);
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be positive");
        }
        if (batchBytes < 1 || maxEventBytes < 1) {
            throw new IllegalArgumentException("batch bytes and event ceiling must be positive");
        }
    }

    /** Without the password, and without producer settings that may hold credentials. */
    @Override
    public String toString() {
        return "OutboxSettings[jdbcUrl=" + jdbcUrl + ", dbUser=" + dbUser + ", topic=" + topic
                + ", batchSize=" + batchSize + ", batchBytes=" + batchBytes + ", maxEventBytes=" + maxEventBytes
                + ", pollInterval=" + pollInterval + ", fullReadInterval=" + fullReadInterval + ", standbyRetry="
                + standbyRetry
                + ", maxBackoff=" + maxBackoff + ", cloudEventsSource=" + cloudEventsSource + "]";
    }
}
