package org.sourceoftruth.records.web;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.UUID;
import org.sourceoftruth.observability.RequestLog;
import org.sourceoftruth.records.db.TimeOrderedUuids;

/**
 * Vert.x-level handling that must apply to every response, including those not served by
 * JAX-RS (health, Swagger UI): the X-Request-ID header (also the log context's request_id and
 * the access-log line, see {@link RequestLog}), API-Version on /api/ paths, and the
 * trailing-slash rule of the API (GET without slash → 302 to the slashed path, other methods →
 * 404, as NetBox 4.5.9+ does).
 */
@ApplicationScoped
public class HttpFilters {
    /** RoutingContext key holding this request's id. */
    public static final String REQUEST_ID = "sot.request_id";

    @Inject
    ApiConfig config;

    @Inject
    TimeOrderedUuids uuids;

    void install(@Observes Router router) {
        router.route().order(-1000).handler(ctx -> {
            UUID id = uuids.next();
            String idText = id.toString();
            ctx.put(REQUEST_ID, id);
            RequestLog.begin(ctx, idText);
            String path = ctx.normalizedPath();
            boolean api = path.equals("/api") || path.startsWith("/api/");
            ctx.addHeadersEndHandler(v -> {
                ctx.response().headers().set("X-Request-ID", idText);
                if (api) {
                    ctx.response().headers().set("API-Version", config.apiVersion());
                }
            });
            if (api && needsSlash(path)) {
                HttpMethod m = ctx.request().method();
                if (m == HttpMethod.GET || m == HttpMethod.HEAD) {
                    String query = ctx.request().query();
                    ctx.response()
                            .setStatusCode(302)
                            .putHeader("Location", path + "/" + (query == null || query.isEmpty() ? "" : "?" + query))
                            .end();
                } else {
                    ctx.response()
                            .setStatusCode(404)
                            .putHeader("Content-Type", "application/json")
                            .end("{\"detail\":\"Not found. API paths end with a slash: " + path + "/\"}");
                }
                return;
            }
            ctx.next();
        });
    }

    private static boolean needsSlash(String path) {
        if (path.endsWith("/") || path.startsWith("/api/schema/swagger-ui")) {
            return false;
        }
        String last = path.substring(path.lastIndexOf('/') + 1);
        return !last.contains(".");
    }
}
