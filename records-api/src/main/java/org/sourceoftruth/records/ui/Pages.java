package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * Renders pages in the layout and answers what the engine refused as a page: no caller → the
 * sign-in form (coming back here after it), any other refusal → an error page with its status
 * and NetBox's message.
 */
@ApplicationScoped
class Pages {
    @Inject
    RequestContext request;

    @Inject
    AuthSettings authSettings;

    @Inject
    Menu menu;

    @Location("ui/error")
    Template error;

    /** A template with the layout's data. */
    TemplateInstance page(Template template, String title, HttpHeaders headers) {
        return template.data("ui", chrome(title, headers, ""));
    }

    Chrome chrome(String title, HttpHeaders headers, String query) {
        RequestContext.Caller caller = request.caller();
        return new Chrome(
                title,
                caller == null ? null : caller.username(),
                caller != null && caller.superuser(),
                menu.forCaller(),
                menu.operations(),
                csrf(headers),
                query,
                appOf(request.path()));
    }

    /** The first segment of the page's path ("dcim" of /dcim/sites/1/). */
    static String appOf(String path) {
        if (path == null || path.length() < 2) {
            return "";
        }
        int slash = path.indexOf('/', 1);
        return slash < 0 ? path.substring(1) : path.substring(1, slash);
    }

    static Response html(int status, TemplateInstance page) {
        return Response.status(status)
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(page.render())
                .build();
    }

    static Response redirect(String path) {
        return Response.seeOther(URI.create(path)).build();
    }

    /** Runs a page; a refusal of the engine or of the permissions becomes a page. */
    Response guard(HttpHeaders headers, Supplier<Response> page) {
        try {
            if (request.caller() == null && authSettings.loginRequired()) {
                return signIn();
            }
            return page.get();
        } catch (ApiException e) {
            if (e.status() == 403 && request.caller() == null) {
                return signIn();
            }
            return errorPage(e.status(), message(e.body()), headers);
        }
    }

    Response errorPage(int status, String message, HttpHeaders headers) {
        String title = status == 404 ? "Not found" : status == 403 ? "Permission denied" : "Error " + status;
        return html(status, page(error, title, headers).data("status", status).data("message", message));
    }

    private Response signIn() {
        String next = request.path() == null ? "/" : request.path();
        return redirect("/login/?next=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
    }

    /** NetBox's {"detail": ...} or the first message of a field error. */
    static String message(JsonNode body) {
        if (body == null) {
            return "";
        }
        if (body.path("detail").isTextual()) {
            return body.get("detail").asText();
        }
        StringBuilder out = new StringBuilder();
        body.fields().forEachRemaining(e -> {
            JsonNode v = e.getValue();
            out.append(out.isEmpty() ? "" : "; ")
                    .append(e.getKey())
                    .append(": ")
                    .append(v.isArray() && !v.isEmpty() ? v.get(0).asText() : v.asText());
        });
        if (body.isArray() && !body.isEmpty()) {
            out.append(body.get(0).asText());
        }
        return out.toString();
    }

    private String csrf(HttpHeaders headers) {
        Cookie c = headers.getCookies().get(authSettings.csrfCookieName());
        return c == null ? "" : c.getValue();
    }
}
