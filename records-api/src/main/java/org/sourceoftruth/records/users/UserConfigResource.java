package org.sourceoftruth.records.users;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * {@code /api/users/config/}: the caller's own preferences as one JSON document (NetBox's
 * UserConfigView). GET returns it ({@code {}} until something is stored); PATCH merges the
 * body into it, nested objects key by key, and returns the result.
 */
@Path("/api/users/config/")
@Tag(name = "users")
public class UserConfigResource implements AnswersOptions {
    @Inject
    RequestContext request;

    @Inject
    Access access;

    @Inject
    AgroalDataSource dataSource;

    @Context
    HttpHeaders headers;

    @GET
    @Operation(operationId = "users_config_retrieve", description = "The caller's user preferences.")
    public Response get() {
        RequestContext.Caller caller = requireCaller();
        try (Connection c = dataSource.getConnection()) {
            return Responses.json(200, load(new Db(c), caller.userId(), false), headers);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    @PATCH
    @Transactional
    @Operation(operationId = "users_config_partial_update", description = "Change the caller's user preferences.")
    public Response patch(String body) {
        RequestContext.Caller caller = requireCaller();
        if (!caller.writeEnabled()) {
            throw ApiException.forbidden();
        }
        access.requireWritable();
        JsonNode changes = JsonBody.parse(body);
        if (!changes.isObject()) {
            throw ApiException.field(
                    "non_field_errors",
                    "Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(changes) + ".");
        }
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            ObjectNode data = load(db, caller.userId(), true);
            merge(data, (ObjectNode) changes);
            db.update(
                    "insert into users_userconfig (user_id, data) values (?, ?)"
                            + " on conflict (user_id) do update set data = excluded.data",
                    caller.userId(),
                    data);
            return Responses.json(200, data, headers);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** UserConfigView needs an authenticated user whatever LOGIN_REQUIRED says. */
    private RequestContext.Caller requireCaller() {
        RequestContext.Caller caller = request.caller();
        if (caller == null) {
            throw ApiException.detail(403, "Authentication credentials were not provided.");
        }
        return caller;
    }

    private static ObjectNode load(Db db, long userId, boolean forUpdate) {
        List<Row> rows = db.query(
                "select data from users_userconfig where user_id = ?" + (forUpdate ? " for update" : ""), userId);
        return rows.isEmpty() || !(rows.get(0).get("data") instanceof ObjectNode o)
                ? Json.MAPPER.createObjectNode()
                : o;
    }

    /** Sets every leaf of {@code changes} into {@code target}, descending into objects present in both. */
    static void merge(ObjectNode target, ObjectNode changes) {
        for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) changes::fields) {
            JsonNode current = target.get(e.getKey());
            if (current instanceof ObjectNode currentObject && e.getValue() instanceof ObjectNode changed) {
                merge(currentObject, changed);
            } else {
                target.set(e.getKey(), e.getValue());
            }
        }
    }
}
