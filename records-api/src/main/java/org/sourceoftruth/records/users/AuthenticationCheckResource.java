package org.sourceoftruth.records.users;

import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * {@code GET /api/authentication-check/} (NetBox 4.5+): the authenticated caller as a full User
 * representation, whatever the caller's permissions on users; 403 when not authenticated.
 */
@Path("/api/authentication-check/")
@Tag(name = "authentication-check")
public class AuthenticationCheckResource implements AnswersOptions {
    @Inject
    RequestContext request;

    @Inject
    ModelRegistry registry;

    @Inject
    Renderer renderer;

    @Inject
    AgroalDataSource dataSource;

    @Context
    HttpHeaders headers;

    @GET
    @Operation(operationId = "authentication_check_retrieve", description = "The authenticated user.")
    public Response check() {
        RequestContext.Caller caller = request.caller();
        if (caller == null) {
            throw ApiException.detail(403, "Authentication credentials were not provided.");
        }
        Model user = registry.require("users.user");
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Row> rows = db.query(user.selectFrom() + " where t.id = ?", caller.userId());
            if (rows.isEmpty()) {
                throw ApiException.notFound();
            }
            return Responses.json(
                    200, renderer.renderOne(db, user, rows.get(0), Renderer.Options.full(request.baseUrl())), headers);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
