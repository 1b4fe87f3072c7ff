package org.sourceoftruth.records.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/** The schema's foreign keys, checked against the model declarations and the engine's lookups. */
@QuarkusTest
class ForeignKeysTest {
    @Inject
    ModelRegistry registry;

    @Inject
    DataSource dataSource;

    /**
     * The engine carries out deletes' cascades itself from the models' declared rules (so that it
     * can log every row it touches); the migrations' ON DELETE rules are the safety net. Both must
     * say the same, or the engine would, say, clear a reference the database means to protect.
     */
    @Test
    void everyForeignKeyIsDeclaredWithTheMigrationsOnDeleteRule() throws SQLException {
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        try (Connection c = dataSource.getConnection()) {
            for (Model model : registry.all()) {
                for (Field f : model.fields()) {
                    if (f.kind != Kind.FK || f.isReadOnly() || model.isReadOnlyApi()) {
                        continue;
                    }
                    String rule = deleteRule(c, model.table(), f.column());
                    Field.OnDelete expected = switch (rule) {
                        case "c" -> Field.OnDelete.CASCADE;
                        case "n" -> Field.OnDelete.SET_NULL;
                        case "r", "a" -> Field.OnDelete.PROTECT;
                        default -> null;
                    };
                    checked++;
                    if (expected != f.onDelete()) {
                        mismatches.add(model.contentType() + "." + f.name + ": declared " + f.onDelete()
                                + ", migration " + rule);
                    }
                }
            }
        }
        assertEquals(List.of(), mismatches, "of " + checked + " foreign keys");
    }

    /**
     * Every foreign-key column leads an index, as Django gives every ForeignKey one. The engine
     * looks rows up by their references all the time (reverse relations when rendering, a delete's
     * dependents, the ON DELETE actions themselves); without an index each lookup scans the whole
     * referencing table, which at 250,000 interfaces costs tens of milliseconds per statement.
     * A migration that adds a reference without its index fails here.
     */
    @Test
    void everyForeignKeyColumnLeadsAnIndex() throws SQLException {
        List<String> unindexed = new ArrayList<>();
        int foreignKeys = 0;
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
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

    /** confdeltype of the foreign key on table.column ('c', 'n', 'r', 'a'), or "none". */
    private static String deleteRule(Connection c, String table, String column) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select k.confdeltype::text from pg_constraint k
                  join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
                 where k.contype = 'f' and k.conrelid = ?::regclass and a.attname = ? and cardinality(k.conkey) = 1""")) {
            ps.setString(1, table);
            ps.setString(2, column);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : "none";
            }
        }
    }
}
