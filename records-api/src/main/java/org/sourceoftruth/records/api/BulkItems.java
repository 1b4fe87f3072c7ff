package org.sourceoftruth.records.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.engine.write.ReferenceResolver;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.ErrorMapper;

/** The items of a bulk request body (a JSON list), with DRF's errors for a body of the wrong shape. */
final class BulkItems {
    private BulkItems() {}

    /** The elements of a JSON array. */
    static List<JsonNode> of(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items;
    }

    /** The items of a bulk update or delete: a non-empty list. */
    static List<JsonNode> required(JsonNode json) {
        if (!json.isArray()) {
            throw ApiException.list("Expected a list of objects, but got " + ErrorMapper.jsonType(json) + ".");
        }
        if (json.isEmpty()) {
            throw ApiException.list("Expected a list of items but received an empty list.");
        }
        return of(json);
    }

    /** Bulk items must each carry an integer id; errors come back as a list aligned with the input. */
    static List<Long> ids(List<JsonNode> items) {
        List<Long> ids = new ArrayList<>();
        ArrayNode errors = Json.MAPPER.createArrayNode();
        boolean bad = false;
        Set<Long> seen = new HashSet<>();
        for (JsonNode item : items) {
            ObjectNode err = Json.MAPPER.createObjectNode();
            JsonNode id = item.isObject() ? item.get("id") : null;
            java.math.BigInteger given = ReferenceResolver.givenId(id);
            if (!item.isObject()) {
                err.putArray("non_field_errors")
                        .add("Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(item) + ".");
            } else if (id == null || id.isNull()) {
                err.putArray("id").add("This field is required.");
            } else if (given == null) {
                err.putArray("id").add("A valid integer is required.");
            } else if (!ReferenceResolver.fitsId(given)) {
                // beyond bigint: no object has it
                err.putArray("id").add("Object with id " + given + " does not exist.");
            } else if (!seen.add(given.longValue())) {
                err.putArray("id")
                        .add("Each object may be specified only once; ID " + given + " is listed more than once.");
            } else {
                ids.add(given.longValue());
            }
            bad |= !err.isEmpty();
            errors.add(err);
        }
        if (bad) {
            throw new ApiException(400, errors);
        }
        return ids;
    }
}
