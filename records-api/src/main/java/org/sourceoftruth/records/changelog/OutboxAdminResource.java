package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * Parked outbox rows, for superusers: change-log rows the relay could never publish (see
 * {@link OutboxRelay}). {@code GET /api/core/outbox/parked/} lists them with the reason;
 * {@code POST /api/core/outbox/parked/<id>/retry/} hands one back to the relay, which publishes
 * it at its next round (after whatever was fixed: a larger topic limit or event ceiling), or
 * parks it again. A retried row is published after later changes of the same object.
 */
@Path("/api/core/outbox/parked/")
@Tag(name = "core")
public class OutboxAdminResource implements AnswersOptions {

    private static final String COLUMNS = """
            select id, change_id, time, action, changed_object_type, changed_object_id, object_repr,
                   parked_at, park_reason
              from core_objectchange""";

    @Inject
    RequestContext request;

    @Inject
    Access access;

    @Inject
    AgroalDataSource dataSource;

    @Context
    HttpHeaders headers;

    @GET
    @Operation(
            operationId = "core_outbox_parked_list",
            description = "Changes the relay could not publish (superusers).")
    public Response list() {
        access.requireSuperuser();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select =
                        connection.prepareStatement(COLUMNS + " where parked_at is not null order by id")) {
            ArrayNode results = Json.MAPPER.createArrayNode();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    results.add(row(rows));
                }
            }
            ObjectNode body = Json.MAPPER.createObjectNode().put("count", results.size());
            body.set("results", results);
            return Responses.json(200, body, headers);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    @OPTIONS
    @Operation(hidden = true) // not in NetBox's document either
    @Path("{id: [0-9]+}/retry/")
    public Response retryOptions() {
        return AnswersOptions.ok();
    }

    @POST
    @Path("{id: [0-9]+}/retry/")
    @Operation(operationId = "core_outbox_parked_retry_create", description = "Hand a parked change back to the relay.")
    public Response retry(@PathParam("id") long id) {
        access.requireSuperuser();
        if (!request.caller().writeEnabled()) {
            throw ApiException.forbidden();
        }
        access.requireWritable();
        try (Connection connection = dataSource.getConnection();
                // the notification wakes the relay; it finds this old row by the retry's transaction id
                // (see OutboxStore.ReadBound)
                PreparedStatement update = connection.prepareStatement("""
                     with retried as (
                         update core_objectchange set parked_at = null, park_reason = null
                          where id = ? and parked_at is not null
                         returning id, change_id, time, action, changed_object_type, changed_object_id, object_repr,
                                   parked_at, park_reason),
                     listed as (insert into core_objectchange_pending (id) select id from retried)
                     select retried.*, pg_notify(?, '') from retried""")) {
            update.setLong(1, id);
            update.setString(2, OutboxStore.CHANNEL);
            try (ResultSet rows = update.executeQuery()) {
                if (!rows.next()) {
                    throw ApiException.notFound();
                }
                return Responses.json(200, row(rows), headers);
            }
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private ObjectNode row(ResultSet rows) throws SQLException {
        long id = rows.getLong("id");
        OffsetDateTime parkedAt = rows.getObject("parked_at", OffsetDateTime.class);
        ObjectNode row = Json.MAPPER
                .createObjectNode()
                .put("id", id)
                .put("url", request.baseUrl() + "/api/core/object-changes/" + id + "/")
                .put("change_id", rows.getString("change_id"))
                .put("time", rows.getObject("time", OffsetDateTime.class).toString())
                .put("action", rows.getString("action"))
                .put("changed_object_type", rows.getString("changed_object_type"))
                .put("changed_object_id", rows.getLong("changed_object_id"))
                .put("object_repr", rows.getString("object_repr"))
                .put("parked_at", parkedAt == null ? null : parkedAt.toString())
                .put("park_reason", rows.getString("park_reason"));
        return row;
    }
}
