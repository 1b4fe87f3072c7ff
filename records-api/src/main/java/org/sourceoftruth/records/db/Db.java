package org.sourceoftruth.records.db;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.postgresql.util.PGobject;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * Thin JDBC helper over one connection: binds the engine's Java values (JsonNode → jsonb,
 * lists → arrays, {@link Inet} → inet/cidr) and reads rows into {@link Row}s.
 */
public final class Db implements Queries {
    private final Connection connection;
    private int statements;
    /** Per table, ids this request has seen to exist (see {@link #knownToExist}). */
    private final java.util.Map<String, java.util.Set<Long>> existing = new java.util.HashMap<>();

    public Db(Connection connection) {
        this.connection = connection;
    }

    /** A value bound as PostgreSQL inet or cidr. */
    public record Inet(String type, String value) {
        /** The address text, so validators can treat new and stored values alike. */
        @Override
        public String toString() {
            return value;
        }
    }

    /** A list bound as a typed SQL array (bigint[], integer[], text[], ...; elements of the SQL type's Java class or its text). */
    public record SqlArray(String elementType, Collection<?> values) {}

    /** Quotes a column name (some, like "default" and "unique", are SQL keywords). */
    public static String q(String column) {
        return "\"" + column + "\"";
    }

    public Connection connection() {
        return connection;
    }

    /** Statements executed through this helper (the query-count test reads it). */
    public int statementCount() {
        return statements;
    }

    /**
     * Whether a row with this id was found in the table earlier in this request. A write request
     * looks up the objects its items refer to once, for all items ({@link #markExisting}), instead
     * of once per reference; nothing in one request deletes them in between.
     */
    public boolean knownToExist(String table, long id) {
        java.util.Set<Long> ids = existing.get(table);
        return ids != null && ids.contains(id);
    }

    public void markExisting(String table, Collection<Long> ids) {
        existing.computeIfAbsent(table, t -> new java.util.HashSet<>()).addAll(ids);
    }

    public List<Row> query(String sql, List<?> params) {
        return query(sql, params, true);
    }

    /**
     * Like {@link #query(String, List)}, but planned at every execution with the values bound,
     * never with a plan kept for the session: for statements over arrays whose length decides the
     * plan. A kept (generic) plan assumes 10 elements whatever their number, and the plan it
     * picked while a table was small (a hash join over a scan of the table) stays while the table
     * grows: a probe of one new site by name went from 0.1 to several ms as sites were added.
     */
    public List<Row> queryPlannedEachTime(String sql, List<?> params) {
        return query(sql, params, false);
    }

    /** @param keepPlan whether pgjdbc may prepare the statement on the server (a plan kept for the session) */
    private List<Row> query(String sql, List<?> params, boolean keepPlan) {
        try (PreparedStatement ps = prepare(sql, params)) {
            if (!keepPlan) {
                ps.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(0);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return readRows(sql, rs);
            }
        } catch (SQLException e) {
            throw new DbException(e);
        }
    }

    @Override
    public List<Row> query(String sql, Object... params) {
        return query(sql, Arrays.asList(params));
    }

    /** One SELECT of a {@link #queryAll} round trip. */
    public record Select(String sql, List<?> params) {}

    /** The rows of one {@link Select}. */
    public List<Row> query(Select select) {
        return query(select.sql(), select.params());
    }

    /**
     * {@code select} (a SELECT of a table aliased {@code t}, no WHERE) of the rows with these
     * ids, matched by {@link #idMatch}.
     */
    public static Select byIds(String select, Collection<Long> ids) {
        Select match = idMatch("t.id", ids);
        return new Select(select + " where " + match.sql(), match.params());
    }

    /**
     * A condition that {@code column} is one of these ids, with its one parameter: "=" for one
     * id, "in (select unnest(...))" for several. PostgreSQL plans an array parameter of unknown
     * length as 10 rows, so when the statement has computed columns (subqueries run per row) the
     * generic plan looks dearer than a one-row custom plan and the statement is planned again at
     * every execution; "= $1" is planned once per session (a device's select planned anew took
     * ~0.4 ms, a fifth of a device PATCH's database CPU). Several ids are a semi-join with the
     * array's elements (hashed, or one index probe each) rather than "= any($1)": a generic plan
     * of a small table scans it and compares every row with every element of a parameter array
     * (50 racks of 500 by "= any": 0.57 ms of server time; as a semi-join 0.12 ms).
     */
    public static Select idMatch(String column, Collection<Long> ids) {
        return ids.size() == 1
                ? new Select(column + " = ?", List.of(ids.iterator().next()))
                : new Select(column + " in (select unnest(?::bigint[]))", List.of(new SqlArray("bigint", ids)));
    }

