package org.sourceoftruth.dispatcher.admin;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.delivery.DeliveryState;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;

/**
 * Server-rendered pages over the deliveries for operators: a filtered, paginated list and one
 * delivery with its request (secrets masked) and every attempt, with a retry button on failed
 * ones. Same data and requeue transition as the JSON API ({@link BackgroundTaskQueries},
 * {@link TaskActions}); access through {@link AdminAccess}. Plain HTML forms, no JavaScript.
 */
@Path("/admin/background-tasks/")
@Produces(MediaType.TEXT_HTML)
public class BackgroundTaskPages {

    private static final Logger LOG = Logger.getLogger(BackgroundTaskPages.class);

    static final String BASE = "/admin/background-tasks/";
    /** Header names whose values are credentials or derived from one (X-Hook-Signature from the secret). */
    private static final Pattern SENSITIVE_HEADER =
            Pattern.compile("(?i).*(authorization|token|secret|signature|password|cookie|api[-_]?key).*");

    static final String MASK = "••••••••";
    private static final List<String> STATUSES =
            Arrays.stream(DeliveryState.values()).map(DeliveryState::dbValue).toList();
    private static final List<String> FILTERS = List.of("status", "webhook_id", "event_rule_id", "model", "request_id");

    @Inject
    AdminAccess access;

    @Inject
    BackgroundTaskQueries queries;

    @Inject
    TaskActions taskActions;

    @Inject
    ClientAddress clientAddress;

    @Inject
    DispatcherConfig config;

    @Inject
    @Location("admin/tasks.html")
    Template tasksPage;

    @Inject
    @Location("admin/task.html")
    Template taskPage;

    @Inject
    @Location("admin/message.html")
    Template messagePage;

    @GET
    @Operation(hidden = true)
    public Response list(@Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http)
            throws SQLException {
        AdminAccess.Viewer viewer;
        try {
            viewer = view(headers, http);
        } catch (AdminAccess.Denied denied) {
            return denied(denied);
        } catch (RecordsApiException e) {
            return recordsApiDown(e);
        }
        Map<String, List<String>> query = uri.getQueryParameters();
        Map<String, String> chosen = new LinkedHashMap<>();
        FILTERS.forEach(name -> chosen.put(name, first(query, name).orElse("")));
        TemplateInstance page =
                tasksPage.data("user", viewer.username()).data("filter", chosen).data("statuses", STATUSES);
        try {
            Integer limit = Pagination.limit(
                    first(query, "limit").orElse(null),
                    config.api().paginateCount(),
                    config.api().maxPageSize());
            int offset = Pagination.offset(first(query, "offset").orElse(null));
            BackgroundTaskQueries.Page tasks = queries.list(TaskFilter.from(query), limit, offset, BASE);
            URI base = URI.create(BASE);
            return html(
                    200,
                    page.data("tasks", tasks.results())
                            .data("count", tasks.count())
                            .data("first", tasks.results().isEmpty() ? 0 : offset + 1)
                            .data("last", offset + tasks.results().size())
                            .data("next", Pagination.next(base, query, limit, offset, tasks.count()))
                            .data("previous", Pagination.previous(base, query, limit, offset))
                            .data("error", null));
        } catch (ApiException badFilter) {
            return html(
                    badFilter.status(),
                    page.data("tasks", List.of())
                            .data("count", 0)
                            .data("first", 0)
                            .data("last", 0)
                            .data("next", null)
                            .data("previous", null)
                            .data("error", badFilter.message()));
        }
    }

    @GET
    @Path("{id}/")
    @Operation(hidden = true)
    public Response detail(@PathParam("id") String id, @Context HttpHeaders headers, @Context HttpServerRequest http)
            throws SQLException {
        AdminAccess.Viewer viewer;
        try {
            viewer = view(headers, http);
        } catch (AdminAccess.Denied denied) {
            return denied(denied);
        } catch (RecordsApiException e) {
            return recordsApiDown(e);
        }
        Optional<Map<String, Object>> task = queries.get(parseIdOrZero(id), BASE);
        if (task.isEmpty()) {
            return message(404, "Not found", "There is no background task " + id + ".", viewer.username());
        }
        Object request = task.get().get("request");
        List<Map<String, String>> shownHeaders =
                request instanceof Map<?, ?> r ? maskedHeaders((Map<?, ?>) r.get("headers")) : List.of();
        return html(
                200,
                taskPage.data("user", viewer.username())
                        .data("task", task.get())
                        .data("headers", shownHeaders)
                        .data("csrf", viewer.csrfToken())
                        .data("canRetry", "failed".equals(task.get().get("delivery_state")) && request != null));
    }

    @POST
    @Path("{id}/requeue/")
    @Operation(hidden = true)
    public Response requeue(
            @PathParam("id") String id,
            @FormParam("csrfmiddlewaretoken") String csrf,
            @Context HttpHeaders headers,
            @Context HttpServerRequest http)
            throws SQLException {
        AdminAccess.Viewer viewer;
        try {
            viewer = access.authorize(
                    headers.getHeaderString(HttpHeaders.AUTHORIZATION),
                    headers.getCookies(),
                    clientAddress.of(http),
                    csrf);
            access.checkWrite(viewer);
        } catch (AdminAccess.Denied denied) {
            return denied(denied);
        } catch (RecordsApiException e) {
            return recordsApiDown(e);
        }
        long taskId = parseIdOrZero(id);
        try {
            taskActions.requeue(taskId);
        } catch (ApiException refused) {
            return message(refused.status(), "Not requeued", refused.message(), viewer.username());
        }
        // Post/redirect/get: reloading the page afterwards does not post again.
        return Response.seeOther(URI.create(BASE + taskId + "/")).build();
    }

    /** Header name/value pairs for display, credentials and the signature replaced by a mask. */
    static List<Map<String, String>> maskedHeaders(Map<?, ?> headers) {
        List<Map<String, String>> shown = new ArrayList<>();
        if (headers != null) {
            headers.forEach((name, value) -> shown.add(Map.of(
                    "name",
                    String.valueOf(name),
                    "value",
                    isSensitive(String.valueOf(name)) ? MASK : String.valueOf(value))));
        }
        return shown;
    }

    static boolean isSensitive(String headerName) {
        return SENSITIVE_HEADER.matcher(headerName.toLowerCase(Locale.ROOT)).matches();
    }

    /** A page view: the CSRF cookie is presented, so that forms carry it when it is the session's. */
    private AdminAccess.Viewer view(HttpHeaders headers, HttpServerRequest http)
            throws AdminAccess.Denied, RecordsApiException {
        return access.authorize(
                headers.getHeaderString(HttpHeaders.AUTHORIZATION),
                headers.getCookies(),
                clientAddress.of(http),
                AdminAccess.cookie(headers.getCookies(), config.admin().csrfCookieName()));
    }

    private Response recordsApiDown(RecordsApiException e) {
        LOG.warnf("Cannot check the credentials of an admin page request: %s", e.getMessage());
        return message(503, "Unavailable", ApiFilters.RECORDS_API_DOWN, null);
    }

    private Response denied(AdminAccess.Denied denied) {
        String login = denied.anonymous() ? config.admin().recordsApiUrl().replaceAll("/+$", "") + "/login/" : null;
        return html(
                403,
                messagePage
                        .data("title", "Forbidden")
                        .data("message", denied.getMessage())
                        .data("login", login)
                        .data("user", null));
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

    private static long parseIdOrZero(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            return 0; // ids start at 1: "not found"
        }
    }

    private static Optional<String> first(Map<String, List<String>> query, String name) {
        return query.getOrDefault(name, List.of()).stream().findFirst();
    }
}
