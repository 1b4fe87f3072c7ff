package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Row;

/** CUSTOM_FIELDS: the jsonb column custom_field_data, rendered with every defined custom field. */
public final class CustomFieldsType implements FieldType {

    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        Object v = row.get(f.column());
        snap.set(f.name, v == null ? NODES.objectNode() : (JsonNode) v);
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.OBJECT).additionalPropertiesSchema(Schemas.any());
    }
}
