package org.sourceoftruth.dispatcher.delivery;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/**
 * The deliveries whose request is rendered after they are recorded (the template renderer's
 * side): their stored input, and the rendered request or the failure stored under the lease.
 */
@ApplicationScoped
public class RenderQueue {
    @Inject
    AgroalDataSource dataSource;

    /** What a delivery's request is rendered from: its rule and the stored change event. */
    public record RenderInput(long eventRuleId, ChangeEvent event) {}

    /** The stored event (its JSON text) and rule of a delivery awaiting rendering. */
    public record StoredInput(long eventRuleId, String event) {
        public RenderInput parse() {
            try {
                return new RenderInput(eventRuleId, Json.MAPPER.readValue(event, ChangeEvent.class));
            } catch (IOException e) {
                throw new IllegalStateException("stored change event is not readable", e);
            }
        }
    }

    /** The stored event and rule of a delivery awaiting rendering, or empty when there is none. */
    public Optional<RenderInput> renderInput(long deliveryId) throws SQLException {
        return storedInput(deliveryId).map(StoredInput::parse);
    }

    /** As {@link #renderInput}, the event not parsed yet. */
    public Optional<StoredInput> storedInput(long deliveryId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("""
                     select d.event_rule_id, r.event::text from dispatch.delivery d
                       join dispatch.render_input r on r.delivery_id = d.id
                      where d.id = ?""")) {
            select.setLong(1, deliveryId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new StoredInput(row.getLong(1), row.getString(2)));
            }
        }
    }

    /**
     * Stores the rendered request of a delivery this process leased for rendering, and gives the
     * lease back so that it is claimed for sending.
     *
     * @return false when the lease was lost meanwhile (nothing is written)
     */
    public boolean storeRendered(long deliveryId, String owner, RenderedRequest request) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement update = connection.prepareStatement("""
                    update dispatch.delivery
                       set request_method = ?, request_url = ?, target_host = ?, lease_owner = null,
                           lease_expires_at = null
                     where id = ? and lease_owner = ? and state = 'queued' and request_url is null""")) {
                update.setString(1, request.method());
                update.setString(2, request.url().toString());
                update.setString(3, request.targetHost());
                update.setLong(4, deliveryId);
                update.setString(5, owner);
                if (update.executeUpdate() == 0) {
                    connection.rollback();
                    return false;
                }
                StoredRequests.insert(
                        connection,
                        List.of(Long.toString(deliveryId)),
                        List.of(StoredRequests.headersJson(request.headers())),
                        Collections.singletonList(request.body()));
                deleteRenderInput(connection, deliveryId);
                connection.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /**
     * Fails a delivery this process leased for rendering: its request could not be built.
     *
     * @return false when the lease was lost meanwhile (nothing is written)
     */
    public boolean failRendering(long deliveryId, String owner, String reason) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            List<DeliveryLanes.Lane> lane = DeliveryLanes.lockOf(connection, List.of(deliveryId));
            try (PreparedStatement update = connection.prepareStatement("""
                    update dispatch.delivery
                       set state = 'failed', last_error = ?, completed_at = now(), target_host = null,
                           lease_owner = null, lease_expires_at = null
                     where id = ? and lease_owner = ? and state = 'queued' and request_url is null""")) {
                update.setString(1, reason);
                update.setLong(2, deliveryId);
                update.setString(3, owner);
                if (update.executeUpdate() == 0) {
                    connection.rollback();
                    return false;
                }
                deleteRenderInput(connection, deliveryId);
                // a failed delivery is finished: the next one of its lane is due
                DeliveryLanes.promote(connection, lane);
                connection.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static void deleteRenderInput(Connection connection, long deliveryId) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement("delete from dispatch.render_input where delivery_id = ?")) {
            delete.setLong(1, deliveryId);
            delete.executeUpdate();
        }
    }
}
