package org.sourceoftruth.records.engine.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.RenderedRows;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.store.LargeValues;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * Reads and renders rows of a response by id when the response is written
 * ({@link RenderedRows.Later}), each group on a connection of its own, taken from the pool for the
 * group and given back after it: a response waiting for its client or for the heap budget holds
 * no connection. The rows were chosen (filters, permissions) by the read that made the response;
 * a row deleted since is left out, one changed since shows its new state.
 */
@ApplicationScoped
public class RowReads {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    Renderer renderer;

    @Inject
    LargeValues largeValues;

    /** Rows of the model rendered with these options; their large values are read only when the options show them. */
    public RenderedRows.Reader reader(Model model, Renderer.Options opts) {
        String select = renderer.shows(model, opts, largeValues.largeColumns(model))
                ? model.selectFrom()
                : largeValues.select(model);
        return ids -> render(model, select, ids, opts);
    }

    private List<ObjectNode> render(Model model, String select, List<Long> ids, Renderer.Options opts) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            Map<Long, Row> byId = new HashMap<>();
            for (Row row : db.query(Db.byIds(select, ids))) {
                byId.put(row.id(), row);
            }
            List<Row> rows = new ArrayList<>(ids.size());
            for (Long id : ids) {
                Row row = byId.get(id);
                if (row != null) {
                    rows.add(row);
                }
            }
            return renderer.render(db, model, rows, opts);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
