package org.sourceoftruth.records.api;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every foreign-key column leads an index, as Django gives every ForeignKey one. The engine
 * looks rows up by their references all the time (reverse relations when rendering, a delete's
 * dependents, the ON DELETE actions themselves); without an index each lookup scans the whole
 * referencing table, which at 250,000 interfaces costs tens of milliseconds per statement.
 * A migration that adds a reference without its index fails here.
 */
@QuarkusTest
class ForeignKeyIndexesTest {
    @Inject
    DataSource dataSource;

    @Test
    void everyForeignKeyColumnLeadsAnIndex() throws SQLException {
        List<String> unindexed = new ArrayList<>();
        int foreignKeys = 0;
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("""
                     select k.conrelid::regclass::text || '.' || a.attname,
                            exists (select 1 from pg_index i
                                     where i.indrelid = k.conrelid and i.indkey[0] = k.conkey[1]) as indexed
                       from pg_constraint k
                       join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
                      where k.contype = 'f' and cardinality(k.conkey) = 1
                        and k.connamespace = 'public'::regnamespace
                      order by 1""")) {
            while (rs.next()) {
                foreignKeys++;
                if (!rs.getBoolean(2)) {
                    unindexed.add(rs.getString(1));
                }
            }
        }
        assertTrue(foreignKeys > 200, "the schema's foreign keys were found: " + foreignKeys);
        assertEquals(List.of(), unindexed, "foreign-key columns without an index");
    }
}
