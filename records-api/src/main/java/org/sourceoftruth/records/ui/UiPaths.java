package org.sourceoftruth.records.ui;

import org.sourceoftruth.records.model.Model;

/** The web interface's URLs: a model's pages live where its {@code display_url} points. */
final class UiPaths {
    /**
     * The applications with models, as a route's regular expression: other one-segment paths
     * ({@code /login/}, {@code /media/}, {@code /static/}) stay with their own routes.
     * UiPagesTest holds it equal to the registry's applications.
     */
    static final String APPS = "circuits|core|dcim|extras|ipam|tenancy|users|virtualization|vpn|wireless";

    /** A model path segment. */
    static final String MODEL = "[a-z0-9-]+";

    private UiPaths() {}

    static String list(Model m) {
        return "/" + m.app() + "/" + m.path() + "/";
    }

    static String detail(Model m, long id) {
        return list(m) + id + "/";
    }
}
