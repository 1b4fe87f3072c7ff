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
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.NestedObjectCache;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * One page of a model's list: the request's filters, limited to what the caller may view,
 * ordered, paged by offset (with the total count) or by cursor, rendered.
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

    /** One page of a list: total count (null in cursor mode) and the rendered objects. */
    public record Page(Long count, List<ObjectNode> results, long lastId) {}

    /** How the caller asked to page: offset mode, or cursor mode when {@code start} is set. */
    public record PageRequest(Long limit, long offset, Long start) {}

    public Page list(Model model, Map<String, List<String>> query, Renderer.Options opts, PageRequest page) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            FilterCompiler.Where where = filters.compile(db, model, query);
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
                order = ordering.orderBy(model, query.get("ordering"));
            }
            StringBuilder sql = new StringBuilder(model.selectFrom())
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
                    renderer.showsNestedObjects(model, opts),
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
            List<ObjectNode> nodes = renderer.render(db, model, rows, opts, reading.cache());
            if (reading.cache() != null) {
                reading.cache().end(db);
            }
            return new Page(
                    count,
                    nodes,
                    rows.isEmpty() ? -1 : rows.get(rows.size() - 1).id());
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
