package org.sourceoftruth.records.engine.query;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.NestedObjectCache;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.RenderedRows;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.store.LargeValues;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ETags;

/**
 * One object by id, rendered with its ETag; an object the caller may not view is not found. An
 * object with large values ({@link LargeValues}) that the options show is read again on its own
 * when the response is written, under the heap budget.
 */
@ApplicationScoped
public class DetailQuery {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    Renderer renderer;

    @Inject
    Access access;

    @Inject
    NestedObjectCache nestedObjects;

    @Inject
    LargeValues largeValues;

    @Inject
    RowReads rowReads;

    /** An object for a response (one element), rendered or to be read when written, and its ETag. */
    public record Detail(RenderedRows object, String etag) {}

    /** The object rendered now. */
    public RenderedObject get(Model model, long id, Renderer.Options opts) {
        Detail detail = read(model, id, opts);
        List<com.fasterxml.jackson.databind.node.ObjectNode> all =
                detail.object().all();
        if (all.isEmpty()) {
            throw RowLoader.notFound(model); // deleted between the two reads
        }
        return new RenderedObject(all.get(0), detail.etag());
    }

    public Detail read(Model model, long id, Renderer.Options opts) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            NestedObjectCache.Reading reading = nestedObjects.read(
                    db,
                    new Db.Select(largeValues.select(model) + " where t.id = ?", List.of(id)),
                    renderer.showsNestedObjects(model, opts),
                    null);
            if (reading.rows().isEmpty() || !access.permits(db, model, id, Access.Action.VIEW)) {
                throw RowLoader.notFound(model);
            }
            Row row = reading.rows().get(0);
            long withheld = LargeValues.withheld(row);
            if (withheld > 0 && renderer.shows(model, opts, largeValues.largeColumns(model))) {
                return new Detail(
                        new RenderedRows(
                                List.of(new RenderedRows.Later(List.of(id), LargeValues.heapEstimate(withheld))),
                                rowReads.reader(model, opts)),
                        ETags.of(row));
            }
            Detail rendered = new Detail(
                    RenderedRows.of(renderer.render(db, model, List.of(row), opts, reading.cache())), ETags.of(row));
            if (reading.cache() != null) {
                reading.cache().end(db);
            }
            return rendered;
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
