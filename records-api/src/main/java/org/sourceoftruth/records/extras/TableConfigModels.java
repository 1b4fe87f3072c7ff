package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

/**
 * extras: table configs (NetBox 4.4), saved column sets of a UI table, kept for clients that
 * store and share them; the user is rendered as a plain id, as NetBox's serializer does.
 */
@ApplicationScoped
public class TableConfigModels implements ModelDefinition {
    /** The registry is looked up lazily: it is built from this bean, among others. */
    @Inject
    Instance<ModelRegistry> registry;

    @Override
    public List<Model> models() {
        Model tableConfig = Model.of("extras", "table-configs", "table config")
                .fields(
                        str("object_type").required().max(100).objectTypeIds(),
                        str("table").required().max(100),
                        str("name").required().max(100),
                        str("description").max(200),
                        fk("user", "users.user").renderedAsId().cascade(),
                        integer("weight").range(0, 32767).dflt(1000),
                        bool("enabled").dflt(true),
                        bool("shared").dflt(true),
                        stringList("columns").required(),
                        stringList("ordering").nullable().dflt(null))
                .timestamps()
                .validator(this::tableConfigRules)
                .relationFilter("user", "user", "username")
                // NetBox's "usable": enabled, and shared with everyone
                .filter(ExtraFilters.bool("usable", "{t}.enabled and {t}.shared", "not ({t}.enabled and {t}.shared)"))
                .ordering("t.weight", "t.name")
                .search("t.name", "t.description", "t.table")
                .brief("name", "description", "object_type", "table");
        return List.of(tableConfig);
    }

    private void tableConfigRules(Row row, Map<String, List<String>> errors) {
        String type = row.str("object_type");
        if (type != null && registry.get().byContentType(type).isEmpty()) {
            errors.computeIfAbsent("object_type", k -> new ArrayList<>()).add("Invalid content type: " + type);
        }
        if (row.get("columns") instanceof List<?> columns && columns.isEmpty()) {
            errors.computeIfAbsent("columns", k -> new ArrayList<>()).add("This list may not be empty.");
        }
    }
}
