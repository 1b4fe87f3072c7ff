package org.sourceoftruth.records.engine.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

/**
 * The moment a race is decided, made deterministic: a row with the request's key is inserted by
 * a transaction of its own that stays open, so the request's check passes (it cannot see the
 * row) and its write waits on the unique index; the other transaction then commits, the index
 * refuses the write, and the answer is checked. Then the answer of a violation the writer cannot
 * run again.
 */
@QuarkusTest
class UniqueViolationTest {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    UniqueIndexes indexes;

    @Inject
    ModelRegistry registry;

    /** A create refused by the index is run again: its check names both fields the stored row repeats. */
    @Test
    void aCreateRefusedByAUniqueIndexGetsTheChecksAnswer() throws Exception {
        String name = "held-" + Api.uniq();
        JsonNode answer = whileHeld(
                "insert into dcim_site (name, slug) values (?, ?)",
                new Object[] {name, name},
                () -> Api.auth().body(Map.of("name", name, "slug", name)).post("/api/dcim/sites/"));
        assertEquals(
                Json.MAPPER.readTree("{\"name\":[\"site with this name already exists.\"],"
                        + "\"slug\":[\"site with this slug already exists.\"]}"),
                answer);
        assertEquals(1, count("select count(*) from dcim_site where name = ?", name));
    }

    /** An update raced the same way: a rename onto a name committed meanwhile. */
    @Test
    void anUpdateRefusedByAUniqueIndexGetsTheChecksAnswer() throws Exception {
        int site = Api.site("rename");
        String name = "held-" + Api.uniq();
        JsonNode answer = whileHeld(
                "insert into dcim_site (name, slug) values (?, ?)",
                new Object[] {name, name + "-other"},
                () -> Api.auth().body(Map.of("name", name)).patch("/api/dcim/sites/" + site + "/"));
        assertEquals(Json.MAPPER.readTree("{\"name\":[\"site with this name already exists.\"]}"), answer);
        assertEquals(1, count("select count(*) from dcim_site where name = ?", name));
    }

    /**
     * A write that cannot be run again (part of a larger transaction, or refused again) is
     * answered by the rule of the index PostgreSQL names: its message under its key, on the items
     * of a bulk request the index covers.
     */
    @Test
    void aViolationNotRunAgainIsAnsweredByTheViolatedIndexsRule() throws Exception {
        Model site = registry.require("dcim.site");
        String name = "stored-" + Api.uniq();
        Api.create("/api/dcim/sites/", Map.of("name", name, "slug", name));
        Db.DbException violation;
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("insert into dcim_site (name, slug) values (?, ?)")) {
            ps.setString(1, name);
            ps.setString(2, name + "-other");
            ps.executeUpdate();
            throw new AssertionError("the unique index let a duplicate name in");
        } catch (java.sql.SQLException e) {
            violation = new Db.DbException(e);
        }
        Row duplicate = new Row();
        duplicate.put("name", name);
        duplicate.put("slug", name + "-other");
        Row other = new Row();
        other.put("name", "other-" + name);
        other.put("slug", "other-" + name);

        RuntimeException single = UniqueViolation.of(violation, indexes, site, List.of(duplicate), false);
        UniqueViolation answer = assertInstanceOf(UniqueViolation.class, single);
        assertEquals(400, answer.status());
        assertEquals("dcim.site: unique (name)", answer.requirement().describe());
        assertEquals(Json.MAPPER.readTree("{\"name\":[\"site with this name already exists.\"]}"), answer.body());

        RuntimeException bulk = UniqueViolation.of(violation, indexes, site, List.of(other, duplicate), true);
        assertEquals(
                Json.MAPPER.readTree("[{},{\"name\":[\"site with this name already exists.\"]}]"),
                ((UniqueViolation) bulk).body(),
                "the item whose name the violation names");

        Db.DbException notUnique = new Db.DbException(new java.sql.SQLException("no", "23503"));
        assertEquals(notUnique, UniqueViolation.of(notUnique, indexes, site, List.of(duplicate), false));
    }

    /**
     * Inserts a row in a transaction of its own, sends the request while that transaction is open,
     * waits until the request's write waits on the row's index entry, commits, and returns the
     * request's 400 body.
     */
    private JsonNode whileHeld(String insert, Object[] values, Supplier<Response> request) throws Exception {
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement ps = holder.prepareStatement(insert)) {
                for (int i = 0; i < values.length; i++) {
                    ps.setObject(i + 1, values[i]);
                }
                ps.executeUpdate();
            }
            long waitingBefore = waitingOnLocks();
            CompletableFuture<Response> answer = CompletableFuture.supplyAsync(request);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (waitingOnLocks() <= waitingBefore && System.nanoTime() < deadline && !answer.isDone()) {
                Thread.sleep(20);
            }
            assertTrue(waitingOnLocks() > waitingBefore, "the request's write waits on the held row");
            holder.commit();
            Response r = answer.get(30, TimeUnit.SECONDS);
            assertEquals(400, r.statusCode(), r.asString());
            return Json.MAPPER.readTree(r.asString());
        }
    }

    /** Sessions of this database waiting for a lock (a write waiting on another's index entry). */
    private long waitingOnLocks() throws Exception {
        return count(
                "select count(*) from pg_locks l join pg_stat_activity a on a.pid = l.pid"
                        + " where not l.granted and a.datname = current_database()",
                new Object[0]);
    }

    private long count(String sql, Object... params) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
