package org.sourceoftruth.dispatcher.admin;

import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

import java.sql.SQLException;
import java.util.Optional;

/**
 * Who may use the admin pages: superusers, either logged in at records-api (its session cookie,
 * looked up in the shared users_session table) or sending an API token. Everyone else is refused
 * with a {@link Denied} saying why.
 */
@ApplicationScoped
public class AdminAccess {

    @Inject
    SessionAuthenticator sessions;
    @Inject
    TokenAuthenticator tokens;
    @Inject
    DispatcherConfig config;

    /**
     * An authorised superuser. {@code session} is null for token callers; {@code csrfToken} is the
     * session's CSRF token (from the csrftoken cookie, checked against the session) to put into
     * forms, or null when the cookie does not belong to the session.
     */
    public record Viewer(String username, SessionAuthenticator.Session session, String csrfToken) {
    }

    /** Access refused: 403 with the reason; {@code anonymous} when logging in would help. */
    public static final class Denied extends Exception {
        private final boolean anonymous;

        Denied(String reason, boolean anonymous) {
            super(reason, null, false, false);
            this.anonymous = anonymous;
        }

        public boolean anonymous() {
            return anonymous;
        }
    }

    public Viewer authorize(HttpHeaders headers, HttpServerRequest http) throws Denied, SQLException {
        String authorization = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (authorization != null && !authorization.isBlank()) {
            try {
                return new Viewer(tokens.authenticateSuperuser(authorization, ApiFilters.clientIp(http)).username(),
                        null, null);
            } catch (ApiException e) {
                throw new Denied(e.message(), false);
            }
        }
        Optional<SessionAuthenticator.Session> session = sessions.find(cookie(headers, config.admin().sessionCookieName()));
        if (session.isEmpty()) {
            throw new Denied(TokenAuthenticator.NOT_PROVIDED, true);
        }
        if (!session.get().superuser()) {
            throw new Denied(TokenAuthenticator.NO_PERMISSION, false);
        }
        String csrf = cookie(headers, config.admin().csrfCookieName());
        return new Viewer(session.get().username(), session.get(), session.get().csrfMatches(csrf) ? csrf : null);
    }

    /**
     * Django's CSRF rule for a form post of a session user: the form field must equal the
     * csrftoken cookie, and (as records-api requires) be the token issued with the session.
     * Token callers are not exposed to CSRF: browsers never add an Authorization header by themselves.
     */
    public void checkCsrf(Viewer viewer, HttpHeaders headers, String formField) throws Denied {
        if (viewer.session() == null) {
            return;
        }
        String cookie = cookie(headers, config.admin().csrfCookieName());
        if (!SessionAuthenticator.constantTimeEquals(formField, cookie) || !viewer.session().csrfMatches(formField)) {
            throw new Denied("CSRF verification failed. Request aborted.", false);
        }
    }

    private static String cookie(HttpHeaders headers, String name) {
        Cookie cookie = headers.getCookies().get(name);
        return cookie == null ? null : cookie.getValue();
    }
}
