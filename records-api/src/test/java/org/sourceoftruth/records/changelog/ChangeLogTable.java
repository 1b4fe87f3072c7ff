package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.sourceoftruth.model.Json;

/** Reads core_objectchange for assertions. */
final class ChangeLogTable {

    record Row(
            long id,
            UUID changeId,
            OffsetDateTime time,
            String userName,
            UUID requestId,
            String action,
            String objectType,
            long objectId,
            String objectRepr,
            String message,
            JsonNode prechange,
            JsonNode postchange,
            JsonNode eventData,
            boolean published) {}

    private static final String COLUMNS = """
            select id, change_id, time, user_name, request_id, action, changed_object_type,
                   changed_object_id, object_repr, message, prechange_data::text, postchange_data::text,
                   event_data::text,
                   parked_at is null and not exists (select from core_objectchange_pending p where p.id = core_objectchange.id)
              from core_objectchange""";

    private final DataSource dataSource;

    ChangeLogTable(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    List<Row> ofRequest(UUID requestId) {
        return query(COLUMNS + " where request_id = ? order by id", requestId);
    }

    /** Rows of sites with ids in [firstId, firstId + count), in id order. */
    List<Row> ofSites(long firstId, int count) {
        return query(
                COLUMNS + " where changed_object_type = 'dcim.site' and changed_object_id >= ?"
                        + " and changed_object_id < ? order by id",
                firstId,
                firstId + count);
    }

    /** Rows the relay has yet to publish (parked rows wait for an operator, not for the relay). */
    long backlog() {
        return (Long) single("select count(*) from core_objectchange_pending");
    }

    Object single(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getObject(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    int update(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<Row> query(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet rows = statement.executeQuery()) {
            List<Row> result = new ArrayList<>();
            while (rows.next()) {
                result.add(new Row(
                        rows.getLong(1),
                        rows.getObject(2, UUID.class),
                        rows.getObject(3, OffsetDateTime.class),
                        rows.getString(4),
                        rows.getObject(5, UUID.class),
                        rows.getString(6),
                        rows.getString(7),
                        rows.getLong(8),
                        rows.getString(9),
                        rows.getString(10),
                        json(rows.getString(11)),
                        json(rows.getString(12)),
                        json(rows.getString(13)),
                        rows.getBoolean(14)));
            }
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }

    private static JsonNode json(String text) {
        try {
            return text == null ? null : Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
