package org.sourceoftruth.records.ui;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * The tables of child objects on a detail page: for every foreign key of another model that
 * points at the object's model (from the registry), the first rows of that model's list
 * filtered by the key. Each is its own small request (htmx loads it when the page shows it),
 * so an object's page costs the same whatever refers to it; a relation without rows answers
 * nothing and its section disappears.
 */
@ApplicationScoped
class ChildTables {
    static final int ROWS = 10;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    ListView lists;

    @Location("ui/children")
    Template children;

    /** The foreign keys of other models to this one that a list can filter by. */
    static List<ModelRegistry.Reference> references(ModelRegistry registry, Model model) {
        List<ModelRegistry.Reference> out = new ArrayList<>();
        for (ModelRegistry.Reference r : registry.referencesTo(model.contentType())) {
            Field f = r.field();
            if (f.kind == Kind.FK
                    && f.isColumn()
                    && f.isFilterable()
                    && !f.isWriteOnly()
                    && r.owner().hasDisplayUrl()) {
                out.add(r);
            }
        }
        return out;
    }

    /** The first rows of the model's list under the filter (a child table's content). */
    Response table(Model model, Map<String, List<String>> params) {
        access.require(model, Access.Action.VIEW);
        List<Columns.Column> columns = Columns.of(model, null);
        ListQuery.Page page = service.list(
                model,
                ListView.engineQuery(params),
                lists.options(columns),
                new ListQuery.PageRequest((long) ROWS, 0, null));
        List<RowView> rows = RowView.of(page.results(), columns);
        if (rows.isEmpty()) {
            return Response.ok("").type(MediaType.TEXT_HTML_TYPE).build();
        }
        String body = children.data("columns", columns)
                .data("rows", rows)
                .data("count", page.count() == null ? rows.size() : page.count())
                .data("all", UiPaths.list(model) + QueryString.format(ListView.engineQuery(params)))
                .render();
        return Response.ok(body)
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .build();
    }
}
