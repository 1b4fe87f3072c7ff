package org.sourceoftruth.dispatcher.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Cookie;
import java.util.Map;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;

/**
 * Who may use the admin API and pages: superusers of records-api, logged in there (its session
 * cookie, which browsers send to every port of the host) or sending an API token. records-api
 * decides who the caller is ({@link CredentialCheck}); everyone else is refused with a
 * {@link Denied} saying why, in NetBox's words.
 */
@ApplicationScoped
public class AdminAccess {

    static final String NOT_PROVIDED = "Authentication credentials were not provided.";
    static final String NO_PERMISSION = "You do not have permission to perform this action.";

    @Inject
    CredentialCheck credentials;

    @Inject
    DispatcherConfig config;

    /**
     * An authorised superuser. {@code bySession}: authenticated by records-api's login session;
     * {@code csrfToken} is then the CSRF token the request presented, when records-api confirmed
     * it is the session's and the cookie's (to put into forms), else null.
     */
    public record Viewer(Caller caller, boolean bySession, String csrfToken) {
        public String username() {
            return caller.username();
        }
    }

    /**
     * Access refused: 403 with the reason; {@code anonymous} when logging in would help, {@code csrf}
     * when a session's write lacked its CSRF token (each surface words that its own way).
     */
    public static final class Denied extends Exception {
        private final boolean anonymous;
        private final boolean csrf;

        Denied(String reason, boolean anonymous, boolean csrf) {
            super(reason, null, false, false);
            this.anonymous = anonymous;
            this.csrf = csrf;
        }

        public boolean anonymous() {
            return anonymous;
        }

        public boolean csrf() {
            return csrf;
        }
    }

    /**
     * @param authorization the Authorization header, or null
     * @param cookies       the request's cookies (records-api's session and CSRF cookies)
     * @param clientIp      the client's address as NetBox determines it (a token's allowed_ips)
     * @param csrfPresented the CSRF token the request carries (form field, X-CSRFToken), or for
     *                      a page view the CSRF cookie itself, to learn whether forms may carry it
     * @throws RecordsApiException when records-api cannot be asked
     */
    public Viewer authorize(String authorization, Map<String, Cookie> cookies, String clientIp, String csrfPresented)
            throws Denied, RecordsApiException {
        CredentialCheck.Verdict verdict = credentials.check(new CredentialCheck.Presented(
                authorization == null || authorization.isBlank() ? null : authorization,
                cookie(cookies, config.admin().sessionCookieName()),
                csrfPresented,
                cookie(cookies, config.admin().csrfCookieName()),
                clientIp));
        if (verdict.refusal() != null) {
            throw new Denied(verdict.refusal(), false, false);
        }
        if (verdict.caller() == null) {
            throw new Denied(NOT_PROVIDED, true, false);
        }
        if (!verdict.caller().superuser()) {
            throw new Denied(NO_PERMISSION, false, false);
        }
        return new Viewer(
                verdict.caller(),
                verdict.bySession(),
                verdict.bySession() && verdict.csrfValid() ? csrfPresented : null);
    }

    /**
     * A write (a POST): a session user must have presented the session's CSRF token (Django's rule
     * as records-api applies it; browsers never add an Authorization header by themselves, so
     * token callers are not exposed to CSRF); a token must be write-enabled, as NetBox requires.
     */
    public void checkWrite(Viewer viewer) throws Denied {
        if (viewer.bySession() && viewer.csrfToken() == null) {
            throw new Denied("CSRF verification failed. Request aborted.", false, true);
        }
        if (!viewer.bySession() && !viewer.caller().writeEnabled()) {
            throw new Denied(NO_PERMISSION, false, false);
        }
    }

    static String cookie(Map<String, Cookie> cookies, String name) {
        Cookie cookie = cookies.get(name);
        return cookie == null ? null : cookie.getValue();
    }
}
