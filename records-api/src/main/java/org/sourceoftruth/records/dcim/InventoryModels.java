package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.model.Declarations.*;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;

/** dcim inventory: inventory item roles (the items and their templates are device components). */
@ApplicationScoped
public class InventoryModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model role = organizational("dcim", "inventory-item-roles", "inventory item role")
                .fields(
                        str("color").max(6).dflt("9e9e9e").pattern(COLOR, COLOR_MESSAGE),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("inventoryitem_count", "dcim_inventoryitem", "role_id"))
                .brief("inventoryitem_count");
        return List.of(role);
    }
}
