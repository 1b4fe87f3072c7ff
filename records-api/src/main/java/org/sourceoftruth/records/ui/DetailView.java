package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.RequestContext;

/**
 * An object's page at its {@code display_url}: every field (related objects as links), tags
 * and custom fields, and a table of each kind of object that refers to it (read when the
 * page shows it, see {@link ChildTables}); the change-log tab lists its changes, the journal tab
 * its journal entries ({@link JournalView}).
 */
@ApplicationScoped
class DetailView {
    /** Fields the page shows in its header rather than in the table. */
    private static final Set<String> HEADER = Set.of("url", "display_url", "display", "tags", "custom_fields");

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Inject
    ModelRegistry registry;

    @Inject
    Pages pages;

    @Inject
    ChangeLogView changes;

    @Inject
    JournalView journals;

    @Location("ui/detail")
    Template detail;

    @TemplateData
    public record FieldRow(String label, Cell value) {}

    @TemplateData
    public record ChildSection(String title, String href) {}

    Response page(Model model, long id, HttpHeaders headers) {
        Header header = header(model, id, headers, "detail");
        ObjectNode object = header.object();
        List<FieldRow> fields = new ArrayList<>();
        for (Field f : model.fields()) {
            if (!HEADER.contains(f.name) && !f.isWriteOnly() && !f.isSecret() && object.has(f.name)) {
                fields.add(new FieldRow(f.label(), Cell.of(object.get(f.name))));
            }
        }
        List<FieldRow> customFields = new ArrayList<>();
        Cell.fields(object.get("custom_fields")).forEach((k, v) -> customFields.add(new FieldRow(k, v)));
        return Pages.html(
                200,
                header.page()
                        .data("fields", fields)
                        .data("customFields", customFields)
                        .data("tags", Cell.of(object.get("tags")).items())
                        .data("children", children(model, id)));
    }

    Response changeLog(Model model, long id, HttpHeaders headers) {
        return Pages.html(200, header(model, id, headers, "changelog").page().data("changes", changes.of(model, id)));
    }

    /** The object's header, buttons and tabs, shared by its pages. */
    Header header(Model model, long id, HttpHeaders headers, String tab) {
        access.require(model, Access.Action.VIEW);
        ObjectNode object =
                service.get(model, id, Renderer.Options.full(request.baseUrl())).node();
        String display = object.path("display").asText("#" + id);
        boolean writable = !model.isReadOnlyApi();
        TemplateInstance page = pages.page(detail, display, headers)
                .data("model", model.titleName())
                .data("listPath", UiPaths.list(model))
                .data("listLabel", Menu.plural(model))
                .data("path", UiPaths.detail(model, id))
                .data("apiUrl", "/api/" + model.app() + "/" + model.path() + "/" + id + "/")
                .data("display", display)
                .data("tab", tab)
                .data("canEdit", writable && access.holds(model, "change") && access.permits(model, id, "change"))
                .data("canDelete", writable && access.holds(model, "delete") && access.permits(model, id, "delete"))
                .data(
                        "hasChangeLog",
                        registry.byContentType("core.objectchange")
                                .map(m -> access.allows(m, Access.Action.VIEW))
                                .orElse(false))
                .data("hasJournal", journals.shown(model));
        return new Header(object, page);
    }

    record Header(ObjectNode object, TemplateInstance page) {}

    /** A section for each relation of another model to this one the caller may view. */
    private List<ChildSection> children(Model model, long id) {
        List<ChildSection> out = new ArrayList<>();
        Map<String, Integer> perOwner = new java.util.HashMap<>();
        List<ModelRegistry.Reference> refs = ChildTables.references(registry, model);
        refs.forEach(r -> perOwner.merge(r.owner().contentType(), 1, Integer::sum));
        for (ModelRegistry.Reference r : refs) {
            if (!access.allows(r.owner(), Access.Action.VIEW)) {
                continue;
            }
            String title = Menu.plural(r.owner())
                    + (perOwner.get(r.owner().contentType()) > 1
                            ? " (" + r.field().label().toLowerCase(java.util.Locale.ROOT) + ")"
                            : "");
            out.add(new ChildSection(
                    title, UiPaths.list(r.owner()) + "table/?" + r.field().column() + "=" + id));
        }
        return out;
    }
}
