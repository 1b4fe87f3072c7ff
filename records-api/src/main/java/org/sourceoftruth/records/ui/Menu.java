package org.sourceoftruth.records.ui;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.RequestContext;

/**
 * The menu: every application and, under it, the models of it the caller may view, from the
 * registry; for superusers, the webhook dispatcher's pages.
 */
@ApplicationScoped
class Menu {
    @Inject
    ModelRegistry registry;

    @Inject
    Access access;

    /** Where browsers reach the webhook dispatcher's pages (DISPATCHER_PAGES_URL), else where records-api does. */
    @ConfigProperty(name = "sot.dispatcher-pages-url")
    Optional<String> dispatcherPagesUrl;

    @ConfigProperty(name = "sot.dispatcher-url")
    String dispatcherUrl;

    @Inject
    RequestContext request;

    /** The dispatcher's background-task and replay pages, for superusers (whom alone its pages admit). */
    List<Chrome.MenuItem> operations() {
        RequestContext.Caller caller = request.caller();
        if (caller == null || !caller.superuser()) {
            return List.of();
        }
        String origin = dispatcherPagesUrl.orElse(dispatcherUrl).replaceAll("/+$", "");
        return List.of(
                new Chrome.MenuItem("Background tasks", origin + BACKGROUND_TASKS),
                new Chrome.MenuItem("Webhook replays", origin + "/admin/webhook-replays/"));
    }

    static final String BACKGROUND_TASKS = "/admin/background-tasks/";

    List<Chrome.MenuApp> forCaller() {
        List<Chrome.MenuApp> apps = new ArrayList<>();
        for (String app : registry.apps()) {
            List<Chrome.MenuItem> items = new ArrayList<>();
            for (var entry : registry.modelsOf(app).entrySet()) {
                Model m = entry.getValue();
                if (isPrimaryPath(m, app, entry.getKey()) && access.allows(m, Access.Action.VIEW)) {
                    items.add(new Chrome.MenuItem(plural(m), UiPaths.list(m)));
                }
            }
            if (!items.isEmpty()) {
                apps.add(new Chrome.MenuApp(app, appLabel(app), items));
            }
        }
        return apps;
    }

    /** A model served at a second path too (NetBox 3's extras/object-changes) is listed once, under its own application. */
    static boolean isPrimaryPath(Model m, String app, String path) {
        return m.app().equals(app) && m.path().equals(path);
    }

    static String appLabel(String app) {
        return ACRONYMS.contains(app) ? app.toUpperCase(Locale.ROOT) : capitalised(app);
    }

    /** "IP addresses" from the path "ip-addresses". */
    static String plural(Model m) {
        StringBuilder out = new StringBuilder();
        for (String word : m.path().split("-")) {
            if (!out.isEmpty()) {
                out.append(' ');
            }
            String stem = word.endsWith("s") ? word.substring(0, word.length() - 1) : word;
            if (ACRONYMS.contains(word)) {
                out.append(word.toUpperCase(Locale.ROOT));
            } else if (ACRONYMS.contains(stem)) {
                out.append(stem.toUpperCase(Locale.ROOT)).append('s');
            } else {
                out.append(out.isEmpty() ? capitalised(word) : word);
            }
        }
        return out.toString();
    }

    private static final java.util.Set<String> ACRONYMS = java.util.Set.of(
            "dcim", "ipam", "vpn", "ip", "vlan", "vrf", "asn", "rir", "fhrp", "ike", "ipsec", "l2vpn", "mac", "vm");

    private static String capitalised(String word) {
        return word.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }
}
