package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;

/**
 * dcim cable bundles (NetBox 4.6's dcim.CableBundle): a named, logical grouping of cables. A
 * cable names its bundle ({@code dcim_cable.bundle_id}); deleting a bundle clears it on its
 * cables (SET_NULL), as NetBox does.
 */
@ApplicationScoped
public class CableBundleModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model bundle = Model.of("dcim", "cable-bundles", "cable bundle")
                .fields(
                        str("name").required().max(100).unique(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("cable_count", "dcim_cable", "bundle_id"))
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "description");
        return List.of(bundle);
    }
}
