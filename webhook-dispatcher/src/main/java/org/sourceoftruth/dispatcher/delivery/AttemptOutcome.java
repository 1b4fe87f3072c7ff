package org.sourceoftruth.dispatcher.delivery;

import java.time.Instant;

/**
 * What one HTTP attempt gave.
 *
 * @param statusCode      null when no response arrived (timeout, connection or TLS error)
 * @param error           null on a 2xx response
 * @param responseExcerpt the first KiB of the response body, decoded as UTF-8
 */
public record AttemptOutcome(
        Instant startedAt, long durationMs, Integer statusCode, String error, String responseExcerpt) {

    public boolean succeeded() {
        return statusCode != null && statusCode >= 200 && statusCode < 300;
    }
}
