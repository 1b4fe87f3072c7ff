package org.sourceoftruth.records.engine.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.NestedObjectCache;
import org.sourceoftruth.records.engine.render.RenderedRows;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.store.LargeValues;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * One page of a model's list: the request's filters, limited to what the caller may view,
 * ordered, paged by offset (with the total count) or by cursor, rendered.
 *
 * <p>What a page holds in the heap is bounded whatever the data. A page is read and rendered
 * at once with its large values left in the database ({@link LargeValues}; a page of more than
 * {@value LargeValues#SHORT_PAGE} rows leaves out smaller ones); the rows that have some are read
 * on their own when the response is written ({@link RenderedRows.Later}), under the heap budget.
 * A list without a limit (an export, or {@code limit=0} when MAX_PAGE_SIZE is 0) reads only the ids
 * of its rows, and its rows are read and rendered {@value #RENDERED_AT_ONCE} at a time as they are
 * written.
 */
@ApplicationScoped
public class ListQuery {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    FilterCompiler filters;

    @Inject
    ListOrdering ordering;

    @Inject
    Renderer renderer;

    @Inject
    Access access;

    @Inject
    SnapshotCounts counts;

    @Inject
    NestedObjectCache nestedObjects;

    @Inject
    LargeValues largeValues;

    @Inject
    RowReads rowReads;

    /** The objects of a list without a limit that are read and rendered at once, as they are written. */
    public static final int RENDERED_AT_ONCE = 100;

    /** The most bytes of large values one group of rows read for a response holds. */
    static final long LARGE_GROUP_BYTES = 4L << 20;

    /**
     * One page of a list: total count (null in cursor mode), the objects (some left to be read as
     * they are written) and the id of the last.
     */
    public static final class Page {
        private final Long count;
        private final RenderedRows rows;
        private final long lastId;
        private List<ObjectNode> results;

        public Page(Long count, RenderedRows rows, long lastId) {
            this.count = count;
            this.rows = rows;
            this.lastId = lastId;
        }

        public Long count() {
            return count;
        }

        public RenderedRows rows() {
            return rows;
        }

        public long lastId() {
            return lastId;
        }

        /** Every object, rendered (once, on the first call): see {@link RenderedRows#all()}. */
        public List<ObjectNode> results() {
            if (results == null) {
                results = rows.all();
            }
            return results;
        }
    }

    /** How the caller asked to page: offset mode, or cursor mode when {@code start} is set. */
    public record PageRequest(Long limit, long offset, Long start) {}

    public Page list(Model model, Map<String, List<String>> query, Renderer.Options opts, PageRequest page) {
        return list(model, db -> filters.compile(db, model, query), query.get("ordering"), opts, page);
    }

    /**
     * A page of a list whose filter is compiled on the list's connection by the caller (the
     * GraphQL API's filter objects), ordered by {@code ordering} (null: the model's default).
     */
    public Page list(
            Model model,
            Function<Db, FilterCompiler.Where> filter,
            List<String> orderingTerms,
            Renderer.Options opts,
            PageRequest page) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            FilterCompiler.Where where = filter.apply(db);
            List<Object> params = new ArrayList<>(where.params());
            String whereSql = where.sql();
            ExtraFilter.Sql scope = access.restriction(model, Access.Action.VIEW);
            if (scope != null) {
                whereSql = "(" + whereSql + ") and (" + scope.sql() + ")";
                params.addAll(scope.params());
            }
            String order;
            List<Object> countParams = null;
            if (page.start() != null) {
                whereSql = "(" + whereSql + ") and t.id >= ?";
                params.add(page.start());
                order = "t.id";
            } else {
                countParams = new ArrayList<>(params);
                order = ordering.orderBy(model, orderingTerms);
            }
            // A list without a limit reads its ids (and the sizes of their large values) first.
            boolean atOnce = page.limit() != null;
            String select = atOnce
                    ? largeValues.select(model, page.limit())
                    : "select t.id, " + largeValues.withheldExpression(model) + " as " + LargeValues.WITHHELD + " from "
                            + model.table() + " t";
            StringBuilder sql = new StringBuilder(select)
                    .append(" where ")
                    .append(whereSql)
                    .append(" order by ")
                    .append(order);
            // The limit is written into the text (it is a validated number, and clients use a few
            // page sizes): with "limit $n" PostgreSQL's generic plan assumes a tenth of the table
            // is fetched, so the prepared statement kept a custom plan, planned anew on every
            // request (~0.5 ms for a select with computed columns). The offset stays bound: one
            // text per page would never be reused.
            if (page.limit() != null) {
                sql.append(" limit ").append(page.limit().longValue());
            }
            if (page.start() == null && page.offset() > 0) {
                sql.append(" offset ?");
                params.add(page.offset());
            }
            String countSql =
                    countParams == null ? null : "select count(*) from " + model.table() + " t where " + whereSql;
            // The total is asked for in the round trip of the page's rows, and its statement is
            // the snapshot probe of the nested objects: one round trip for a page whose nested
            // objects are all kept (a device page took two, plus a statement). A page without a
            // limit (an export) holds every match from its offset on: it asks for no total.
            SnapshotCounts.Pending total =
                    countSql == null || page.limit() == null ? null : counts.pending(countSql, countParams);
            NestedObjectCache.Reading reading = nestedObjects.read(
                    db,
                    new Db.Select(sql.toString(), params),
                    atOnce && renderer.showsNestedObjects(model, opts),
                    total == null ? null : total.select());
            List<Row> rows = reading.rows();
            Long count = null;
            if (countSql != null) {
                Long counted = total == null ? null : total.count(reading.probe());
                // A page that ends before the limit holds the last matches: the count follows from
                // it (when it is not empty, or starts at the beginning), consistent with the page
                // even when a commit came between the two statements.
                boolean lastPage = page.limit() == null || rows.size() < page.limit();
                count = lastPage && (!rows.isEmpty() || page.offset() == 0)
                        ? page.offset() + rows.size()
                        : counted != null ? counted : counts.count(db, countSql, countParams);
            }
            RenderedRows rendered = atOnce ? render(db, model, rows, opts, reading.cache()) : byId(model, rows, opts);
            if (reading.cache() != null) {
                reading.cache().end(db);
            }
            return new Page(
                    count,
                    rendered,
                    rows.isEmpty() ? -1 : rows.get(rows.size() - 1).id());
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /**
     * The page's rows rendered, but for those whose large values were left out and that the
     * options show: each of them is read again on its own when it is written.
     */
    private RenderedRows render(
            Db db, Model model, List<Row> rows, Renderer.Options opts, NestedObjectCache.Read cache) {
        boolean showsLarge = renderer.shows(model, opts, largeValues.largeColumns(model));
        List<Row> complete = rows;
        if (showsLarge) {
            complete = new ArrayList<>(rows.size());
            for (Row row : rows) {
                if (LargeValues.withheld(row) == 0) {
                    complete.add(row);
                }
            }
        }
        List<ObjectNode> nodes = renderer.render(db, model, complete, opts, cache);
        if (complete.size() == rows.size()) {
            return RenderedRows.of(nodes);
        }
        Parts parts = new Parts();
        int next = 0;
        for (Row row : rows) {
            long withheld = LargeValues.withheld(row);
            if (withheld == 0) {
                parts.rendered(nodes.get(next++));
            } else {
                parts.later(row.id(), withheld);
            }
        }
        return new RenderedRows(parts.done(), rowReads.reader(model, opts));
    }

    /**
     * The rows of a list without a limit, by id, in groups to read and render as they are
     * written: up to {@value #RENDERED_AT_ONCE} rows of ordinary size, or rows with large values
     * (that the options show) up to {@value #LARGE_GROUP_BYTES} bytes of them, at least one row,
     * reserved from the heap budget.
     */
    private RenderedRows byId(Model model, List<Row> rows, Renderer.Options opts) {
        boolean showsLarge = renderer.shows(model, opts, largeValues.largeColumns(model));
        Parts parts = new Parts();
        for (Row row : rows) {
            parts.later(row.id(), showsLarge ? LargeValues.withheld(row) : 0);
        }
        return new RenderedRows(parts.done(), rowReads.reader(model, opts));
    }

    /**
     * The parts of a response in order: objects rendered, and groups of consecutive rows to read
     * later, rows with large values apart from the others.
     */
    private static final class Parts {
        private final List<RenderedRows.Part> parts = new ArrayList<>();
        private List<ObjectNode> ready = new ArrayList<>();
        private List<Long> later = new ArrayList<>();
        private long laterBytes;

        void rendered(ObjectNode node) {
            closeLater();
            ready.add(node);
        }

        /** A row to read later, whose large values take {@code withheld} bytes (0: none). */
        void later(long id, long withheld) {
            closeReady();
            boolean large = withheld > 0;
            if (!later.isEmpty()
                    && (later.size() == RENDERED_AT_ONCE
                            || large != laterBytes > 0
                            || laterBytes + withheld > LARGE_GROUP_BYTES)) {
                closeLater();
            }
            later.add(id);
            laterBytes += withheld;
        }

        List<RenderedRows.Part> done() {
            closeReady();
            closeLater();
            return parts;
        }

        private void closeReady() {
            if (!ready.isEmpty()) {
                parts.add(new RenderedRows.Rendered(ready));
                ready = new ArrayList<>();
            }
        }

        private void closeLater() {
            if (!later.isEmpty()) {
                parts.add(new RenderedRows.Later(later, LargeValues.heapEstimate(laterBytes)));
                later = new ArrayList<>();
                laterBytes = 0;
            }
        }
    }
}
