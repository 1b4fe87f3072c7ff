package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

/**
 * extras: export templates (a list's objects rendered with {@code ?export=<name>}, see
 * {@link ExportTemplates}) and config templates (a device's or VM's configuration, see
 * {@link ConfigRendering}). Both are NetBox's RenderTemplateMixin: template code, the
 * environment parameters and how the result is served.
 */
@ApplicationScoped
public class TemplateModels implements ModelDefinition {
    @Inject
    Instance<ModelRegistry> registry;

    @Inject
    SyncedData syncedData;

    @Override
    public List<Model> models() {
        Model exportTemplate = Model.of("extras", "export-templates", "export template")
                .fields(
                        stringList("object_types").required().objectTypeIds(),
                        str("name").required().max(100),
                        str("description").max(200))
                .fields(renderFields())
                .fields(SyncedData.fields(false))
                .timestamps()
                .hook(syncedData.hook("template_code", SyncedData.Content.TEXT))
                .validator((row, errors) -> ExtrasModels.knownObjectTypes(registry.get(), row, errors))
                .validator(TemplateModels::nameIsNotReserved)
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description");

        Model configTemplate = Model.of("extras", "config-templates", "config template")
                .fields(str("name").required().max(100), str("description").max(200))
                .fields(renderFields())
                // kept for NetBox's clients; a failed render answers the same either way here
                // (NetBox adds a Python traceback, which this service has none of)
                .fields(bool("debug")
                        .dflt(false)
                        .help("Enable verbose error output when rendering this template. Not recommended for"
                                + " production use."))
                .fields(SyncedData.fields(true))
                .fields(tags())
                .timestamps()
                .hook(syncedData.hook("template_code", SyncedData.Content.TEXT))
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description");
        return List.of(exportTemplate, configTemplate);
    }

    /** RenderTemplateMixin's fields. */
    private static Field[] renderFields() {
        return new Field[] {
            json("environment_params")
                    .nullable()
                    .dflt(Map.of())
                    .help("Any additional parameters to pass when constructing the Jinja environment"),
            str("template_code").required().help("Jinja template code."),
            str("mime_type").max(50).help("Defaults to <code>text/plain; charset=utf-8</code>"),
            str("file_name").max(200).help("Filename to give to the rendered export file"),
            str("file_extension").max(15).help("Extension to append to the rendered filename"),
            bool("as_attachment").dflt(true).help("Download file as attachment")
        };
    }

    private static void nameIsNotReserved(Row row, Map<String, List<String>> errors) {
        String name = row.str("name");
        if (name != null && name.equalsIgnoreCase("table")) {
            errors.computeIfAbsent("name", k -> new ArrayList<>())
                    .add("\"" + name + "\" is a reserved name. Please choose a different name.");
        }
    }
}
