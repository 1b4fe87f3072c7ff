package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
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
 * {@code /api/extras/dashboard/}: the caller's own dashboard (NetBox's DashboardView), its
 * widget {@code layout} (a list) and {@code config} (an object keyed by widget). GET answers it
 * ({@code []} and {@code {}} until one is stored); PATCH and PUT replace the parts they send;
 * DELETE removes it (the next GET answers the empty one).
 */
@Path("/api/extras/dashboard/")
@Tag(name = "extras")
public class DashboardResource implements AnswersOptions {
    @Inject
    RequestContext request;

    @Inject
    Access access;

    @Inject
    AgroalDataSource dataSource;

    @Context
    HttpHeaders headers;

    @GET
    @Operation(operationId = "extras_dashboard_retrieve", description = "The caller's dashboard.")
    public Response get() {
        RequestContext.Caller caller = requireCaller(false);
        try (Connection c = dataSource.getConnection()) {
            return Responses.json(200, load(new Db(c), caller.userId()), headers);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    @PATCH
    @Transactional
    @Operation(operationId = "extras_dashboard_partial_update", description = "Change the caller's dashboard.")
    public Response patch(String body) {
        return write(body);
    }

    @PUT
    @Transactional
    @Operation(operationId = "extras_dashboard_update", description = "Replace the caller's dashboard.")
    public Response put(String body) {
        return write(body);
    }

    @DELETE
    @Transactional
    @Operation(operationId = "extras_dashboard_destroy", description = "Delete the caller's dashboard.")
    public Response delete() {
        RequestContext.Caller caller = requireCaller(true);
        try (Connection c = dataSource.getConnection()) {
            new Db(c).update("delete from extras_dashboard where user_id = ?", caller.userId());
            return Response.noContent().build();
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private Response write(String body) {
        RequestContext.Caller caller = requireCaller(true);
        JsonNode changes = JsonBody.parse(body);
        if (!changes.isObject()) {
            throw ApiException.field(
                    "non_field_errors",
                    "Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(changes) + ".");
        }
        Map<String, List<String>> errors = new LinkedHashMap<>();
        JsonNode layout = changes.get("layout");
        JsonNode config = changes.get("config");
        if (layout != null && !layout.isArray()) {
            errors.put(
                    "layout",
                    List.of("Expected a list of items but got type \"" + ErrorMapper.jsonType(layout) + "\"."));
        }
        if (config != null && !config.isObject()) {
            errors.put(
                    "config",
                    List.of("Expected a dictionary of items but got type \"" + ErrorMapper.jsonType(config) + "\"."));
        }
        if (!errors.isEmpty()) {
            throw ApiException.fields(errors);
        }
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            ObjectNode current = load(db, caller.userId());
            JsonNode newLayout = layout != null ? layout : current.get("layout");
            JsonNode newConfig = config != null ? config : current.get("config");
            db.update(
                    "insert into extras_dashboard (user_id, layout, config) values (?, ?, ?) on conflict (user_id)"
                            + " do update set layout = excluded.layout, config = excluded.config",
                    caller.userId(),
                    newLayout,
                    newConfig);
            return Responses.json(200, load(db, caller.userId()), headers);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** DashboardView needs an authenticated user; writes a write-enabled token outside maintenance mode. */
    private RequestContext.Caller requireCaller(boolean write) {
        RequestContext.Caller caller = request.caller();
        if (caller == null) {
            throw ApiException.detail(403, "Authentication credentials were not provided.");
        }
        if (write) {
            if (!caller.writeEnabled()) {
                throw ApiException.forbidden();
            }
            access.requireWritable();
        }
        return caller;
    }

    private static ObjectNode load(Db db, long userId) {
        List<Row> rows = db.query("select layout, config from extras_dashboard where user_id = ?", userId);
        ObjectNode out = Json.MAPPER.createObjectNode();
        if (rows.isEmpty()) {
            out.putArray("layout");
            out.putObject("config");
            return out;
        }
        out.set("layout", (JsonNode) rows.get(0).get("layout"));
        out.set("config", (JsonNode) rows.get(0).get("config"));
        return out;
    }
}
