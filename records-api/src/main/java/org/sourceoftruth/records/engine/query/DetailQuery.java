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
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ETags;

/** One object by id, rendered with its ETag; an object the caller may not view is not found. */
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

    public RenderedObject get(Model model, long id, Renderer.Options opts) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            NestedObjectCache.Reading reading = nestedObjects.read(
                    db, RowLoader.select(model, id, false), renderer.showsNestedObjects(model, opts), null);
            if (reading.rows().isEmpty() || !access.permits(db, model, id, Access.Action.VIEW)) {
                throw RowLoader.notFound(model);
            }
            Row row = reading.rows().get(0);
            RenderedObject rendered = new RenderedObject(
                    renderer.render(db, model, List.of(row), opts, reading.cache())
                            .get(0),
                    ETags.of(row));
            if (reading.cache() != null) {
                reading.cache().end(db);
            }
            return rendered;
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