    /**
     * The rows of each statement, all sent in one round trip: pgjdbc sends the statements of one
     * text separated by {@code ;} back to back and waits once. On loopback the round trip, not
     * the lookup, is most of what a small indexed SELECT costs on both sides (five of a device
     * detail's lookups: ~19k/s one by one vs ~45k/s pipelined, pgbench on 2 cores).
     * Each statement still counts as one in {@link #statementCount()}.
     */
    public List<List<Row>> queryAll(List<Select> selects) {
        if (selects.size() == 1) {
            return List.of(query(selects.get(0).sql(), selects.get(0).params()));
        }
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (Select select : selects) {
            sql.append(sql.isEmpty() ? "" : ";\n").append(select.sql());
            params.addAll(select.params());
        }
        List<List<Row>> results = new ArrayList<>(selects.size());
        try (PreparedStatement ps = prepare(sql.toString(), params, selects.size())) {
            boolean hasRows = ps.execute();
            for (Select select : selects) {
                if (!hasRows) {
                    throw new IllegalStateException("a batched statement returned no rows: " + select.sql());
                }
                try (ResultSet rs = ps.getResultSet()) {
                    results.add(readRows(select.sql(), rs));
                }
                hasRows = ps.getMoreResults();
            }
            return results;
        } catch (SQLException e) {
            throw new DbException(e);
        }
    }

    public long count(String sql, List<?> params) {
        try (PreparedStatement ps = prepare(sql, params);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new DbException(e);
        }
    }

    public int update(String sql, List<?> params) {
        try (PreparedStatement ps = prepare(sql, params)) {
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new DbException(e);
        }
    }

    public int update(String sql, Object... params) {
        return update(sql, Arrays.asList(params));
    }

    private PreparedStatement prepare(String sql, List<?> params) throws SQLException {
        return prepare(sql, params, 1);
    }

    /** A statement text holding {@code count} statements, each counted as one. */
    private PreparedStatement prepare(String sql, List<?> params, int count) throws SQLException {
        statements += count;
        QueryCounter.add(count);
        PreparedStatement ps = connection.prepareStatement(sql);
        for (int i = 0; i < params.size(); i++) {
            bind(ps, i + 1, params.get(i));
        }
        return ps;
    }

