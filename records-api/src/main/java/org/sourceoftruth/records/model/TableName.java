package org.sourceoftruth.records.model;

/**
 * Makes a table name a value rather than a compile-time constant. javac copies the text of a
 * {@code static final String} constant into every class that uses it and keeps no trace of where
 * it came from; a constant initialised through {@link #of} is read from its holder instead, so a
 * class naming another package's table depends on that package's holder, which the architecture
 * test sees (see {@code docs/architecture.md}, "Table names in SQL").
 */
public final class TableName {
    private TableName() {}

    public static String of(String table) {
        return table;
    }
}
