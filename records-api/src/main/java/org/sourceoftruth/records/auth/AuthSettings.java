package org.sourceoftruth.records.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.net.IpNetworks;

/**
 * NetBox's authentication and authorisation settings (LOGIN_REQUIRED, EXEMPT_VIEW_PERMISSIONS,
 * DEFAULT_PERMISSIONS, MAINTENANCE_MODE, ...), read from the configuration
 * at start. NetBox can change MAINTENANCE_MODE and a few others while running (its "dynamic
 * configuration"), so every value is read through this bean on each request and can be
 * replaced at run time with the setters.
 */
@ApplicationScoped
public class AuthSettings {
    private static final Logger LOG = Logger.getLogger(AuthSettings.class);
    /**
     * NetBox's default: every user may view, add, change and delete their own bookmarks,
     * notifications, subscriptions and tokens.
     */
    static final String NETBOX_DEFAULT_PERMISSIONS = "{" + ownObjects("extras", "bookmark") + ","
            + ownObjects("extras", "notification") + "," + ownObjects("extras", "subscription") + ","
            + ownObjects("users", "token") + "}";

    /** The four actions on one's own objects of a model, as DEFAULT_PERMISSIONS entries. */
    private static String ownObjects(String app, String model) {
        StringBuilder sb = new StringBuilder();
        for (String action : List.of("view", "add", "change", "delete")) {
            sb.append(sb.isEmpty() ? "" : ",")
                    .append('"')
                    .append(app)
                    .append('.')
                    .append(action)
                    .append('_')
                    .append(model)
                    .append("\":{\"user\":\"$user\"}");
        }
        return sb.toString();
    }

    @Inject
    AuthConfig config;

    private volatile boolean loginRequired;
    private volatile List<String> exemptViews;
    private volatile List<DefaultPermission> defaultPermissions;
    private volatile boolean maintenanceMode;
    private volatile IpNetworks trustedProxies;

    /** One DEFAULT_PERMISSIONS entry: {@code "users.view_token": {"user": "$user"}}. */
    public record DefaultPermission(String objectType, String action, JsonNode constraints) {}

    @PostConstruct
    void load() {
        loginRequired = config.loginRequired();
        exemptViews = trimmed(config.exemptViewPermissions().orElse(List.of()));
        defaultPermissions = parseDefaultPermissions(config.defaultPermissions().orElse(NETBOX_DEFAULT_PERMISSIONS));
        if (config.allowTokenRetrieval()) {
            // NetBox 4.5 removed the setting for the same reason: no token's secret is stored
            LOG.warn("ALLOW_TOKEN_RETRIEVAL has no effect: token secrets are stored only as digests,"
                    + " so a token's key is shown once, when it is created");
        }
        maintenanceMode = config.maintenanceMode();
        trustedProxies = IpNetworks.parse(trimmed(config.trustedProxies().orElse(List.of())));
        if (config.passwordHashIterations() < 1) {
            throw new IllegalStateException("PASSWORD_HASH_ITERATIONS must be positive");
        }
    }

    /**
     * Parses NetBox's DEFAULT_PERMISSIONS as JSON: an object mapping {@code <app>.<action>_<model>}
     * to null (no constraints), one constraint object, or a list of them (ORed).
     */
    static List<DefaultPermission> parseDefaultPermissions(String json) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("DEFAULT_PERMISSIONS is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || root.isNull() || root.isMissingNode()) {
            return List.of();
        }
        if (!root.isObject()) {
            throw new IllegalStateException("DEFAULT_PERMISSIONS must be a JSON object");
        }
        List<DefaultPermission> out = new ArrayList<>();
        root.fields().forEachRemaining(e -> {
            String name = e.getKey();
            int dot = name.indexOf('.');
            int underscore = name.indexOf('_', dot + 1);
            if (dot <= 0 || underscore <= dot + 1 || underscore == name.length() - 1) {
                throw new IllegalStateException(
                        "DEFAULT_PERMISSIONS: '" + name + "' is not of the form <app>.<action>_<model>");
            }
            String app = name.substring(0, dot);
            out.add(new DefaultPermission(
                    app + "." + name.substring(underscore + 1), name.substring(dot + 1, underscore), e.getValue()));
        });
        return List.copyOf(out);
    }

    private static List<String> trimmed(List<String> values) {
        return values.stream().map(String::trim).filter(v -> !v.isEmpty()).toList();
    }

    public boolean loginRequired() {
        return loginRequired;
    }

    public List<String> exemptViews() {
        return exemptViews;
    }

    public List<DefaultPermission> defaultPermissions() {
        return defaultPermissions;
    }

    public boolean maintenanceMode() {
        return maintenanceMode;
    }

    public IpNetworks trustedProxies() {
        return trustedProxies;
    }

    public long loginTimeoutSeconds() {
        return config.loginTimeout();
    }

    public String sessionCookieName() {
        return config.sessionCookieName();
    }

    public String csrfCookieName() {
        return config.csrfCookieName();
    }

    public boolean secureCookies() {
        return config.sessionCookieSecure();
    }

    public int passwordHashIterations() {
        return config.passwordHashIterations();
    }

    // ----- run-time changes (NetBox's dynamic configuration) -----
    public void loginRequired(boolean v) {
        loginRequired = v;
    }

    public void exemptViews(List<String> v) {
        exemptViews = trimmed(v);
    }

    public void defaultPermissions(String json) {
        defaultPermissions = parseDefaultPermissions(json);
    }

    public void maintenanceMode(boolean v) {
        maintenanceMode = v;
    }

    public void trustedProxies(List<String> v) {
        trustedProxies = IpNetworks.parse(trimmed(v));
    }

    /** Restores every run-time value to what the configuration says (tests call it when done). */
    public void reset() {
        load();
    }
}
