package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;

/**
 * extras: custom scripts (NetBox 4.4's Script model). In NetBox a script is a Python class found
 * in a module uploaded or synchronised from a data source, and runs in an RQ worker. This service
 * runs no Python and has no worker: the list holds the scripts that exist in its tables (none
 * unless one was written there, no API creates them), with NetBox's shape, and running one is
 * refused ({@link ScriptRun}). {@code description} and {@code vars} come from the script's code in
 * NetBox; here they are what the row holds. {@code result} is the script's latest job, which no
 * run ever creates here.
 */
@ApplicationScoped
public class ScriptModels implements ModelDefinition {
    /** A script's latest job (NetBox: Script.result, the newest Job pointing at it). */
    static final String LATEST_JOB = "select j.id from core_job j where j.object_type = 'extras.script'"
            + " and j.object_id = t.id order by j.created desc, j.id desc limit 1";

    @Override
    public List<Model> models() {
        Model script = Model.of("extras", "scripts", "script")
                .fields(
                        integer("module").column("module_id").readOnly().noFilter(),
                        str("name").readOnly(),
                        str("description").readOnly().nullable(),
                        json("vars").readOnly().nullable(),
                        fk("result", "core.job")
                                .readOnly()
                                .nullable()
                                .readAs(LATEST_JOB)
                                .noFilter()
                                .noOrder(),
                        bool("is_executable").readOnly().dflt(true))
                .readOnlyApi()
                .eventRules(true) // a script's jobs start and end events
                .filter(ExtraFilters.each("module_id", Kind.INTEGER, "{t}.module_id = ?"))
                .display(r -> r.str("name"))
                .ordering("t.module_id", "t.name")
                .search("t.name", "t.description");
        return List.of(script);
    }
}
