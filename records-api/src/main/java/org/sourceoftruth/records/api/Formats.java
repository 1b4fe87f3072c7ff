package org.sourceoftruth.records.api;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** NetBox's wire formats for dates and times. */
public final class Formats {
    /** {@code 2025-04-29T15:44:47.597092Z}: ISO-8601, microseconds, Z. */
    public static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'");

    private Formats() {
    }

    public static String datetime(OffsetDateTime t) {
        return t == null ? null : DATETIME.format(t.withOffsetSameInstant(ZoneOffset.UTC));
    }
}
