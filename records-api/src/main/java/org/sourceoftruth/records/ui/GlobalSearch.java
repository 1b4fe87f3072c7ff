package org.sourceoftruth.records.ui;

import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.RequestContext;

/**
 * The global search: every model's {@code q} filter (the API's quick search, under the caller's
 * view permission), the first matches of each model that has any.
 */
@ApplicationScoped
class GlobalSearch {
    static final long PER_MODEL = 10;
    static final int MAX_LENGTH = 200;

    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @TemplateData
    public record Group(String label, String more, long count, List<Cell> matches) {}

    List<Group> find(String q) {
        String text = q.length() > MAX_LENGTH ? q.substring(0, MAX_LENGTH) : q;
        Renderer.Options brief = new Renderer.Options(
                request.baseUrl(), Renderer.Mode.FULL, Set.of("id", "url", "display_url", "display"), Set.of());
        List<Group> out = new ArrayList<>();
        for (String app : registry.apps()) {
            for (var entry : registry.modelsOf(app).entrySet()) {
                Model m = entry.getValue();
                if (!Menu.isPrimaryPath(m, app, entry.getKey())
                        || m.searchColumns().isEmpty()
                        || !access.allows(m, Access.Action.VIEW)) {
                    continue;
                }
                ListQuery.Page page = service.list(
                        m, Map.of("q", List.of(text)), brief, new ListQuery.PageRequest(PER_MODEL, 0, null));
                if (page.results().isEmpty()) {
                    continue;
                }
                List<Cell> matches = new ArrayList<>();
                page.results()
                        .forEach(o -> matches.add(
                                Cell.link(o.path("display").asText(), Cell.relative(o.get("display_url")))));
                out.add(new Group(
                        Menu.appLabel(app) + " › " + Menu.plural(m),
                        UiPaths.list(m) + "?q=" + QueryString.encode(text),
                        page.count() == null ? matches.size() : page.count(),
                        matches));
            }
        }
        return out;
    }
}
