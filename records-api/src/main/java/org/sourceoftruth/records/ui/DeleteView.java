package org.sourceoftruth.records.ui;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.write.DeletePreview;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.ApiException;

/**
 * Deleting one object or the rows selected in a list: a confirmation page naming them and what
 * the delete would take with it ({@link ModelService#previewDelete}: the objects it cascades to,
 * those losing a reference, those protecting them), then the engine's delete (the API's DELETE, bulk for several), with its permission checks, protection
 * of dependent objects (a 409 shown as a page) and change records.
 */
@ApplicationScoped
class DeleteView {
    static final int MAX_SELECTED = 1000;

    /** Objects named per model among those a delete cascades to or that protect it. */
    static final int NAMES = 5;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    ListView lists;

    @Inject
    Pages pages;

    @Location("ui/delete")
    Template confirm;

    Response confirm(Model model, List<Long> ids, String action, String cancel, HttpHeaders headers) {
        FormView.writable(model);
        access.require(model, Access.Action.DELETE);
        if (ids.isEmpty()) {
            throw ApiException.field("pk", "Select the objects to delete.");
        }
        if (ids.size() > MAX_SELECTED) {
            throw ApiException.field("pk", "Select at most " + MAX_SELECTED + " objects.");
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        List<String> idText = new ArrayList<>();
        ids.forEach(id -> idText.add(String.valueOf(id)));
        query.put("id", idText);
        List<Columns.Column> columns = Columns.of(model, null);
        ListQuery.Page page = service.list(
                model, query, lists.options(columns), new ListQuery.PageRequest((long) MAX_SELECTED, 0, null));
        List<RowView> rows = RowView.of(page.results(), columns);
        if (rows.isEmpty()) {
            throw ApiException.notFound();
        }
        List<Long> found = new ArrayList<>();
        rows.forEach(r -> found.add(r.id()));
        DeletePreview preview = service.previewDelete(model, found, NAMES);
        String title = rows.size() == 1
                ? "Delete " + rows.get(0).display() + "?"
                : "Delete " + rows.size() + " " + Menu.plural(model).toLowerCase(java.util.Locale.ROOT) + "?";
        return Pages.html(
                200,
                pages.page(confirm, title, headers)
                        .data("rows", rows)
                        .data("columns", columns)
                        .data("action", action)
                        .data("cancel", cancel)
                        .data("cascaded", dependents(preview.cascaded()))
                        .data("cleared", dependents(preview.cleared()))
                        .data("protecting", dependents(preview.protecting())));
    }

    /**
     * The preview's groups as the page lists them: the model, the count and, when the caller may
     * view the model, the first objects' names linked to their pages (a count alone otherwise).
     */
    private List<Dependents> dependents(List<DeletePreview.Group> groups) {
        List<Dependents> out = new ArrayList<>();
        for (DeletePreview.Group g : groups) {
            Model m = g.model();
            List<Dependent> named = new ArrayList<>();
            if (access.allows(m, Access.Action.VIEW)) {
                for (DeletePreview.Item item : g.first()) {
                    named.add(new Dependent(item.display(), m.hasDisplayUrl() ? UiPaths.detail(m, item.id()) : null));
                }
            }
            out.add(new Dependents(Menu.plural(m), m.contentType(), g.count(), named, g.count() - named.size()));
        }
        return out;
    }

    /** Objects of one model the delete touches: {@code more} of the {@code count} are not named. */
    @TemplateData
    public record Dependents(String label, String contentType, int count, List<Dependent> named, int more) {}

    @TemplateData
    public record Dependent(String display, String href) {}

    Response delete(Model model, List<Long> ids, boolean bulk, String then) {
        FormView.writable(model);
        access.require(model, Access.Action.DELETE);
        if (ids.isEmpty()) {
            throw ApiException.field("pk", "Select the objects to delete.");
        }
        service.delete(model, ids, bulk, null, null);
        return Pages.redirect(then);
    }

    /** The selected ids of a list's form; an id that is no number is a 400 naming the field. */
    static List<Long> ids(List<String> values) {
        List<Long> out = new ArrayList<>();
        if (values == null) {
            return out;
        }
        for (String v : values) {
            try {
                out.add(Long.parseLong(v.strip()));
            } catch (NumberFormatException e) {
                throw ApiException.field(
                        "pk", "\"" + (v.length() > 40 ? v.substring(0, 40) : v) + "\" is not a valid id.");
            }
        }
        return out;
    }
}
