package org.sourceoftruth.records.kind;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.web.ErrorMapper;

import java.util.ArrayList;
import java.util.List;

/**
 * STRING_LIST: a text[] column of plain strings. Its list filters (an element equals, or with a
 * lookup on the singular name, some element matches) are FilterCompiler's array filters.
 */
public final class StringListType implements FieldType {

    @Override
    public Object read(Field f, JsonNode v) {
        if (!v.isArray()) {
            throw new InvalidValue("Expected a list of items but got type \"" + ErrorMapper.jsonType(v) + "\".");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : v) {
            if (!item.isTextual()) {
                throw new InvalidValue("Not a valid string.");
            }
            out.add(item.asText());
        }
        return out;
    }

    @Override
    public JsonNode render(Field f, Object v) {
        return Json.MAPPER.valueToTree(v);
    }

    @Override
    public boolean isList() {
        return true;
    }

    @Override
    public String optionsType() {
        return "list";
    }

    @Override
    public Schema schema() {
        return Schemas.array(FieldTypes.TEXT.schema());
    }
}
