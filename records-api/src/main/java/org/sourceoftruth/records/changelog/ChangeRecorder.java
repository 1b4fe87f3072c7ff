package org.sourceoftruth.records.changelog;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.api.Db;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;

/**
 * Writes change-log rows in the caller's transaction. The row is also the outbox entry the
 * relay publishes to Kafka after commit.
 */
@ApplicationScoped
public class ChangeRecorder {
    @Inject
    AgroalDataSource dataSource;

    public void record(ChangeRecord r) {
        try (Connection c = dataSource.getConnection()) {
            new Db(c).update("insert into core_objectchange (change_id, user_id, user_name, request_id, action,"
                            + " changed_object_type, changed_object_id, object_repr, message, prechange_data, postchange_data,"
                            + " event_data) values (?,?,?,?,?,?,?,?,?,?,?,?)",
                    UUID.randomUUID(), r.userId(), r.userName(), r.requestId(), r.action(), r.changedObjectType(),
                    r.changedObjectId(), truncate(r.objectRepr()), r.message() == null ? "" : truncate(r.message()),
                    r.prechange(), r.postchange(), r.eventData());
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private static String truncate(String s) {
        return s == null ? "" : s.length() > 200 ? s.substring(0, 200) : s;
    }
}
