package org.sourceoftruth.records.web;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * Refuses, before any route or query sees them, requests whose URL or headers no NetBox URL
 * router or form would accept, each with a JSON error in NetBox's shape:
 * <ul>
 *   <li>a URL longer than {@link #MAX_URL_LENGTH} → 414, headers larger than
 *       {@link #MAX_HEADER_BYTES} → 431. Vert.x's own limits (application.properties) are set
 *       above these, because Vert.x answers requests beyond them itself with an empty body;</li>
 *   <li>a {@code ;} in the path → 404: JAX-RS would strip it as a matrix parameter, so that
 *       {@code /api/dcim/devices/1;drop/} would reach device 1;</li>
 *   <li>an empty segment ({@code /api//dcim/}) or a dot segment, plain or percent-encoded
 *       ({@code /api/dcim/sites/%2e%2e/}) → 404: the router would merge and resolve them to
 *       another path, where Django's URL patterns match the path as sent;</li>
 *   <li>more than {@link #MAX_QUERY_PARAMETERS} query parameters → 400, as Django's
 *       {@code DATA_UPLOAD_MAX_NUMBER_FIELDS}: the query decoder would otherwise drop those beyond
 *       its own limit silently, and a filter list would quietly lose values;</li>
 *   <li>a NUL character (PostgreSQL cannot store it) in a query parameter → 400 naming the
 *       parameter, DRF's "Null characters are not allowed."; in the path → 400;</li>
 *   <li>a body declared larger than the HTTP limit ({@code quarkus.http.limits.max-body-size},
 *       10 MiB by default) → 413, answered before the body is read: Vert.x's own 413 comes with
 *       an empty body (a client that sends {@code Expect: 100-continue} uploads nothing);</li>
 *   <li>a multipart body → 415, except on the list and detail URLs of models with an image
 *       field (image attachments, device types), which read it (api.MultipartBodies): elsewhere
 *       the body reader (which reads form bodies for the CSRF check, see AuthFilter) would
 *       otherwise parse it, spooling its files to disk.</li>
 * </ul>
 */
@ApplicationScoped
public class MalformedRequests {
    /** Long enough for NetBox clients' filter lists ({@code ?id=1&id=2...}). */
    static final int MAX_URL_LENGTH = 16 * 1024;

    static final int MAX_HEADER_BYTES = 32 * 1024;

    /** Django's default DATA_UPLOAD_MAX_NUMBER_FIELDS, which NetBox keeps. */
    static final int MAX_QUERY_PARAMETERS = 1000;

    private static final String NULL_CHARACTERS = "Null characters are not allowed.";

    private static final Pattern MODEL_PATH = Pattern.compile("^/api/([a-z-]+)/([a-z0-9-]+)/(?:[0-9]+/)?$");

    @Inject
    ModelRegistry registry;

    @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K")
    MemorySize maxBodySize;

    void install(@Observes Router router) {
        // after HttpFilters (order -1000), which gives every answer its request id
        router.route().order(-999).handler(this::check);
    }

    private void check(RoutingContext ctx) {
        String uri = ctx.request().uri();
        if (uri.length() > MAX_URL_LENGTH) {
            refuse(ctx, 414, detail("Request-URI Too Long: URLs are limited to " + MAX_URL_LENGTH + " characters."));
            return;
        }
        if (headerBytes(ctx.request().headers()) > MAX_HEADER_BYTES) {
            refuse(
                    ctx,
                    431,
                    detail("Request Header Fields Too Large: headers are limited to " + MAX_HEADER_BYTES + " bytes."));
            return;
        }
        String path = ctx.request().path();
        if (path.indexOf(';') >= 0) {
            refuse(ctx, 404, detail("Not found."));
            return;
        }
        if (hasEmptyOrDotSegment(path)) {
            refuse(ctx, 404, detail("Not found."));
            return;
        }
        if (path.indexOf('\0') >= 0 || path.toLowerCase(Locale.ROOT).contains("%00")) {
            refuse(ctx, 400, detail(NULL_CHARACTERS));
            return;
        }
        if (declaredBodyLength(ctx) > maxBodySize.asLongValue()) {
            refuse(
                    ctx,
                    413,
                    detail("Request body too large: bodies are limited to " + maxBodySize.asLongValue() + " bytes."));
            return;
        }
        String type = ctx.request().getHeader("Content-Type");
        if (type != null && type.trim().toLowerCase(Locale.ROOT).startsWith("multipart/") && !takesUploads(path)) {
            refuse(ctx, 415, detail("Unsupported media type \"" + type + "\" in request."));
            return;
        }
        if (queryParameterCount(ctx.request().query()) > MAX_QUERY_PARAMETERS) {
            refuse(ctx, 400, detail("Too many query parameters: at most " + MAX_QUERY_PARAMETERS + " are accepted."));
            return;
        }
        MultiMap params;
        try {
            params = ctx.queryParams();
        } catch (RuntimeException e) {
            refuse(ctx, 400, detail("Malformed query string."));
            return;
        }
        for (Map.Entry<String, String> p : params) {
            if (p.getKey().indexOf('\0') >= 0 || p.getValue().indexOf('\0') >= 0) {
                var body = Json.MAPPER.createObjectNode();
                body.putArray(p.getKey().replace("\0", "")).add(NULL_CHARACTERS);
                refuse(ctx, 400, body);
                return;
            }
        }
        ctx.next();
    }

    /** The number of non-empty {@code &}-separated fields of a raw query string. */
    static int queryParameterCount(String query) {
        if (query == null || query.isEmpty()) {
            return 0;
        }
        int count = 0;
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            if (end > start) {
                count++;
            }
            start = end + 1;
        }
        return count;
    }

    /** Whether the raw path has {@code //}, or a segment that is {@code .} or {@code ..} once decoded. */
    static boolean hasEmptyOrDotSegment(String path) {
        int start = path.startsWith("/") ? 1 : 0;
        while (start < path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            String segment = path.substring(start, end);
            if (segment.isEmpty() && end < path.length()) {
                return true;
            }
            String decoded = segment.replace("%2e", ".").replace("%2E", ".");
            if (decoded.equals(".") || decoded.equals("..")) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /**
     * Whether {@code path} is the list or detail URL of a model with an image field, the only
     * endpoints that read multipart/form-data bodies (api.MultipartBodies).
     */
    private boolean takesUploads(String path) {
        Matcher m = MODEL_PATH.matcher(path);
        if (!m.matches()) {
            return false;
        }
        return registry.byPath(m.group(1), m.group(2))
                .map(model -> model.hasImageFields())
                .orElse(false);
    }

    /** The Content-Length the client declared; -1 when there is none (chunked) or it is not a number. */
    private static long declaredBodyLength(RoutingContext ctx) {
        String length = ctx.request().getHeader("Content-Length");
        try {
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long headerBytes(MultiMap headers) {
        long total = 0;
        for (Map.Entry<String, String> h : headers) {
            total += h.getKey().length() + h.getValue().length() + 4; // ": " and CRLF
        }
        return total;
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode detail(String message) {
        return Json.MAPPER.createObjectNode().put("detail", message);
    }

    private static void refuse(RoutingContext ctx, int status, com.fasterxml.jackson.databind.JsonNode body) {
        // 413, 414 and 431 leave the rest of the request unread: close the connection after answering
        if (status == 413 || status == 414 || status == 431) {
            ctx.response().putHeader("Connection", "close");
        }
        ctx.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body.toString());
    }
}
