package org.sourceoftruth.records.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * NetBox's authentication settings as configured at start (environment variables of the same
 * names, see application.properties). {@link AuthSettings} holds the values in force, some of
 * which can change while running.
 */
@ConfigMapping(prefix = "sot")
public interface AuthConfig {
    @WithDefault("true")
    boolean loginRequired();

    /** Models anyone signed in may view, {@code app.model} or {@code *}. */
    Optional<List<String>> exemptViewPermissions();

    /** DEFAULT_PERMISSIONS as JSON; absent: NetBox's default (own tokens). */
    Optional<String> defaultPermissions();

    /** NetBox 4.4's ALLOW_TOKEN_RETRIEVAL: accepted, without effect (a warning at start); see AuthSettings. */
    @WithDefault("false")
    boolean allowTokenRetrieval();

    @WithDefault("false")
    boolean maintenanceMode();

    /** Proxies whose X-Forwarded-For is believed (addresses or networks). */
    Optional<List<String>> trustedProxies();

    /** Session lifetime in seconds (NetBox's LOGIN_TIMEOUT: two weeks). */
    @WithDefault("1209600")
    long loginTimeout();

    @WithDefault("sessionid")
    String sessionCookieName();

    @WithDefault("csrftoken")
    String csrfCookieName();

    @WithDefault("false")
    boolean sessionCookieSecure();

    @WithDefault("600000")
    int passwordHashIterations();
}
