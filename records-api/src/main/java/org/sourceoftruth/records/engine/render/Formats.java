package org.sourceoftruth.records.engine.render;

import java.time.OffsetDateTime;
import org.sourceoftruth.records.fieldtype.DateTimeType;

/** NetBox's wire formats for dates and times (the DATETIME kind's, see {@link DateTimeType}). */
public final class Formats {

    private Formats() {}

    /** {@code 2025-04-29T15:44:47.597092Z}: ISO-8601, microseconds, Z; null for null. */
    public static String datetime(OffsetDateTime t) {
        return t == null ? null : DateTimeType.format(t);
    }
}
