package org.sourceoftruth.records.dcim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.JsonSchemaRules;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * Module type profiles' JSON schemas and the module type attributes they govern (NetBox 4.3+),
 * checked by {@link JsonSchemaRules}.
 */
final class ModuleAttributes {
    private ModuleAttributes() {}

    /** NetBox's validate_schema on a profile's schema (skipped when unset or empty, as Django skips validators). */
    static void profileSchema(Row row, Map<String, List<String>> errors) {
        JsonSchemaRules.schemaField(row, errors);
    }

    /** ModuleType.clean: the attributes validate against the profile's schema ("Invalid schema: ..."). */
    static void moduleTypeAttributes(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long profile = row.longValue("profile_id");
        if (profile == null) {
            return;
        }
        List<Row> found = db.query("select schema from dcim_moduletypeprofile where id = ?", profile);
        Object schema = found.isEmpty() ? null : found.get(0).get("schema");
        if (!(schema instanceof JsonNode node)) {
            return;
        }
        Object data = row.get("attribute_data");
        String problem = JsonSchemaRules.violation(node, data instanceof JsonNode d ? d : null);
        if (problem != null) {
            errors.computeIfAbsent("attributes", k -> new ArrayList<>()).add("Invalid schema: " + problem);
        }
    }
}
