package org.sourceoftruth.records.engine.query;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.sourceoftruth.records.db.DatabaseSnapshot;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;

/**
 * The total counts of list pages, counted again only when the database may show other data.
 *
 * <p>Every offset page answers with the number of all matches, which PostgreSQL finds by
 * visiting each of them: 0.32 ms of server time for 5,000 devices, as much as the rest of a
 * brief page of 50. A count depends on nothing but the rows visible to its statement, and two
 * statements with the same snapshot ({@code pg_current_snapshot()}: the transactions running and
 * the next to start) see the same rows, since no transaction can have ended between them. So a
 * count is kept with the snapshot it was taken in, and the next count of the same query sends
 * that snapshot along: the statement counts only when its own snapshot differs. Nothing is ever
 * reused across a change, whoever made it (another replica, a migration, psql), and the check
 * costs no round trip of its own. Inside a transaction that has written, a statement also sees
 * its own uncommitted rows, which the snapshot does not show: there it always counts and keeps
 * nothing. The counted queries use no time functions (the filters compile to plain predicates),
 * so the same rows give the same count.
 *
 * <p>On /q/metrics: {@code sot_list_counts_total{outcome="counted"|"reused"}}.
 */
@ApplicationScoped
class SnapshotCounts {
    /** Queries remembered; beyond it the memory starts again (an entry is a query's text and its values). */
    private static final int MAX_QUERIES = 1024;
    /**
     * The first parameter is the snapshot of the kept count ('' for none); the count is an
     * InitPlan, which PostgreSQL runs only when its value is asked for, so not when the CASE
     * takes the first branch.
     */
    private static final String STATEMENT = """
            select s.snapshot, s.read_only,
                   case when s.snapshot = ? and s.read_only then null else (%s) end as n
              from (select %s) s""".formatted("%s", DatabaseSnapshot.COLUMNS);

    private final ConcurrentHashMap<Query, Counted> counts = new ConcurrentHashMap<>();
    private final Counter counted;
    private final Counter reused;

    @Inject
    SnapshotCounts(MeterRegistry registry) {
        counted = outcome(registry, "counted", "List totals counted by PostgreSQL");
        reused = outcome(
                registry, "reused", "List totals reused: the database showed the same data as when they were counted");
    }

    private static Counter outcome(MeterRegistry registry, String outcome, String description) {
        return Counter.builder("sot.list.counts")
                .tag("outcome", outcome)
                .description(description)
                .register(registry);
    }

    /** The result of {@code countSql} (a {@code select count(*) ...}) with these parameters. */
    long count(Db db, String countSql, List<Object> params) {
        Pending pending = pending(countSql, params);
        return pending.count(db.query(pending.select()).get(0));
    }

    /**
     * The count of {@code countSql} with these parameters, to be taken by the caller: its
     * statement, one row that carries {@link DatabaseSnapshot#COLUMNS} (so it can ride in the
     * round trip of the page's own rows, as their snapshot probe), and the count from that row.
     */
    Pending pending(String countSql, List<Object> params) {
        Query query = new Query(countSql, Collections.unmodifiableList(new ArrayList<>(params)));
        Counted kept = counts.get(query);
        List<Object> values = new ArrayList<>(params.size() + 1);
        values.add(kept == null ? "" : kept.snapshot());
        values.addAll(params);
        return new Pending(query, kept, new Db.Select(STATEMENT.formatted(countSql), values));
    }

    /** A count asked for in {@link #select()}; {@link #count} reads its answer. */
    final class Pending {
        private final Query query;
        private final Counted kept;
        private final Db.Select select;

        private Pending(Query query, Counted kept, Db.Select select) {
            this.query = query;
            this.kept = kept;
            this.select = select;
        }

        Db.Select select() {
            return select;
        }

        /** The count, from the row {@link #select()} returned; keeps it with its snapshot. */
        long count(Row row) {
            Long n = row.longValue("n");
            if (n == null) {
                reused.increment();
                return kept.count();
            }
            counted.increment();
            String snapshot = DatabaseSnapshot.of(row);
            if (snapshot != null) {
                if (counts.size() >= MAX_QUERIES) {
                    counts.clear();
                }
                counts.put(query, new Counted(snapshot, n));
            }
            return n;
        }
    }

    /** A count query and its parameter values (compared by value: a value without equality never matches). */
    private record Query(String sql, List<Object> params) {}

    private record Counted(String snapshot, long count) {}
}
