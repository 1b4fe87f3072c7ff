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
    private static final Map<String, Map<String, String>> TABLES = new ConcurrentHashMap<>();

    private ColumnTypes() {}

    /**
     * The type of {@code table}'s column {@code column}, without length or precision (a cast to
     * varchar(100) would cut longer values instead of letting them fail to match).
     */
    public static String of(Db db, String table, String column) {
        Map<String, String> columns = TABLES.get(table);
        if (columns == null) {
            // read outside the map's lock: two first requests may both read it, to the same result
            columns = read(db, table);
            TABLES.putIfAbsent(table, columns);
        }
        String type = columns.get(column);
        if (type == null) {
            throw new IllegalArgumentException("no column " + column + " in " + table);
        }
        return type;
    }

    private static Map<String, String> read(Db db, String table) {
        Map<String, String> types = new HashMap<>();
        for (Row row : db.query(
                "select a.attname::text as name, format_type(a.atttypid, null) as type"
                        + " from pg_attribute a where a.attrelid = ?::regclass and a.attnum > 0 and not a.attisdropped",
                table)) {
            types.put((String) row.get("name"), (String) row.get("type"));
        }
        return Map.copyOf(types);
    }
}
