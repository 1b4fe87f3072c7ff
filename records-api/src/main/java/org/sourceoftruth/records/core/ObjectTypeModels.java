package org.sourceoftruth.records.core;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.SystemTables;

/**
 * core: object types (NetBox's ObjectType, Django's content types with NetBox's metadata), one
 * per model this service declares, read-only; served at core/object-types and, for clients
 * written for NetBox 4.4, at extras/object-types (NetBox 4.5 removed that path). The rows are written at start-up by {@link ObjectTypeCatalog}.
 */
@ApplicationScoped
public class ObjectTypeModels implements ModelDefinition {
    @Override
    public List<Model> models() {
        Model objectType = Model.of(
                        "core", "object-types", "core.objecttype", SystemTables.CORE_OBJECTTYPE, "object type")
                .noDisplayUrl()
                .fields(
                        str("app_label").readOnly(),
                        str("app_name").readOnly(),
                        str("model").readOnly(),
                        str("model_name").readOnly(),
                        str("model_name_plural").readOnly(),
                        bool("public").readOnly(),
                        stringList("features").readOnly(),
                        bool("is_plugin_model").readOnly(),
                        str("rest_api_endpoint").readOnly(),
                        str("description").readOnly())
                .readOnlyApi()
                .alsoAt("extras", "object-types")
                .display(r -> r.str("app_name") + " | " + r.str("model_name"))
                .ordering("t.app_label", "t.model")
                .search("t.app_label", "t.model", "t.model_name", "t.description")
                .brief("app_label", "model");
        return List.of(objectType);
    }
}
