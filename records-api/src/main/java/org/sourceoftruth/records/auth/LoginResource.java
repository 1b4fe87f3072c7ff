package org.sourceoftruth.records.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.qute.Template;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.Responses;

/**
 * Session login for the browsable API: {@code /login/} (an HTML form, or JSON
 * {@code {"username", "password"}}) sets the session cookie and a fresh CSRF cookie;
 * {@code /logout/} ends the session. The form is protected by Django's double-submit rule
 * (hidden field equal to the {@code csrftoken} cookie); the JSON variant needs
 * {@code Content-Type: application/json}, which no cross-site form can send.
 */
@Path("/")
public class LoginResource {
    private static final String BAD_CREDENTIALS =
            "Please enter a correct username and password." + " Note that both fields may be case-sensitive.";

    @Inject
    Credentials credentials;

    @Inject
    SessionStore sessions;

    @Inject
    AuthSettings settings;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Template login;

    @Context
    HttpHeaders headers;

    @GET
    @Path("login/")
    @Produces(MediaType.TEXT_HTML)
    public Response form(@QueryParam("next") String next) {
        String csrf = currentCsrfCookie().orElseGet(() -> Secrets.randomHex(32));
        return Response.ok(page(csrf, next, null)).cookie(csrfCookie(csrf)).build();
    }

    @POST
    @Path("login/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public Response formLogin(
            @FormParam("username") String username,
            @FormParam("password") String password,
            @FormParam("csrfmiddlewaretoken") String csrfField,
            @FormParam("next") String next) {
        Optional<String> cookie = currentCsrfCookie();
        if (cookie.isEmpty() || !Secrets.constantTimeEquals(csrfField, cookie.get())) {
            return Response.status(403)
                    .type(MediaType.TEXT_PLAIN)
                    .entity("CSRF verification failed. Request aborted.")
                    .build();
        }
        Optional<Credentials.User> user;
        try {
            user = credentials.authenticate(username, password);
        } catch (ApiException throttled) {
            if (throttled.status() != 429) {
                throw throttled;
            }
            // the form again, with the wait: a browser shows no JSON
            String retryAfter = throttled.headers().get("Retry-After");
            return Response.status(429)
                    .type(MediaType.TEXT_HTML)
                    .entity(page(
                            cookie.get(),
                            next,
                            "Too many failed sign-ins. Try again in " + retryAfter + " second"
                                    + ("1".equals(retryAfter) ? "." : "s.")))
                    .header("Retry-After", retryAfter)
                    .build();
        }
        if (user.isEmpty()) {
            return Response.ok(page(cookie.get(), next, BAD_CREDENTIALS)).build();
        }
        SessionStore.Issued issued = startSession(user.get());
        return Response.seeOther(URI.create(safeNext(next)))
                .cookie(sessionCookie(issued.key()), csrfCookie(issued.csrfToken()))
                .build();
    }

    @POST
    @Path("login/")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response jsonLogin(String body) {
        JsonNode json = JsonBody.parse(body);
        Map<String, List<String>> missing = new LinkedHashMap<>();
        for (String field : List.of("username", "password")) {
            if (!json.path(field).isTextual() || json.path(field).asText().isEmpty()) {
                missing.put(field, List.of("This field is required."));
            }
        }
        if (!missing.isEmpty()) {
            throw ApiException.fields(missing);
        }
        Credentials.User user = credentials
                .authenticate(
                        json.get("username").asText(), json.get("password").asText())
                .orElseThrow(() -> ApiException.detail(403, "Invalid username/password"));
        SessionStore.Issued issued = startSession(user);
        ObjectNode out = Json.MAPPER
                .createObjectNode()
                .put("id", user.id())
                .put("username", user.username())
                .put("csrf_token", issued.csrfToken());
        return Response.fromResponse(Responses.json(200, out, headers))
                .cookie(sessionCookie(issued.key()), csrfCookie(issued.csrfToken()))
                .build();
    }

    /** OPTIONS on the two pages (the class's own path, "/", is none: see {@link AnswersOptions}). */
    @OPTIONS
    @Operation(hidden = true) // not in NetBox's document either
    @Path("{page: login|logout}/")
    public Response options() {
        return AnswersOptions.ok();
    }

    /** A link or bookmark: ends the session and returns to the login form. */
    @GET
    @Path("logout/")
    public Response logoutLink() {
        endSession();
        return Response.seeOther(URI.create("/login/"))
                .cookie(expired(settings.sessionCookieName(), true))
                .build();
    }

    /** From a script: ends the session (CSRF-checked like every session write). */
    @POST
    @Path("logout/")
    public Response logout() {
        endSession();
        return Response.noContent()
                .cookie(expired(settings.sessionCookieName(), true))
                .build();
    }

    private SessionStore.Issued startSession(Credentials.User user) {
        SessionStore.Issued issued = sessions.create(user.id());
        if (!settings.maintenanceMode()) {
            try (Connection c = dataSource.getConnection()) {
                new Db(c)
                        .update(
                                "update " + SystemTables.USERS_USER + " set last_login = now() where id = ?",
                                user.id());
            } catch (SQLException e) {
                throw new Db.DbException(e);
            }
        }
        return issued;
    }

    private void endSession() {
        jakarta.ws.rs.core.Cookie cookie = headers.getCookies().get(settings.sessionCookieName());
        if (cookie != null) {
            sessions.delete(cookie.getValue());
        }
    }

    private String page(String csrf, String next, String error) {
        return login.data("csrf", csrf)
                .data("next", safeNext(next))
                .data("error", error)
                .render();
    }

    private Optional<String> currentCsrfCookie() {
        jakarta.ws.rs.core.Cookie c = headers.getCookies().get(settings.csrfCookieName());
        return c == null || !c.getValue().matches("[0-9a-f]{64}") ? Optional.empty() : Optional.of(c.getValue());
    }

    /** Only a path on this site; anything else (//evil.example, https://...) goes to the API root. */
    static String safeNext(String next) {
        if (next == null
                || !next.startsWith("/")
                || next.startsWith("//")
                || next.contains("\\")
                || next.chars().anyMatch(ch -> ch < 0x21)) {
            return "/api/";
        }
        return next;
    }

    private NewCookie sessionCookie(String value) {
        return cookie(settings.sessionCookieName(), value, true, (int)
                Math.min(Integer.MAX_VALUE, settings.loginTimeoutSeconds()));
    }

    /** Readable by scripts, which must echo it in X-CSRFToken. */
    private NewCookie csrfCookie(String value) {
        return cookie(settings.csrfCookieName(), value, false, 31_449_600); // Django's CSRF_COOKIE_AGE: one year
    }

    private NewCookie expired(String name, boolean httpOnly) {
        return cookie(name, "", httpOnly, 0);
    }

    private NewCookie cookie(String name, String value, boolean httpOnly, int maxAge) {
        return new NewCookie.Builder(name)
                .value(value)
                .path("/")
                .httpOnly(httpOnly)
                .secure(settings.secureCookies())
                .sameSite(NewCookie.SameSite.LAX)
                .maxAge(maxAge)
                .build();
    }
}
