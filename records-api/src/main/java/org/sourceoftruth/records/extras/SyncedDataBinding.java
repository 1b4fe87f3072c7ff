package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

/**
 * Copies data files into the objects bound to them again ({@link SyncedData}): one object (the
 * {@code sync} action, and after a data source's sync each object bound to one of its files with
 * {@code auto_sync_enabled}: NetBox's AutoSyncRecord and {@code core.signals.auto_sync}). Each
 * copy is a save through the engine ({@code data_file} written again), in its own transaction,
 * with its change record.
 */
@ApplicationScoped
public class SyncedDataBinding {
    /** The models that hold synced data, by table. */
    static final List<String> SYNCED = List.of(
            "extras.configtemplate", "extras.exporttemplate", "extras.configcontext", "extras.configcontextprofile");

    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    AgroalDataSource dataSource;

    /** Copies object {@code id}'s data file into it again and answers it as saved. */
    @Transactional
    public RenderedObject resync(Model model, long id, Renderer.Options opts) {
        Long file = fileOf(model, id);
        return service.update(
                        model,
                        List.of(id),
                        List.of(JsonNodeFactory.instance.objectNode().put("data_file", file)),
                        true,
                        false,
                        null)
                .get(0);
    }

    /** An object bound to a data file. */
    public record Bound(Model model, long id) {}

    /** After data source {@code sourceId} was synced: the objects bound to its files with auto_sync_enabled. */
    public List<Bound> autoSynced(long sourceId) {
        List<Bound> out = new java.util.ArrayList<>();
        for (String type : SYNCED) {
            Model model = registry.require(type);
            for (Row r : query(
                    "select t.id from " + model.table() + " t join core_datafile f on f.id = t.data_file_id"
                            + " where t.auto_sync_enabled and f.source_id = ? order by t.id",
                    sourceId)) {
                out.add(new Bound(model, r.id()));
            }
        }
        return out;
    }

    private Long fileOf(Model model, long id) {
        List<Row> rows = query("select data_file_id from " + model.table() + " where id = ?", id);
        return rows.isEmpty() ? null : rows.get(0).longValue("data_file_id");
    }

    private List<Row> query(String sql, Object... params) {
        try (Connection c = dataSource.getConnection()) {
            return new Db(c).query(sql, params);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
