package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;

/** JSON: a jsonb (or json) column holding any JSON value; not a filter. */
public final class JsonType implements FieldType {

    @Override
    public Object read(Field f, JsonNode v) {
        if (!finite(v)) {
            // a number literal beyond double's range (1e999) reads as infinite, which JSON cannot hold
            throw new InvalidValue("Value must be valid JSON.");
        }
        return v;
    }

    private static boolean finite(JsonNode v) {
        if (v.isDouble() || v.isFloat()) {
            return Double.isFinite(v.doubleValue());
        }
        for (JsonNode child : v) {
            if (!finite(child)) {
                return false;
            }
        }
        return true;
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
