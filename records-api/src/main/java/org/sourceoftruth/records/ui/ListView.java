package org.sourceoftruth.records.ui;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.RequestContext;

/**
 * A model's list page: a page of the engine's list (the same filters, permissions and ordering
 * as the API's list: every query parameter but the page's own is handed on), in a table with
 * sortable columns, pages, quick search and the filter form.
 */
@ApplicationScoped
class ListView {
    /** Parameters of the page itself, not the API's. */
    static final Set<String> OWN_PARAMETERS = Set.of("columns", "export", "per_page");

    static final int PAGE_SIZE = 50;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Inject
    Pages pages;

    @Location("ui/list")
    Template list;

    @TemplateData
    public record Head(String name, String label, String href, String arrow) {}

    @TemplateData
    public record Paging(long count, long from, long to, String previous, String next) {}

    @TemplateData
    public record ColumnChoice(String name, String label, boolean shown) {}

    Response page(Model model, Map<String, List<String>> params, HttpHeaders headers) {
        access.require(model, Access.Action.VIEW);
        QueryString query = new QueryString(params);
        List<Columns.Column> columns = Columns.of(model, query.first("columns"));
        long limit = PAGE_SIZE;
        long offset = offset(query.first("offset"));
        ListQuery.Page page = service.list(
                model, engineQuery(params), options(columns), new ListQuery.PageRequest(limit, offset, null));
        List<RowView> rows = RowView.of(page.results(), columns);
        long count = page.count() == null ? rows.size() : page.count();
        Paging paging = new Paging(
                count,
                rows.isEmpty() ? 0 : offset + 1,
                offset + rows.size(),
                offset > 0 ? query.with("offset", String.valueOf(Math.max(0, offset - limit))) : null,
                offset + limit < count ? query.with("offset", String.valueOf(offset + limit)) : null);
        boolean writable = !model.isReadOnlyApi();
        return Pages.html(
                200,
                pages.page(list, Menu.plural(model), headers)
                        .data("model", model.titleName())
                        .data("listPath", UiPaths.list(model))
                        .data("columns", columns)
                        .data("heads", heads(columns, query))
                        .data("rows", rows)
                        .data("paging", paging)
                        .data("q", query.first("q"))
                        .data("filters", FilterForm.of(model, query))
                        .data("hidden", hiddenColumnsParam(query))
                        .data("columnChoices", columnChoices(model, columns))
                        .data("exportCsv", new QueryString(query.without("offset")).with("export", "csv"))
                        .data("exportJson", new QueryString(query.without("offset")).with("export", "json"))
                        .data("canAdd", writable && access.allows(model, Access.Action.ADD))
                        .data("canDelete", writable && access.allows(model, Access.Action.DELETE))
                        .data("hasSearch", !model.searchColumns().isEmpty()));
    }

    /** The list's query as the engine takes it: without this page's own parameters. */
    static Map<String, List<String>> engineQuery(Map<String, List<String>> params) {
        Map<String, List<String>> q = new java.util.LinkedHashMap<>(params);
        OWN_PARAMETERS.forEach(q::remove);
        q.remove("limit");
        q.remove("offset");
        return q;
    }

    /** Only the columns shown (and what links need) are rendered. */
    Renderer.Options options(List<Columns.Column> columns) {
        Set<String> include = new HashSet<>(Set.of("id", "url", "display_url", "display"));
        columns.forEach(c -> include.add(c.name()));
        return new Renderer.Options(request.baseUrl(), Renderer.Mode.FULL, include, Set.of());
    }

    /** The column headings, each sortable one a link that orders by it (again: descending, a third time: the default). */
    private static List<Head> heads(List<Columns.Column> columns, QueryString query) {
        String current = query.first("ordering");
        List<Head> out = new ArrayList<>();
        for (Columns.Column c : columns) {
            if (!c.sortable()) {
                out.add(new Head(c.name(), c.label(), null, ""));
                continue;
            }
            boolean asc = c.name().equals(current);
            boolean desc = ("-" + c.name()).equals(current);
            out.add(new Head(
                    c.name(),
                    c.label(),
                    query.withFirstPage("ordering", asc ? "-" + c.name() : desc ? null : c.name()),
                    asc ? "▲" : desc ? "▼" : ""));
        }
        return out;
    }

    private static List<ColumnChoice> columnChoices(Model model, List<Columns.Column> shown) {
        Set<String> names = new HashSet<>();
        shown.forEach(c -> names.add(c.name()));
        List<ColumnChoice> out = new ArrayList<>();
        for (Columns.Column c : Columns.available(model)) {
            out.add(new ColumnChoice(c.name(), c.label(), names.contains(c.name())));
        }
        return out;
    }

    /** The current filters as hidden fields of the column chooser, so choosing columns keeps them. */
    private static List<FilterForm.Option> hiddenColumnsParam(QueryString query) {
        List<FilterForm.Option> out = new ArrayList<>();
        query.without("columns", "offset")
                .forEach((k, vs) -> vs.forEach(v -> out.add(new FilterForm.Option(k, v, false))));
        return out;
    }

    private static long offset(String raw) {
        try {
            return raw == null ? 0 : Math.max(0, Long.parseLong(raw.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
