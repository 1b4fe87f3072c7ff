package org.sourceoftruth.records.browsable;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.Template;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.ContentNegotiation;
import org.sourceoftruth.records.web.JsonResponseBody;
import org.sourceoftruth.records.web.RequestContext;

/**
 * The browsable API: when a browser asks for an API path (DRF's content negotiation picks the
 * browsable API for an Accept header listing text/html, or for ?format=api), the JSON answer is wrapped in an HTML page with clickable links, paging
 * links, the filters and ordering the model declares, and, for a logged-in user, forms to
 * POST/PATCH raw JSON and a DELETE button (sent as form posts with a CSRF field, see
 * {@link org.sourceoftruth.records.api.GenericModelResource}). API clients never see it.
 */
public class BrowsableApi {
    @Inject
    Template browsable;

    @Inject
    ModelRegistry registry;

    @Inject
    RequestContext request;

    @Inject
    AuthSettings authSettings;

    @ServerResponseFilter(priority = 100)
    public void toHtml(ContainerRequestContext req, ContainerResponseContext res) throws IOException {
        String path = req.getUriInfo().getPath();
        if (!path.startsWith("/api/")
                || path.startsWith("/api/schema")
                || !wantsHtml(req)
                || !(res.getEntity() instanceof JsonResponseBody body)
                || res.getMediaType() == null
                || !res.getMediaType().isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
            return;
        }
        JsonNode json = body.tree();
        Optional<Model> model = modelOf(path);
        boolean detail = model.isPresent() && path.matches("^/api/[^/]+/[^/]+/\\d+/$");
        boolean list = model.isPresent() && !detail && path.matches("^/api/[^/]+/[^/]+/$");
        RequestContext.Caller caller = request.caller();
        boolean canWrite = caller != null && model.isPresent() && !model.get().isReadOnlyApi();
        String title =
                model.map(m -> m.titleName() + (detail ? " Instance" : " List")).orElse("Api Root");
        String html = browsable
                .data("title", title)
                .data("path", path)
                .data("method", req.getMethod())
                .data("status", res.getStatus())
                .data("statusClass", res.getStatus() / 100)
                .data(
                        "allowed",
                        model.map(m -> m.isReadOnlyApi()
                                        ? "GET, HEAD, OPTIONS"
                                        : detail
                                                ? "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"
                                                : "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS")
                                .orElse("GET, HEAD, OPTIONS"))
                .data("json", JsonHtml.render(json))
                .data("next", json.path("next").isTextual() ? json.get("next").asText() : null)
                .data(
                        "previous",
                        json.path("previous").isTextual() ? json.get("previous").asText() : null)
                .data("filters", list ? filters(model.get()) : null)
                .data("ordering", list ? ordering(model.get()) : null)
                .data("user", caller == null ? null : caller.username())
                .data("canWrite", canWrite)
                .data("isList", list)
                .data("isDetail", detail)
                .data("model", model.map(Model::contentType).orElse(""))
                .data("example", list ? example(model.get()) : "{}")
                .data("csrf", csrfCookie(req))
                .render();
        res.setEntity(html.getBytes(StandardCharsets.UTF_8), null, MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"));
    }

    /** Whether DRF's content negotiation picks the browsable API (ContentNegotiation refused the rest already). */
    static boolean wantsHtml(ContainerRequestContext req) {
        String accept = req.getHeaderString("Accept");
        List<String> format = req.getUriInfo().getQueryParameters().get("format");
        if (format == null
                && (accept == null || !accept.toLowerCase(java.util.Locale.ROOT).contains("text/"))) {
            return false; // only text/html and text/* pick the browsable API: the common case, without parsing
        }
        try {
            return ContentNegotiation.select(
                            accept,
                            ContentNegotiation.format(format),
                            ContentNegotiation.renderersOf(req.getUriInfo().getPath()),
                            null)
                    == ContentNegotiation.Renderer.BROWSABLE_API;
        } catch (ApiException refused) {
            return false;
        }
    }

    private Optional<Model> modelOf(String path) {
        String[] parts = path.split("/");
        return parts.length >= 4 ? registry.byPath(parts[2], parts[3]) : Optional.empty();
    }

    private static String filters(Model m) {
        StringJoiner j = new StringJoiner(", ");
        for (Field f : m.fields()) {
            if (f.isFilterable() && f.isColumn() && !f.isWriteOnly()) {
                j.add(f.kind == org.sourceoftruth.records.model.Kind.FK ? f.name + ", " + f.column() : f.name);
            }
        }
        m.extraFilters().keySet().forEach(j::add);
        if (!m.searchColumns().isEmpty()) {
            j.add("q");
        }
        if (m.hasTags()) {
            j.add("tag");
        }
        return j + " (lookups such as __ic, __n, __gte)";
    }

    private static String ordering(Model m) {
        List<String> names = new ArrayList<>();
        m.fields().forEach(f -> {
            if (f.isOrderable() && !f.isWriteOnly()) {
                names.add(f.name);
            }
        });
        return String.join(", ", names);
    }

    private static String example(Model m) {
        StringJoiner j = new StringJoiner(", ", "{", "}");
        for (Field f : m.fields()) {
            if (f.isRequired() && f.isWritable()) {
                j.add("\"" + f.name + "\": " + (f.kind == org.sourceoftruth.records.model.Kind.FK ? "1" : "\"\""));
            }
        }
        return j.toString();
    }

    private String csrfCookie(ContainerRequestContext req) {
        Cookie c = req.getCookies().get(authSettings.csrfCookieName());
        return c == null ? "" : c.getValue();
    }
}
