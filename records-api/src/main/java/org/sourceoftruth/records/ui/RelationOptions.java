package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * The options of a relation's select: the first objects of the target's list (its {@code q}
 * search narrows them, as the picker's search box asks), and the selected ones, through the
 * engine and the caller's view permission.
 */
@ApplicationScoped
class RelationOptions {
    static final long FIRST = 100;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    /**
     * @param current the field's value in the API's form (nested objects name the selected ones), or null
     * @return the options, or null when the caller may not list the target
     */
    List<FilterForm.Option> options(Model target, String q, List<Long> selected, JsonNode current, boolean withEmpty) {
        if (!access.allows(target, Access.Action.VIEW)) {
            return null;
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (q != null && !q.isBlank() && !target.searchColumns().isEmpty()) {
            query.put("q", List.of(q));
        }
        Renderer.Options brief = new Renderer.Options(request.baseUrl(), Renderer.Mode.BRIEF, null, Set.of());
        ListQuery.Page page = service.list(target, query, brief, new ListQuery.PageRequest(FIRST, 0, null));
        Set<Long> chosen = new HashSet<>(selected);
        List<FilterForm.Option> out = new ArrayList<>();
        if (withEmpty) {
            out.add(new FilterForm.Option("", "—", chosen.isEmpty()));
        }
        Set<Long> listed = new HashSet<>();
        for (ObjectNode o : page.results()) {
            long id = o.path("id").asLong();
            listed.add(id);
            out.add(new FilterForm.Option(String.valueOf(id), o.path("display").asText(), chosen.contains(id)));
        }
        for (JsonNode item : currentItems(current)) {
            long id = item.path("id").asLong();
            if (chosen.contains(id) && listed.add(id)) {
                out.add(new FilterForm.Option(
                        String.valueOf(id), item.path("display").asText("#" + id), true));
            }
        }
        for (long id : selected) {
            if (listed.add(id)) {
                out.add(new FilterForm.Option(String.valueOf(id), "#" + id, true));
            }
        }
        return out;
    }

    private static List<JsonNode> currentItems(JsonNode current) {
        List<JsonNode> out = new ArrayList<>();
        if (current != null && current.isObject()) {
            out.add(current);
        } else if (current != null && current.isArray()) {
            current.forEach(i -> {
                if (i.isObject()) {
                    out.add(i);
                }
            });
        }
        return out;
    }
}
