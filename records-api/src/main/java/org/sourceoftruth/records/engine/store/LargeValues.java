package org.sourceoftruth.records.engine.store;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
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
import java.util.concurrent.ConcurrentHashMap;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.memory.MemoryConfig;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * Reads of rows that leave their large values in the database. A text or JSON column may hold
 * megabytes (anyone who may write a comment can store 10 MB in it); a page that read them with its
 * rows held all of them in the heap at once, once as the driver's bytes and once as strings, and a
 * few such pages in parallel ran the heap out. The {@link #select read select} of a model gives,
 * for each value of more than {@code sot.memory.large-value-bytes}, null instead of the value, and
 * the row's {@link #WITHHELD} column says how many bytes were left out (0 for almost every row).
 * Whoever shows such a row reads it again on its own ({@link Model#selectFrom()}), under the heap
 * budget, when it is written to the response.
 *
 * <p>The sizes come from the values' headers: {@code octet_length} of a text is its length
 * without reading it (toasted or not), and a JSON value not compressed is the size PostgreSQL
 * keeps; only a compressed JSON value (over ~2 KB) is measured by its text. Which columns may be
 * large (text, unbounded varchar, json, jsonb) is read once from the catalog, for every table.
 */
@ApplicationScoped
public class LargeValues {
    /** The column of a read select that holds the bytes its large values left out (JSON weighted, see {@link #heapEstimate}). */
    public static final String WITHHELD = "sot_withheld";

    /** How much more a JSON value takes in the heap than text of its size (a parsed tree, not one string). */
    private static final int JSON_WEIGHT = 3;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    MemoryConfig config;

    /** A page longer than this leaves out values of more than an eighth of the limit (see {@link #select(Model, long)}). */
    public static final int SHORT_PAGE = 100;

    private volatile Map<String, List<Column>> columns;
    private final Map<Model, ReadSelect> selects = new ConcurrentHashMap<>();
    private final Map<Model, ReadSelect> longPageSelects = new ConcurrentHashMap<>();

    /** A column of a table, and whether it may hold a large value (and as text or JSON). */
    private record Column(String name, Type type) {}

    private enum Type {
        BOUNDED,
        TEXT,
        JSON
    }

    /** A model's read select, the expression of its {@link #WITHHELD} column, and the columns it may leave out. */
    private record ReadSelect(String sql, String withheld, Set<String> largeColumns) {}

    /**
     * {@link Model#selectFrom()} with large values left out: every column of the table, each one
     * that may be large as {@code case when <size> <= limit then <value> end}, then the model's
     * own computed columns, then {@link #WITHHELD}. A table without such columns reads as
     * {@code selectFrom()}, and its rows have no {@link #WITHHELD} column (0).
     */
    public String select(Model model) {
        return readSelect(model).sql();
    }

    /**
     * The read select for a page of {@code rows} rows: a page longer than {@value #SHORT_PAGE}
     * leaves out values of more than an eighth of {@code sot.memory.large-value-bytes}, so that
     * the values a page holds stay about the same whatever its length (a 1,000-row page of
     * values just under the limit would hold 16 MB of each such column).
     */
    public String select(Model model, long rows) {
        return rows <= SHORT_PAGE ? select(model) : longPageSelect(model).sql();
    }

    /**
     * The SQL expression (over the table aliased {@code t}) of the bytes the row's large values
     * take, as {@link #WITHHELD} counts them; "0" for a table without such columns.
     */
    public String withheldExpression(Model model) {
        return readSelect(model).withheld();
    }

    /** The columns of the model's table that may hold a large value. */
    public Set<String> largeColumns(Model model) {
        return readSelect(model).largeColumns();
    }

    /** The bytes of large values a row of a {@link #select read select} left out; 0 for a complete row. */
    public static long withheld(Row row) {
        Object v = row.get(WITHHELD);
        return v instanceof Number n ? n.longValue() : 0;
    }

    /**
     * The heap that holding, rendering and writing rows whose large values come to {@code bytes}
     * (as {@link #WITHHELD} counts them) may take: the driver's bytes, the strings decoded from
     * them (two bytes a character beyond Latin-1) and the rendered value.
     */
    public static long heapEstimate(long bytes) {
        return 3 * bytes;
    }

    private ReadSelect readSelect(Model model) {
        ReadSelect known = selects.get(model);
        return known != null ? known : selects.computeIfAbsent(model, m -> build(m, config.largeValueBytes()));
    }

    private ReadSelect longPageSelect(Model model) {
        ReadSelect known = longPageSelects.get(model);
        return known != null
                ? known
                : longPageSelects.computeIfAbsent(model, m -> build(m, Math.max(1024, config.largeValueBytes() / 8)));
    }

    private ReadSelect build(Model model, long limit) {
        List<Column> table = tableColumns().get(model.table());
        if (table == null || table.stream().allMatch(c -> c.type() == Type.BOUNDED)) {
            return new ReadSelect(model.selectFrom(), "0", Set.of());
        }
        List<String> outputs = new ArrayList<>();
        List<String> withheld = new ArrayList<>();
        java.util.LinkedHashSet<String> large = new java.util.LinkedHashSet<>();
        for (Column c : table) {
            String column = "t." + Db.q(c.name());
            if (c.type() == Type.BOUNDED) {
                outputs.add(column);
                continue;
            }
            large.add(c.name());
            String size = c.type() == Type.TEXT
                    ? "octet_length(" + column + ")::int8"
                    : "(case when pg_column_compression(" + column + ") is null then pg_column_size(" + column
                            + ") else octet_length(" + column + "::text) end)::int8";
            outputs.add("case when " + size + " <= " + limit + " then " + column + " end as " + Db.q(c.name()));
            withheld.add("case when " + size + " > " + limit + " then "
                    + (c.type() == Type.JSON ? JSON_WEIGHT + " * " : "") + size + " else 0 end");
        }
        // the model's own select, with "t.*" replaced by the columns above
        String own = model.selectFrom();
        String prefix = "select t.*";
        String from = " from " + model.table() + " t";
        if (!own.startsWith(prefix) || !own.endsWith(from)) {
            return new ReadSelect(own, "0", Set.of());
        }
        String sizes = "(" + String.join(" + ", withheld) + ")";
        String sql =
                "select " + String.join(", ", outputs) + own.substring(prefix.length(), own.length() - from.length())
                        + ", " + sizes + " as " + WITHHELD + from;
        return new ReadSelect(sql, sizes, Set.copyOf(large));
    }

    private Map<String, List<Column>> tableColumns() {
        Map<String, List<Column>> known = columns;
        if (known == null) {
            synchronized (this) {
                known = columns;
                if (known == null) {
                    known = readCatalog();
                    columns = known;
                }
            }
        }
        return known;
    }

    /** Every column of every table of the schema, in the tables' order (that of {@code t.*}). */
    private Map<String, List<Column>> readCatalog() {
        Map<String, List<Column>> tables = new HashMap<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                        select c.relname, a.attname, t.typname, a.atttypmod
                          from pg_attribute a
                          join pg_class c on c.oid = a.attrelid
                          join pg_type t on t.oid = a.atttypid
                         where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
                           and a.attnum > 0 and not a.attisdropped
                         order by c.relname, a.attnum""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String type = rs.getString(3);
                int modifier = rs.getInt(4);
                Type kind = switch (type) {
                    case "text" -> Type.TEXT;
                    case "varchar" -> modifier < 0 ? Type.TEXT : Type.BOUNDED;
                    case "json", "jsonb" -> Type.JSON;
                    default -> Type.BOUNDED;
                };
                tables.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(new Column(rs.getString(2), kind));
            }
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        return tables;
    }
}
