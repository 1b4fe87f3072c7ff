package org.sourceoftruth.records.api;

import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;

/**
 * {@code GET /media/<name>}: an uploaded file (an image attachment's image, a device type's front
 * or rear image) from PostgreSQL's media table, so any replica serves any upload. Reading it
 * needs the view permission on the model whose rows name it (a token works, unlike NetBox's
 * session-only media URLs). The ETag is the content's SHA-256: a client revalidates with
 * If-None-Match and gets 304 while the file is unchanged.
 */
@Path("/media")
public class MediaResource {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelRegistry registry;

    @Inject
    Access access;

    private record Stored(String ownerType, String contentType, String sha256, byte[] data) {}

    @GET
    @Path("{name: .+}")
    public Response get(@PathParam("name") String name, @jakarta.ws.rs.core.Context HttpHeaders headers) {
        Stored file = load(name);
        if (file == null) {
            throw ApiException.notFound();
        }
        access.require(registry.require(file.ownerType()), Access.Action.VIEW);
        String etag = "\"" + file.sha256() + "\"";
        String match = headers.getHeaderString(HttpHeaders.IF_NONE_MATCH);
        Response.ResponseBuilder answer = match != null && (match.trim().equals("*") || match.contains(etag))
                ? Response.notModified()
                : Response.ok(file.data(), file.contentType()).header("Content-Length", file.data().length);
        return answer.header("ETag", etag)
                // names are reused after a delete, so caches revalidate (cheap: 304 on the ETag)
                .header("Cache-Control", "private, no-cache")
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "default-src 'none'")
                .build();
    }

    /** OPTIONS on a stored file's path (the class's own path, /media, is none: see {@link AnswersOptions}). */
    @OPTIONS
    @Operation(hidden = true) // not in NetBox's document either
    @Path("{name: .+}")
    public Response options(@PathParam("name") String name) {
        if (load(name) == null) {
            throw ApiException.notFound();
        }
        return AnswersOptions.ok();
    }

    private Stored load(String name) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "select owner_type, content_type, sha256, data from media_file where name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Stored(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBytes(4)) : null;
            }
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
