package org.sourceoftruth.records.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Every column is declared twice: once in a model's Java declaration, once in a Flyway migration.
 * This test reads the migrated schema and checks that the two agree, so that a declaration and
 * its migration cannot drift apart unnoticed: a column that does not exist, a type the kind cannot
 * read or write, a field the API lets be null on a NOT NULL column (a 500 on write), a declared
 * maximum length the column cannot hold, a join table or counter-cache column that is missing.
 */
@QuarkusTest
class DeclarationsMatchSchemaTest {
    @Inject
    ModelRegistry registry;

    @Inject
    DataSource dataSource;

    /** The PostgreSQL types (pg_type names) a column of each kind may have. */
    private static final Map<Kind, Set<String>> COLUMN_TYPES = Map.ofEntries(
            Map.entry(Kind.STRING, Set.of("varchar", "text")),
            Map.entry(Kind.SLUG, Set.of("varchar", "text")),
            Map.entry(Kind.CHOICE, Set.of("varchar", "text")),
            Map.entry(Kind.INTEGER, Set.of("int2", "int4", "int8")),
            Map.entry(Kind.DECIMAL, Set.of("numeric")),
            Map.entry(Kind.BOOLEAN, Set.of("bool")),
            Map.entry(Kind.DATE, Set.of("date")),
            Map.entry(Kind.DATETIME, Set.of("timestamptz")),
            // json: the change log's snapshots (read as JSON; a jsonb value is assigned to json)
            Map.entry(Kind.JSON, Set.of("jsonb", "json")),
            Map.entry(Kind.CUSTOM_FIELDS, Set.of("jsonb")),
            Map.entry(Kind.STRING_LIST, Set.of("_text", "_varchar")),
            Map.entry(Kind.INTEGER_LIST, Set.of("_int2", "_int4", "_int8")),
            Map.entry(Kind.FK, Set.of("int4", "int8")),
            Map.entry(Kind.INET, Set.of("inet")),
            Map.entry(Kind.CIDR, Set.of("cidr")));

    private record Column(String type, boolean nullable, Integer maxLength) {}

    @Test
    void everyDeclaredColumnExistsWithATypeItsKindReadsAndWrites() throws SQLException {
        List<Model> models = new ArrayList<>(registry.all());
        int fields = models.stream().mapToInt(m -> m.fieldMap().size()).sum();
        assertTrue(fields > 500, "the registry declares fields (" + fields + ")");
        assertEquals(
                List.of(),
                drift(models),
                "declarations that disagree with the migrations (" + fields + " fields checked)");
    }

    /** The check itself finds drift: a site declared with a column, a type and a length it does not have. */
    @Test
    void aDeclarationThatDriftedFromItsMigrationIsReported() throws SQLException {
        Model drifted = Model.of("dcim", "sites", "dcim.site", "dcim_site", "site")
                .fields(
                        Fields.str("name").required().max(100),
                        Fields.str("facility").max(20),
                        Fields.integer("status"),
                        Fields.str("time_zone").max(63),
                        Fields.str("description").max(200).nullable(),
                        Fields.str("no_such_column").max(10),
                        Fields.fk("tenant", "tenancy.tenant").nullable(),
                        Fields.m2m("groups", "users.group", "users_user_groups", "user_id", "no_such_id"));
        assertEquals(
                List.of(
                        "dcim.site.facility: declared max length 20, column varchar(50)",
                        "dcim.site.status: INTEGER field on a varchar column",
                        "dcim.site.description: accepts null but the column is NOT NULL",
                        "dcim.site.no_such_column: column dcim_site.no_such_column does not exist",
                        "dcim.site.groups: join table column users_user_groups.no_such_id does not exist"),
                drift(List.of(drifted)));
    }

