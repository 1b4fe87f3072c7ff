package org.sourceoftruth.records.kind;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;

/** JSON: a jsonb (or json) column holding any JSON value; not a filter. */
public final class JsonType implements FieldType {

    @Override
    public Object read(Field f, JsonNode v) {
        return v;
    }

    @Override
    public JsonNode render(Field f, Object v) {
        return (JsonNode) v;
    }

    @Override
    public Schema schema() {
        return Schemas.any();
    }
}
