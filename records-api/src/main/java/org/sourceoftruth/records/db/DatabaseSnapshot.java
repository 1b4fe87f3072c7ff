package org.sourceoftruth.records.db;

import org.sourceoftruth.records.model.Row;

/**
 * The snapshot a statement sees ({@code pg_current_snapshot()}), read beside its own columns.
 * Two statements with the same snapshot see the same rows: no transaction can have ended between
 * them. A statement in a transaction that has written also sees its own uncommitted rows, which the
 * snapshot does not show, so its snapshot identifies nothing.
 */
public final class DatabaseSnapshot {
    /** Select-list items giving the snapshot and whether the transaction has written, read by {@link #of}. */
    public static final String COLUMNS =
            "pg_current_snapshot()::text as snapshot," + " pg_current_xact_id_if_assigned() is null as read_only";

    private DatabaseSnapshot() {}

    /** The snapshot of a row with {@link #COLUMNS}, or null when its transaction has written. */
    public static String of(Row row) {
        return Boolean.TRUE.equals(row.get("read_only")) ? row.str("snapshot") : null;
    }
}
