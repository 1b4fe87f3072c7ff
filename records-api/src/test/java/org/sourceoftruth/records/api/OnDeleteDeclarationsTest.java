package org.sourceoftruth.records.api;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine carries out deletes' cascades itself from the models' declared rules (so that it
 * can log every row it touches); the migrations' ON DELETE rules are the safety net. Both must
 * say the same, or the engine would, say, clear a reference the database means to protect.
 */
@QuarkusTest
class OnDeleteDeclarationsTest {
    @Inject
    ModelRegistry registry;
    @Inject
    DataSource dataSource;

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
