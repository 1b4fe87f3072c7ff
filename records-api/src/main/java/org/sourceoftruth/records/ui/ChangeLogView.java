package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.RequestContext;

/**
 * Change records from the change log ({@code core.objectchange}, through the engine and the
 * caller's permissions on it): one object's for its change-log tab, the latest for the home page.
 */
@ApplicationScoped
class ChangeLogView {
    static final long ROWS = 50;

    @Inject
    ModelService service;

    @Inject
    ModelRegistry registry;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @TemplateData
    public record Change(
            String time,
            String user,
            String action,
            String object,
            String objectHref,
            String message,
            List<Difference> differences) {}

    @TemplateData
    public record Difference(String field, String before, String after) {}

    List<Change> of(Model model, long id) {
        Map<String, List<String>> q = new LinkedHashMap<>();
        q.put("changed_object_type", List.of(model.contentType()));
        q.put("changed_object_id", List.of(String.valueOf(id)));
        return read(q, ROWS);
    }

    List<Change> latest(long rows) {
        return read(Map.of(), rows);
    }

    private List<Change> read(Map<String, List<String>> query, long rows) {
        Optional<Model> changes = registry.byContentType("core.objectchange");
        if (changes.isEmpty() || !access.allows(changes.get(), Access.Action.VIEW)) {
            return List.of();
        }
        ListQuery.Page page = service.list(
                changes.get(),
                query,
                Renderer.Options.full(request.baseUrl()),
                new ListQuery.PageRequest(rows, 0, null));
        List<Change> out = new ArrayList<>();
        for (ObjectNode c : page.results()) {
            out.add(new Change(
                    c.path("time").asText(),
                    c.path("user_name").asText(),
                    c.path("action").path("label").asText(c.path("action").asText()),
                    c.path("object_repr").asText(),
                    objectHref(c),
                    c.path("message").asText(""),
                    differences(c.get("prechange_data"), c.get("postchange_data"))));
        }
        return out;
    }

    /** The changed object's page, unless it was deleted since. */
    private String objectHref(ObjectNode c) {
        JsonNode changed = c.get("changed_object");
        if (changed != null && changed.isObject() && changed.has("display_url")) {
            return Cell.relative(changed.get("display_url"));
        }
        return null;
    }

    /** The fields whose values differ between the snapshots before and after the change. */
    static List<Difference> differences(JsonNode before, JsonNode after) {
        if (before == null || after == null || !before.isObject() || !after.isObject()) {
            return List.of(); // a creation or a deletion: the object's page shows its fields
        }
        Set<String> names = new LinkedHashSet<>();
        before.fieldNames().forEachRemaining(names::add);
        after.fieldNames().forEachRemaining(names::add);
        List<Difference> out = new ArrayList<>();
        for (String n : names) {
            if (n.equals("last_updated")) {
                continue;
            }
            JsonNode b = before.get(n);
            JsonNode a = after.get(n);
            if (b == null || a == null || !b.equals(a)) {
                out.add(new Difference(n, show(b), show(a)));
            }
        }
        return out;
    }

    private static String show(JsonNode v) {
        return v == null || v.isNull() ? "" : v.isValueNode() ? v.asText() : v.toString();
    }
}
