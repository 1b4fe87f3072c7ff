package org.sourceoftruth.dispatcher.admin;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.dispatcher.replay.Replay;
import org.sourceoftruth.dispatcher.replay.ReplayRunner;
import org.sourceoftruth.dispatcher.replay.ReplayStore;
import org.sourceoftruth.dispatcher.rules.RuleCache;

/**
 * The replays for operators (/admin/webhook-replays/): the list with each one's progress, a form
 * to start one and a button to cancel a running one. Same checks and transitions as the API
 * ({@link ReplayRequests}, {@link ReplayActions}); access through {@link AdminAccess}. Plain HTML
 * forms, no JavaScript (reload the page to follow progress).
 */
@Path("/admin/webhook-replays/")
@Produces(MediaType.TEXT_HTML)
public class ReplayPages {

    private static final Logger LOG = Logger.getLogger(ReplayPages.class);
    static final String BASE = "/admin/webhook-replays/";

    @Inject
    AdminAccess access;

    @Inject
    ClientAddress clientAddress;

    @Inject
    DispatcherConfig config;

    @Inject
    ReplayStore store;

    @Inject
    ReplayRunner runner;

    @Inject
    ReplayActions actions;

    @Inject
    RuleCache rules;

    @Inject
    @Location("admin/replays.html")
    Template replaysPage;

    @Inject
    @Location("admin/message.html")
    Template messagePage;

    @GET
    @Operation(hidden = true)
    public Response list(@Context HttpHeaders headers, @Context HttpServerRequest http) throws SQLException {
        AdminAccess.Viewer viewer;
        try {
            viewer = access.authorize(
                    headers.getHeaderString(HttpHeaders.AUTHORIZATION),
                    headers.getCookies(),
                    clientAddress.of(http),
                    AdminAccess.cookie(headers.getCookies(), config.admin().csrfCookieName()));
        } catch (AdminAccess.Denied denied) {
            return message(403, "Forbidden", denied.getMessage(), null);
        } catch (RecordsApiException e) {
            return recordsApiDown(e);
        }
        return page(200, viewer, Map.of(), null);
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response create(
            MultivaluedMap<String, String> form, @Context HttpHeaders headers, @Context HttpServerRequest http)
            throws SQLException {
        AdminAccess.Viewer viewer;
        try {
            viewer = writer(form, headers, http);
        } catch (AdminAccess.Denied denied) {
            return message(403, "Forbidden", denied.getMessage(), null);
        } catch (RecordsApiException e) {
            return recordsApiDown(e);
        }
        Map<String, List<String>> fields = new LinkedHashMap<>(form);
        fields.remove("csrfmiddlewaretoken");
        fields.values().removeIf(values -> values.stream().allMatch(String::isBlank));
        try {
            store.create(ReplayRequests.parse(fields, rules, viewer.username()));
        } catch (ApiException refused) {
            Map<String, String> asked = new LinkedHashMap<>();
            form.forEach((name, values) -> asked.put(name, String.join(",", values)));
            return page(refused.status(), viewer, asked, refused.message());
        }
        runner.wake();
        return Response.seeOther(URI.create(BASE)).build();
    }

    @POST
    @Path("{id}/cancel/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response cancel(
            @PathParam("id") String id,
            MultivaluedMap<String, String> form,
            @Context HttpHeaders headers,
            @Context HttpServerRequest http)
            throws SQLException {
        AdminAccess.Viewer viewer;
        try {
            viewer = writer(form, headers, http);
        } catch (AdminAccess.Denied denied) {
            return message(403, "Forbidden", denied.getMessage(), null);
        } catch (RecordsApiException e) {
            return recordsApiDown(e);
        }
        try {
            actions.cancel(BackgroundTaskResource.parseId(id), viewer.username());
        } catch (ApiException refused) {
            return message(refused.status(), "Not cancelled", refused.message(), viewer.username());
        }
        return Response.seeOther(URI.create(BASE)).build();
    }

    private AdminAccess.Viewer writer(MultivaluedMap<String, String> form, HttpHeaders headers, HttpServerRequest http)
            throws AdminAccess.Denied, RecordsApiException {
        AdminAccess.Viewer viewer = access.authorize(
                headers.getHeaderString(HttpHeaders.AUTHORIZATION),
                headers.getCookies(),
                clientAddress.of(http),
                form == null ? null : form.getFirst("csrfmiddlewaretoken"));
        access.checkWrite(viewer);
        return viewer;
    }

    private Response page(int status, AdminAccess.Viewer viewer, Map<String, String> asked, String error)
            throws SQLException {
        ReplayStore.Page page = store.list(config.api().paginateCount(), 0);
        List<Map<String, Object>> shown = new ArrayList<>();
        for (Replay replay : page.replays()) {
            shown.add(actions.represent(replay, BASE));
        }
        return html(
                status,
                replaysPage
                        .data("user", viewer.username())
                        .data("csrf", viewer.csrfToken())
                        .data("replays", shown)
                        .data("count", page.count())
                        .data("asked", asked)
                        .data("error", error));
    }

    private Response recordsApiDown(RecordsApiException e) {
        LOG.warnf("Cannot check the credentials of a replay page request: %s", e.getMessage());
        return message(503, "Unavailable", ApiFilters.RECORDS_API_DOWN, null);
    }

    private Response message(int status, String title, String message, String user) {
        return html(
                status,
                messagePage
                        .data("title", title)
                        .data("message", message)
                        .data("login", null)
                        .data("user", user));
    }

    private static Response html(int status, TemplateInstance page) {
        return Response.status(status)
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(page.render())
                .header("Cache-Control", "no-store")
                .header("X-Frame-Options", "DENY")
                .build();
    }
}
