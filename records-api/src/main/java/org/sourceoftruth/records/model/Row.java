package org.sourceoftruth.records.model;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;

/** One database row, keyed by column name, with the few typed reads the engine needs. */
public final class Row extends LinkedHashMap<String, Object> {

    public Row() {
    }

    /**
     * A row that will hold {@code columns} values without rehashing: a device row has ~45 cells,
     * and a default-sized map was resized twice while a result set row was read into it.
     */
    public Row(int columns) {
        super(columns * 4 / 3 + 1);
    }

    public long id() {
        return ((Number) get("id")).longValue();
    }

    public String str(String column) {
        Object v = get(column);
        return v == null ? null : v.toString();
    }

    public Long longValue(String column) {
        Object v = get(column);
        return v == null ? null : ((Number) v).longValue();
    }

    public BigDecimal decimal(String column) {
        Object v = get(column);
        if (v == null) {
            return null;
        }
        return v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
    }

    public OffsetDateTime time(String column) {
        return (OffsetDateTime) get(column);
    }
}
