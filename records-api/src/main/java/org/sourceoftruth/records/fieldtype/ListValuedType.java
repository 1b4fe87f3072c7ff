package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.web.ErrorMapper;

/**
 * Kinds stored as a PostgreSQL array of plain values (text[], integer[]): written as a JSON list
 * whose items each kind reads, rendered as that list, "list" in OPTIONS.
 */
public abstract sealed class ListValuedType implements FieldType permits StringListType, IntegerListType {

    @Override
    public final Object read(Field f, JsonNode v) {
        if (!v.isArray()) {
            throw new InvalidValue("Expected a list of items but got type \"" + ErrorMapper.jsonType(v) + "\".");
        }
        List<Object> out = new ArrayList<>(v.size());
        for (JsonNode item : v) {
            out.add(item(f, item));
        }
        return checked(out);
    }

    /** One item of the list as its element value; {@link InvalidValue} in DRF's words. */
    abstract Object item(Field f, JsonNode item);

    /** The whole list once its items are read (e.g. refused when empty). */
    Object checked(List<Object> items) {
        return items;
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
}