    private void bind(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.NULL);
        } else if (value instanceof JsonNode node) {
            if (node.isNull() || node.isMissingNode()) {
                ps.setNull(index, Types.OTHER);
                return;
            }
            PGobject pg = new PGobject();
            pg.setType("jsonb");
            try {
                pg.setValue(Json.MAPPER.writeValueAsString(node));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(e);
            }
            ps.setObject(index, pg);
        } else if (value instanceof Inet inet) {
            PGobject pg = new PGobject();
            pg.setType(inet.type());
            pg.setValue(inet.value());
            ps.setObject(index, pg);
        } else if (value instanceof SqlArray array) {
            ps.setArray(index, connection.createArrayOf(array.elementType(), elements(array)));
        } else if (value instanceof java.util.List<?> list
                && !list.isEmpty()
                && list.stream().allMatch(Integer.class::isInstance)) {
            ps.setArray(index, connection.createArrayOf("integer", list.toArray()));
        } else if (value instanceof java.util.List<?> list) {
            ps.setArray(
                    index,
                    connection.createArrayOf(
                            "text", list.stream().map(String::valueOf).toArray()));
        } else if (value instanceof OffsetDateTime || value instanceof LocalDate) {
            ps.setObject(index, value);
        } else {
            ps.setObject(index, value);
        }
    }

    /**
     * An array parameter's elements in an array of their Java class: pgjdbc sends Long[] and
     * Integer[] in binary, an Object[] as the text of an array literal that PostgreSQL parses.
     * Values that do not fit the element type as they are (a fraction, digits in a string, a long
     * for an integer array) go as text, for PostgreSQL to read or refuse, never cut.
     */
    private static Object[] elements(SqlArray array) {
        Collection<?> values = array.values();
        return switch (array.elementType()) {
            case "bigint" ->
                values.stream().allMatch(Db::isWholeNumber)
                        ? values.stream()
                                .map(v -> v == null ? null : ((Number) v).longValue())
                                .toArray(Long[]::new)
                        : values.toArray();
            case "integer" ->
                values.stream().allMatch(v -> v == null || v instanceof Integer || v instanceof Short)
                        ? values.stream()
                                .map(v -> v == null ? null : ((Number) v).intValue())
                                .toArray(Integer[]::new)
                        : values.toArray();
            default -> values.toArray();
        };
    }

    /** Whether a value (or null) is a whole number that a bigint holds as it is. */
    public static boolean isWholeNumber(Object value) {
        return value == null || value instanceof Long || value instanceof Integer || value instanceof Short;
    }

    /**
     * The column layout and cell readers of each statement text read so far. Deriving them costs
     * a metadata lookup per column (pgjdbc's type cache, behind a lock) and a name index per result;
     * a device detail reads eight small results. Statements bind their values, so the texts are
     * few; past {@value #MAX_LAYOUTS} of them, a layout is derived per result and not kept.
     */
    private static final Map<String, Layout> LAYOUTS = new ConcurrentHashMap<>();

    private static final int MAX_LAYOUTS = 4096;

    private record Layout(String[] labels, Row.Columns columns, Cell[] cells) {
        /** Whether a result has these labels (a layout kept from before a schema change has not). */
        boolean matches(ResultSetMetaData md, int n) throws SQLException {
            if (labels.length != n) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (!labels[i].equals(md.getColumnLabel(i + 1))) {
                    return false;
                }
            }
            return true;
        }
    }

    private static Layout layout(String sql, ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        Layout known = LAYOUTS.get(sql);
        if (known != null && known.matches(md, n)) {
            return known;
        }
        String[] labels = new String[n];
        Cell[] cells = new Cell[n];
        for (int i = 0; i < n; i++) {
            labels[i] = md.getColumnLabel(i + 1);
            cells[i] = Cell.of(md.getColumnTypeName(i + 1));
        }
        Layout layout = new Layout(labels, new Row.Columns(labels), cells);
        if (known != null || LAYOUTS.size() < MAX_LAYOUTS) {
            LAYOUTS.put(sql, layout);
        }
        return layout;
    }

    private static List<Row> readRows(String sql, ResultSet rs) throws SQLException {
        Layout layout = layout(sql, rs);
        Cell[] cells = layout.cells();
        List<Row> rows = new ArrayList<>();
        while (rs.next()) {
            Row row = new Row(layout.columns());
            for (int i = 0; i < cells.length; i++) {
                row.setCell(i, read(rs, i + 1, cells[i]));
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * How a column's cells are read, decided once per result set from the column's SQL type
     * (a list page reads thousands of cells: no per-cell switch over type names).
     */
    private enum Cell {
        TIMESTAMPTZ,
        DATE,
        JSON,
        ARRAY,
        TEXT,
        INT,
        BIGINT,
        BOOL,
        NUMERIC,
        OTHER;

        static Cell of(String sqlType) {
            return switch (sqlType) {
                case "timestamptz" -> TIMESTAMPTZ;
                case "date" -> DATE;
                case "jsonb", "json" -> JSON;
                case "_text", "_varchar", "_int8", "_int4" -> ARRAY;
                case "inet", "cidr", "varchar", "text" -> TEXT;
                // the typed getters give what getObject gives for these types (Integer for int2 as
                // for int4), without its per-cell lookup of the column's SQL type
                case "int2", "int4" -> INT;
                case "int8" -> BIGINT;
                case "bool" -> BOOL;
                case "numeric" -> NUMERIC;
                default -> OTHER;
            };
        }
    }

    private static Object read(ResultSet rs, int i, Cell cell) throws SQLException {
        switch (cell) {
            case TIMESTAMPTZ:
                return rs.getObject(i, OffsetDateTime.class);
            case DATE:
                return rs.getObject(i, LocalDate.class);
            case JSON: {
                String s = rs.getString(i);
                if (s == null) {
                    return null;
                }
                if (s.equals("{}")) {
                    return Json.MAPPER.createObjectNode(); // most custom_field_data: no parser for it
                }
                try {
                    return Json.MAPPER.readTree(s);
                } catch (JsonProcessingException e) {
                    throw new SQLException("bad json in column", e);
                }
            }
            case ARRAY: {
                Array a = rs.getArray(i);
                if (a == null) {
                    return null;
                }
                return new ArrayList<>(Arrays.asList((Object[]) a.getArray()));
            }
            case TEXT:
                return rs.getString(i);
            case INT: {
                int v = rs.getInt(i);
                return rs.wasNull() ? null : v;
            }
            case BIGINT: {
                long v = rs.getLong(i);
                return rs.wasNull() ? null : v;
            }
            case BOOL: {
                boolean v = rs.getBoolean(i);
                return rs.wasNull() ? null : v;
            }
            case NUMERIC:
                return rs.getBigDecimal(i);
            default:
                return rs.getObject(i);
        }
    }

    /** An unchecked SQLException; the mapper turns known SQL states into 4xx answers. */
    public static final class DbException extends RuntimeException {
        public DbException(SQLException cause) {
            super(cause.getMessage(), cause);
        }

        public String sqlState() {
            return ((SQLException) getCause()).getSQLState();
        }
    }
}
