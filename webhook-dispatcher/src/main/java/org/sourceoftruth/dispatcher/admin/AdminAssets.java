package org.sourceoftruth.dispatcher.admin;

import io.quarkus.qute.TemplateGlobal;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * What the admin pages' layout ({@code templates/admin/base.html}) names besides their data:
 * Bootstrap's stylesheet, from the webjar on the classpath (Quarkus serves every jar's
 * {@code META-INF/resources/}; the version is the parent pom's {@code webjar.bootstrap.version},
 * the same records-api's web interface uses), this module's few additions, and records-api's web
 * interface, which the navbar links back to. Nothing is loaded from another site.
 */
@TemplateGlobal
public final class AdminAssets {
    static final String BOOTSTRAP_VERSION = "5.3.8";
    static final String BOOTSTRAP_CSS = "/webjars/bootstrap/" + BOOTSTRAP_VERSION + "/dist/css/bootstrap.min.css";
    static final String ADMIN_CSS = "/static/admin.css";

    private AdminAssets() {}

    static String bootstrapCss() {
        return BOOTSTRAP_CSS;
    }

    static String adminCss() {
        return ADMIN_CSS;
    }

    /** Where browsers reach records-api (RECORDS_API_URL), without a trailing slash. */
    static String recordsUi() {
        String url = ConfigProvider.getConfig().getValue("dispatcher.admin.records-api-url", String.class);
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
