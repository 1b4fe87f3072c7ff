package org.sourceoftruth.records.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Behaviour held in PL/pgSQL is invisible to a Java search, so docs/where-behaviour-lives.md lists
 * every function the migrations create. This test reads the migrated schema's functions and the
 * document's function names (the first column of its tables) and fails when either names one the
 * other does not: a new trigger function must be documented with why it is in SQL.
 */
@QuarkusTest
class TriggerInventoryTest {
    private static final Path DOCUMENT = Path.of("..", "docs", "where-behaviour-lives.md");
    private static final Pattern FUNCTION_CELL = Pattern.compile("^\\| (`[a-z0-9_]+`(?:, `[a-z0-9_]+`)*) \\|");
    private static final Pattern NAME = Pattern.compile("`([a-z0-9_]+)`");

    @Inject
    DataSource dataSource;

    @Test
    void everyFunctionOfTheSchemaIsDocumentedAndEveryDocumentedOneExists() throws SQLException, IOException {
        Set<String> inSchema = schemaFunctions();
        Set<String> documented = documentedFunctions(Files.readAllLines(DOCUMENT));
        assertTrue(inSchema.size() >= 15, "the migrations create functions: " + inSchema);

        Set<String> undocumented = new TreeSet<>(inSchema);
        undocumented.removeAll(documented);
        Set<String> stale = new TreeSet<>(documented);
        stale.removeAll(inSchema);
        assertEquals(Set.of(), undocumented, "functions missing from " + DOCUMENT);
        assertEquals(Set.of(), stale, DOCUMENT + " names functions the schema does not have");
    }

    @Test
    void theDocumentParserFindsTheNamesOfATableRow() {
        List<String> lines = List.of(
                "| function | defined in |",
                "|---|---|",
                "| `a_one`, `b_two` | V1 | `not_a_function_table` |",
                "| `c_three` | V2 |",
                "text with `d_four` in it");
        assertEquals(Set.of("a_one", "b_two", "c_three"), documentedFunctions(lines));
    }

    private Set<String> schemaFunctions() throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select p.proname from pg_proc p"
                        + " join pg_namespace n on n.oid = p.pronamespace"
                        + " where n.nspname = current_schema()"
                        + " and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')")) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    private static Set<String> documentedFunctions(List<String> lines) {
        Set<String> names = new TreeSet<>();
        for (String line : lines) {
            Matcher cell = FUNCTION_CELL.matcher(line);
            if (cell.find()) {
                Matcher name = NAME.matcher(cell.group(1));
                while (name.find()) {
                    names.add(name.group(1));
                }
            }
        }
        return names;
    }
}
