package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.web.RequestContext;

/**
 * extras: saved filters, named sets of list filter parameters. Any list applies them with
 * {@code ?filter=<slug>} or {@code ?filter_id=<id>} (the engine's SavedFilterParameters).
 */
@ApplicationScoped
public class SavedFilterModels implements ModelDefinition {
    @Inject
    Instance<ModelRegistry> registry;

    @Inject
    RequestContext request;

    @Override
    public List<Model> models() {
        Model savedFilter = Model.of(
                        "extras",
                        "saved-filters",
                        "extras.savedfilter",
                        SystemTables.EXTRAS_SAVEDFILTER,
                        "saved filter")
                .fields(
                        stringList("object_types").required().objectTypeIds(),
                        str("name").required().max(100).unique(),
                        slug("slug").unique(),
                        str("description").max(200),
                        fk("user", "users.user").renderedAsId(),
                        integer("weight").range(0, 32767).dflt(100),
                        bool("enabled").dflt(true),
                        bool("shared").dflt(true),
                        json("parameters").required())
                .timestamps()
                .validator((row, errors) -> ExtrasModels.knownObjectTypes(registry.get(), row, errors))
                .validator(SavedFilterModels::parametersAreAnObject)
                .relationFilter("user", "user", "username")
                .filter(new ExtraFilter(
                        "usable",
                        Kind.BOOLEAN,
                        (alias, values) -> usable(alias, Boolean.TRUE.equals(values.get(values.size() - 1)))))
                .ordering("t.weight", "t.name")
                .search("t.name", "t.slug", "t.description")
                .brief("name", "slug", "description");
        return List.of(savedFilter);
    }

    /**
     * NetBox's {@code usable}: enabled and shared, or the caller's own; {@code false} is the rest.
     * Anonymous callers own none.
     */
    private ExtraFilter.Sql usable(String alias, boolean wanted) {
        RequestContext.Caller caller = request.caller();
        String own = caller == null ? "false" : alias + ".user_id = " + caller.userId();
        String sql = alias + ".enabled and (" + alias + ".shared or coalesce(" + own + ", false))";
        return ExtraFilter.Sql.of(wanted ? sql : "not (" + sql + ")");
    }

    private static void parametersAreAnObject(Row row, Map<String, List<String>> errors) {
        Object params = row.get("parameters");
        if (params instanceof JsonNode node && !node.isObject()) {
            errors.computeIfAbsent("parameters", k -> new ArrayList<>())
                    .add("Filter parameters must be stored as a dictionary of keyword arguments.");
        }
    }
}
