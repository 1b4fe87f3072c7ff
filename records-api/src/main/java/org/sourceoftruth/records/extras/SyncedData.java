package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

/**
 * NetBox's SyncedDataMixin (config templates, export templates, config contexts and their
 * profiles): an object bound to a data file of a data source holds a copy of the file's content
 * (its template code, data or schema). Binding is writing {@code data_file} (the file's id; its
 * source is filled in when not given): the content is copied at once, {@code data_path} and
 * {@code data_synced} record from where and when. While bound, every save copies the file again
 * (NetBox's clean() calls sync_data()), so the file, not the request, decides the content; the
 * {@code sync} action and, with {@code auto_sync_enabled}, each sync of the data source copy it
 * anew ({@link SyncedDataBinding}). Writing {@code data_file: null} unbinds (the content stays).
 *
 * <p>NetBox 4.4's serializers render {@code data_file} read-only on most of these models, so a
 * 4.4 client cannot bind through the API (netbox#19438, #20933); later NetBox releases made it
 * writable by id (netbox#21158, #23207), as it is here.
 */
@ApplicationScoped
public class SyncedData {
    static final String NO_FILE = "Must specify a data file when designating a data source.";
    static final String OTHER_SOURCE = "The data file must belong to the selected data source.";

    @Inject
    AgroalDataSource dataSource;

    /** How an object's content is taken from its file. */
    enum Content {
        /** Template code: the file's text. */
        TEXT,
        /** Data or a schema: the file parsed as JSON, else as YAML (NetBox's DataFile.get_data()). */
        DATA
    }

    /**
     * The mixin's fields. {@code autoSyncRendered}: NetBox's 4.4 serializer shows
     * {@code auto_sync_enabled} (config templates); on the others it is stored and filtered only.
     */
    static Field[] fields(boolean autoSyncRendered) {
        Field autoSync = bool("auto_sync_enabled").dflt(false);
        return new Field[] {
            fk("data_source", "core.datasource").protect(),
            str("data_path").max(1000).readOnly(),
            fk("data_file", "core.datafile"),
            autoSyncRendered ? autoSync : autoSync.unrendered(),
            datetime("data_synced").readOnly().nullable()
        };
    }

    /** The hook that binds and copies; {@code column} receives the content. */
    WriteHook hook(String column, Content content) {
        return new WriteHook() {
            @Override
            public void beforeWrite(Row changes, Row existing, Map<String, List<String>> errors) {
                bind(changes, existing, errors, column, content);
            }
        };
    }

    private void bind(Row changes, Row existing, Map<String, List<String>> errors, String column, Content content) {
        boolean fileGiven = changes.containsKey("data_file_id");
        Long fileId = fileGiven
                ? changes.longValue("data_file_id")
                : existing == null ? null : existing.longValue("data_file_id");
        Long sourceId = changes.containsKey("data_source_id")
                ? changes.longValue("data_source_id")
                : existing == null ? null : existing.longValue("data_source_id");
        if (fileId == null) {
            if (sourceId != null) {
                add(errors, "data_file", NO_FILE);
            }
            if (fileGiven) { // unbound: the content stays as last copied
                changes.put("data_path", "");
                changes.put("data_synced", null);
            }
            return;
        }
        Row file = file(fileId);
        if (file == null) {
            return; // an unknown id is refused when the reference is resolved
        }
        if (sourceId == null) {
            changes.put("data_source_id", file.longValue("source_id"));
        } else if (!sourceId.equals(file.longValue("source_id"))) {
            add(errors, "data_file", OTHER_SOURCE);
            return;
        }
        byte[] bytes = (byte[]) file.get("data");
        String text = new String(bytes == null ? new byte[0] : bytes, StandardCharsets.UTF_8);
        if (content == Content.TEXT) {
            changes.put(column, text);
        } else {
            JsonNode data = data(text);
            if (data == null) {
                add(errors, "data_file", "Unable to parse the data file " + file.str("path") + " as JSON or YAML.");
                return;
            }
            changes.put(column, data);
        }
        changes.put("data_path", file.str("path"));
        changes.put("data_synced", OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS));
    }

    /** The file's data: JSON, else YAML (safe: plain values only), else null. */
    static JsonNode data(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            // not JSON: YAML, as NetBox tries next
        }
        try {
            JsonNode yaml = YAML.readTree(text);
            return yaml == null || yaml.isMissingNode() ? null : yaml;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static final com.fasterxml.jackson.dataformat.yaml.YAMLMapper YAML =
            new com.fasterxml.jackson.dataformat.yaml.YAMLMapper();

    private Row file(long id) {
        try (Connection c = dataSource.getConnection()) {
            List<Row> rows = new Db(c).query("select source_id, path, data from core_datafile where id = ?", id);
            return rows.isEmpty() ? null : rows.get(0);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }
}
