package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The relay plans its read once per session ({@link OutboxStore#SESSION_SETTINGS}), so that one
 * plan must be right for any backlog, including the plan made on a new database whose tables are
 * empty and were never analysed: there, a plain join of the pending list and the change log was
 * planned as a merge join that walks the change log's primary key from its first row at every
 * batch. The plan is read here on empty, never-analysed copies of the two tables, in a
 * transaction that is rolled back.
 */
@QuarkusTest
class RelayStatementPlanTest {

    @Inject
    DataSource dataSource;

    @Test
    void theRelaysReadLooksUpChangesByIdOnANewDatabase() throws SQLException {
        List<String> plan = genericPlanOnEmptyTables(OutboxStore.SELECT_UNPUBLISHED);
        String text = String.join("\n", plan);
        assertFalse(
                text.contains("Merge Join") || text.contains("Hash Join") || text.contains("Seq Scan"),
                "the change log must be reached by id lookups only:\n" + text);
        List<String> changeLogReads = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            if (plan.get(i).contains(" on core_objectchange ") || plan.get(i).endsWith(" on core_objectchange")) {
                changeLogReads.add(plan.get(i) + " / "
                        + (i + 1 < plan.size() ? plan.get(i + 1).trim() : ""));
            }
        }
        assertFalse(changeLogReads.isEmpty(), "the plan reads the change log:\n" + text);
        for (String read : changeLogReads) {
            assertTrue(
                    read.contains("Index Scan using core_objectchange_pkey") && read.contains("Index Cond: (id = "),
                    "each read of the change log is a primary-key lookup of one id: " + read + "\n" + text);
        }
        long writerLookups = plan.stream()
                .filter(line -> line.contains(" on core_objectchange_pending_xid"))
                .count();
        assertTrue(
                writerLookups >= 2,
                "the rows below the bound are found by their writers' transaction ids,"
                        + " in the range after the last read's snapshot and among the transactions running then:\n"
                        + text);
    }

    /**
     * Below the read bound the pending list's primary key holds every entry published since the
     * last VACUUM; the rows there are found by their writers' transaction ids, never by a walk of
     * that key's range. The plan is made on a list of 100,000 analysed rows below the bound, where
     * "id < floor" on the key looked cheap to the planner.
     */
    @Test
    void theRowsBelowTheBoundAreNotFoundByARangeOfThePrimaryKey() throws SQLException {
        String text = String.join(
                "\n",
                genericPlan(
                        OutboxStore.SELECT_UNPUBLISHED,
                        "insert into core_objectchange_pending (id, xid)"
                                + " select g, pg_current_xact_id() from generate_series(1, 100000) g",
                        "analyze core_objectchange_pending"));
        assertFalse(
                text.contains("Index Cond: (id < "),
                "the primary key of the pending list is read from the bound up only:\n" + text);
    }

    /** EXPLAIN of the statement's generic plan, made in the relay's session settings. */
    private List<String> genericPlanOnEmptyTables(String statement) throws SQLException {
        return genericPlan(statement);
    }

    /** EXPLAIN of the statement's generic plan on copies of the two tables that {@code setup} filled. */
    private List<String> genericPlan(String statement, String... setup) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (Statement sql = connection.createStatement()) {
                sql.execute("create schema relay_plan_probe");
                sql.execute(
                        "create table relay_plan_probe.core_objectchange (like public.core_objectchange including all)");
                sql.execute("create table relay_plan_probe.core_objectchange_pending"
                        + " (like public.core_objectchange_pending including all)");
                sql.execute("set local search_path = relay_plan_probe");
                for (String step : setup) {
                    sql.execute(step);
                }
                for (String setting : OutboxStore.SESSION_SETTINGS) {
                    sql.execute(setting.replaceFirst("^set ", "set local "));
                }
                sql.execute("prepare relay_read(bigint, text, int, int, bigint) as " + numbered(statement));
                List<String> lines = new ArrayList<>();
                try (ResultSet rows =
                        sql.executeQuery("explain execute relay_read(100, '90:95:91,93', 500, 500, 16777216)")) {
                    while (rows.next()) {
                        lines.add(rows.getString(1));
                    }
                }
                sql.execute("deallocate relay_read");
                return lines;
            } finally {
                connection.rollback();
                connection.setAutoCommit(autoCommit);
            }
        }
    }

    /** JDBC's ? placeholders as PREPARE's $1, $2, ... */
    private static String numbered(String statement) {
        StringBuilder out = new StringBuilder();
        int n = 0;
        for (char c : statement.toCharArray()) {
            if (c == '?') {
                out.append('$').append(++n);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
