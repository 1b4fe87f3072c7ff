package org.sourceoftruth.records.ui;

import java.util.List;

/** What tests in other packages read of the web interface's package-private constants. */
public final class UiTestAccess {
    public static final String APPS = UiPaths.APPS;
    public static final List<String> ASSETS =
            List.of(UiAssets.BOOTSTRAP_CSS, UiAssets.BOOTSTRAP_JS, UiAssets.HTMX_JS, UiAssets.UI_CSS, "/static/ui.js");

    private UiTestAccess() {}
}
