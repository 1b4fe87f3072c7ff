package org.sourceoftruth.records.ui;

import io.quarkus.qute.TemplateData;
import java.util.List;

/**
 * What every page's layout shows around its content: the signed-in user, the menu of the
 * applications and models the user may view and of the other services' pages they may use
 * ({@code operations}), the CSRF token for forms, and the assets.
 */
@TemplateData
public record Chrome(
        String title,
        String user,
        boolean superuser,
        List<MenuApp> menu,
        List<MenuItem> operations,
        String csrf,
        String query,
        String app) {
    @TemplateData
    public record MenuApp(String key, String label, List<MenuItem> items) {}

    @TemplateData
    public record MenuItem(String label, String href) {}

    public String bootstrapCss() {
        return UiAssets.BOOTSTRAP_CSS;
    }

    public String bootstrapJs() {
        return UiAssets.BOOTSTRAP_JS;
    }

    public String htmxJs() {
        return UiAssets.HTMX_JS;
    }

    public String uiCss() {
        return UiAssets.UI_CSS;
    }
}