    private List<String> drift(List<Model> models) throws SQLException {
        List<String> drift = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            Map<String, Map<String, Column>> schema = new HashMap<>();
            for (Model model : models) {
                Map<String, Column> table = schema.computeIfAbsent(model.table(), t -> columnsOf(c, t));
                if (table.isEmpty()) {
                    drift.add(model.contentType() + ": table " + model.table() + " does not exist");
                    continue;
                }
                for (Field f : model.fields()) {
                    checkField(model, f, table, c, schema, drift);
                }
            }
        }
        return drift;
    }

    private void checkField(
            Model model,
            Field f,
            Map<String, Column> table,
            Connection c,
            Map<String, Map<String, Column>> schema,
            List<String> drift) {
        String where = model.contentType() + "." + f.name;
        if (f.isColumn() && !f.isRequestOnly() && COLUMN_TYPES.containsKey(f.kind)) {
            Column col = table.get(f.column());
            if (col == null && (model.extraSelects().containsKey(f.column()) || f.readExpression() != null)) {
                // a value the model's query computes (a device's primary IP, a script's latest job), not a column
                return;
            }
            if (col == null) {
                drift.add(where + ": column " + model.table() + "." + f.column() + " does not exist");
                return;
            }
            boolean readOnlyText = f.kind == Kind.STRING && !f.isWritable() && f.filterExpression != null;
            if (!COLUMN_TYPES.get(f.kind).contains(col.type()) && !readOnlyText) {
                drift.add(where + ": " + f.kind + " field on a " + col.type() + " column");
            }
            if (f.isWritable() && f.isNullable() && !col.nullable()) {
                drift.add(where + ": accepts null but the column is NOT NULL");
            }
            if (f.isWritable() && !f.isNullable() && col.nullable() && f.kind == Kind.FK && f.isRequired()) {
                drift.add(where + ": a required relation on a nullable column");
            }
            if (f.maxLength() != null
                    && col.maxLength() != null
                    && !f.maxLength().equals(col.maxLength())) {
                drift.add(
                        where + ": declared max length " + f.maxLength() + ", column varchar(" + col.maxLength() + ")");
            }
            // A value transformed before it is stored (a password hash) is not limited by its input's length.
            if (f.maxLength() == null
                    && col.maxLength() != null
                    && f.isWritable()
                    && (f.kind == Kind.STRING || f.kind == Kind.SLUG)
                    && f.choices() == null
                    && f.writeTransform() == null) {
                drift.add(where + ": column varchar(" + col.maxLength() + ") but no declared max length"
                        + " (a longer value would fail in the database instead of a 400)");
            }
        }
        if (f.kind == Kind.GENERIC_FK) {
            for (String column : new String[] {f.genericTypeColumn(), f.genericIdColumn()}) {
                if (column != null && !table.containsKey(column)) {
                    drift.add(where + ": generic relation column " + column + " does not exist");
                }
            }
        }
        if (f.kind == Kind.M2M && f.joinTable() != null) {
            Map<String, Column> join = schema.computeIfAbsent(f.joinTable(), t -> columnsOf(c, t));
            for (String column : new String[] {f.joinOwnColumn(), f.joinTargetColumn()}) {
                if (!join.containsKey(column)) {
                    drift.add(where + ": join table column " + f.joinTable() + "." + column + " does not exist");
                }
            }
        }
        if (f.kind == Kind.COUNT && f.counterColumn() != null && !table.containsKey(f.counterColumn())) {
            drift.add(where + ": counter-cache column " + f.counterColumn() + " does not exist");
        }
        if (f.kind == Kind.COUNT && f.countTable() != null) {
            Map<String, Column> counted = schema.computeIfAbsent(f.countTable(), t -> columnsOf(c, t));
            if (counted.isEmpty()) {
                drift.add(where + ": counted table " + f.countTable() + " does not exist");
            } else if (f.countColumn() != null && !counted.containsKey(f.countColumn())) {
                drift.add(where + ": counted column " + f.countTable() + "." + f.countColumn() + " does not exist");
            }
        }
    }

    private static Map<String, Column> columnsOf(Connection c, String table) {
        Map<String, Column> columns = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select column_name, udt_name, is_nullable = 'YES', character_maximum_length
                from information_schema.columns where table_schema = current_schema() and table_name = ?""")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int max = rs.getInt(4);
                    Integer maxLength = rs.wasNull() ? null : max;
                    columns.put(rs.getString(1), new Column(rs.getString(2), rs.getBoolean(3), maxLength));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return columns;
    }
}
