package org.sourceoftruth.records.db;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sourceoftruth.records.model.Row;

/**
 * The SQL types of a table's columns, read from PostgreSQL's catalog once per table and kept:
 * statements that pass a column's values as one array parameter (text, cast to the column's type
 * in SQL) name the type, so that their text stays the same whatever the number of rows, instead
 * of a VALUES list of thousands of parameters that PostgreSQL parses and plans as a new text.
 * The schema changes only with a migration, before the service starts.
 */
public final class ColumnTypes {
    private static final Map<String, Map<String, Column>> TABLES = new ConcurrentHashMap<>();

    /**
     * One column: its type without length or precision, and PostgreSQL's type modifier
     * ({@code atttypmod}: -1 when none; for numeric(p, s), {@code ((p << 16) | s) + 4}).
     */
    public record Column(String type, int typeModifier) {}

    private ColumnTypes() {}

    /**
     * The type of {@code table}'s column {@code column}, without length or precision (a cast to
     * varchar(100) would cut longer values instead of letting them fail to match).
     */
    public static String of(Db db, String table, String column) {
        Column c = column(db, table, column);
        if (c == null) {
            throw new IllegalArgumentException("no column " + column + " in " + table);
        }
        return c.type();
    }

    /** {@code table}'s column {@code column}, null when the table has none of that name. */
    public static Column column(Db db, String table, String column) {
        Map<String, Column> columns = TABLES.get(table);
        if (columns == null) {
            // read outside the map's lock: two first requests may both read it, to the same result
            columns = read(db, table);
            TABLES.putIfAbsent(table, columns);
        }
        return columns.get(column);
    }

    private static Map<String, Column> read(Db db, String table) {
        Map<String, Column> types = new HashMap<>();
        for (Row row : db.query(
                "select a.attname::text as name, format_type(a.atttypid, null) as type, a.atttypmod as typmod"
                        + " from pg_attribute a where a.attrelid = ?::regclass and a.attnum > 0 and not a.attisdropped",
                table)) {
            types.put(
                    (String) row.get("name"),
                    new Column((String) row.get("type"), ((Number) row.get("typmod")).intValue()));
        }
        return Map.copyOf(types);
    }
}
