package org.sourceoftruth.dispatcher.replay;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * A replay: the past changes it re-delivers (one change, or a time range, optionally of some
 * object types), to which webhook, how fast, and how far it has got.
 *
 * @param position the change-log sequence of the last change read
 */
public record Replay(
        long id,
        String state,
        long webhookId,
        String webhookName,
        UUID changeId,
        OffsetDateTime since,
        OffsetDateTime until,
        List<String> objectTypes,
        int rate,
        long position,
        long changesRead,
        long deliveries,
        String error,
        OffsetDateTime created,
        String createdBy,
        OffsetDateTime finishedAt) {

    public static final String RUNNING = "running";
    public static final String FINISHED = "finished";
    public static final String CANCELLED = "cancelled";
    public static final String FAILED = "failed";
}
