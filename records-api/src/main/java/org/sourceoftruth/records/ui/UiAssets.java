package org.sourceoftruth.records.ui;

/**
 * The stylesheet and scripts of the web interface, from the Bootstrap and htmx webjars on the
 * classpath (Quarkus serves every jar's {@code META-INF/resources/}): no page loads anything
 * from another site. The versions are the pom's {@code webjar.*.version} properties.
 */
final class UiAssets {
    static final String BOOTSTRAP_VERSION = "5.3.8";
    static final String HTMX_VERSION = "2.0.7";
    static final String BOOTSTRAP_CSS = "/webjars/bootstrap/" + BOOTSTRAP_VERSION + "/dist/css/bootstrap.min.css";
    static final String BOOTSTRAP_JS = "/webjars/bootstrap/" + BOOTSTRAP_VERSION + "/dist/js/bootstrap.bundle.min.js";
    static final String HTMX_JS = "/webjars/htmx.org/" + HTMX_VERSION + "/dist/htmx.min.js";
    static final String UI_CSS = "/static/ui.css";

    private UiAssets() {}
}
