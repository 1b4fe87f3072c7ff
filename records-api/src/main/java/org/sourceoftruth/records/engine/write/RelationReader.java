package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.web.ErrorMapper;

/**
 * Reads the relation-valued fields of a write request: many-to-many ids, tags (by id, attributes
 * or slug) and content-type/id pairs, each checked to name existing objects.
 */
@ApplicationScoped
public class RelationReader {
    @Inject
    ModelRegistry registry;

    @Inject
    ReferenceResolver references;

    List<Long> readM2m(Db db, Field f, JsonNode v) {
        if (!v.isArray()) {
            throw new PayloadReader.FieldError(
                    "Expected a list of items but got type \"" + ErrorMapper.jsonType(v) + "\".");
        }
        Model target = registry.require(f.target());
        List<Long> ids = new ArrayList<>();
        for (JsonNode item : v) {
            if (item.isObject() && ReferenceResolver.givenId(item.get("id")) != null) {
                item = item.get("id");
            }
            BigInteger id = ReferenceResolver.givenId(item);
            if (id == null) {
                throw new PayloadReader.FieldError(
                        "Incorrect type. Expected pk value, received " + ErrorMapper.jsonType(item) + ".");
            }
            if (!ReferenceResolver.fitsId(id)) {
                throw new PayloadReader.FieldError("Invalid pk \"" + id + "\" - object does not exist.");
            }
            ids.add(id.longValue());
        }
        if (!ids.isEmpty()) {
            Set<Long> found = new HashSet<>();
            db.query("select id from " + target.table() + " where id = any(?)", new Db.SqlArray("bigint", ids))
                    .forEach(r -> found.add(r.id()));
            for (Long id : ids) {
                if (!found.contains(id)) {
                    throw new PayloadReader.FieldError("Invalid pk \"" + id + "\" - object does not exist.");
                }
            }
        }
        return ids.stream().distinct().toList();
    }

    List<Long> readTags(Db db, Field f, JsonNode v) {
        if (!v.isArray()) {
            throw new PayloadReader.FieldError(
                    "Expected a list of items but got type \"" + ErrorMapper.jsonType(v) + "\".");
        }
        Model tag = registry.require("extras.tag");
        List<Long> ids = new ArrayList<>();
        for (JsonNode item : v) {
            if (f.isTagSlugs()) {
                // DRF's SlugRelatedField: each item is a tag slug.
                List<Row> found = item.isTextual()
                        ? db.query("select id from " + SystemTables.EXTRAS_TAG + " where slug = ?", item.asText())
                        : List.of();
                if (found.isEmpty()) {
                    throw new PayloadReader.FieldError(
                            item.isTextual()
                                    ? "Object with slug=" + item.asText() + " does not exist."
                                    : "Invalid value.");
                }
                ids.add(found.get(0).id());
                continue;
            }
            ids.add(references.resolve(db, tag, item));
        }
        return ids.stream().distinct().toList();
    }

    /** A content-type/id pair: both columns are written together and must name one object. */
    void readGeneric(
            Db db, Field f, JsonNode body, Row existing, boolean whole, Row cols, Map<String, List<String>> errors) {
        JsonNode type = body.get(f.genericTypeColumn());
        JsonNode id = body.get(f.genericIdColumn());
        if (whole && f.isRequired() && (type == null || id == null && !f.isNullable())) {
            // a required pair (an event rule's action object) must name its content type; the id
            // may stay null where the model allows it (nullable), as in NetBox
            if (type == null) {
                PayloadReader.add(errors, f.genericTypeColumn(), "This field is required.");
            }
            if (id == null && !f.isNullable()) {
                PayloadReader.add(errors, f.genericIdColumn(), "This field is required.");
            }
            return;
        }
        if (type == null && id == null) {
            return;
        }
        String newType = type != null
                ? (type.isNull() ? null : type.asText())
                : existing == null ? null : existing.str(f.genericTypeColumn());
        JsonNode idNode = id != null
                ? id
                : existing == null
                        ? null
                        : (existing.get(f.genericIdColumn()) == null
                                ? null
                                : LongNode.valueOf(existing.longValue(f.genericIdColumn())));
        // a type the relation allows but this service does not serve yet names no object either
        if (newType != null
                && (!f.genericTypes().contains(newType)
                        || registry.byContentType(newType).isEmpty())) {
            PayloadReader.add(errors, f.genericTypeColumn(), "Invalid content type: " + newType);
            return;
        }
        boolean idNull = idNode == null || idNode.isNull();
        if (newType == null && !idNull) {
            PayloadReader.add(errors, f.genericTypeColumn(), "This field cannot be null.");
            return;
        }
        if (newType != null && idNull) {
            PayloadReader.add(errors, f.genericIdColumn(), "This field cannot be null.");
            return;
        }
        if (newType == null && !f.isNullable()) {
            PayloadReader.add(errors, f.genericTypeColumn(), "This field may not be null.");
            return;
        }
        if (newType == null) {
            cols.put(f.genericTypeColumn(), null);
            cols.put(f.genericIdColumn(), null);
            return;
        }
        BigInteger givenId = ReferenceResolver.givenId(idNode);
        if (givenId == null) {
            PayloadReader.add(errors, f.genericIdColumn(), "A valid integer is required.");
            return;
        }
        if (!ReferenceResolver.fitsId(givenId)) {
            // the column is NetBox's PositiveBigIntegerField: DRF's max_value message
            PayloadReader.add(
                    errors, f.genericIdColumn(), "Ensure this value is less than or equal to " + Long.MAX_VALUE + ".");
            return;
        }
        Model target = registry.require(newType);
        if (!ReferenceResolver.exists(db, target.table(), givenId.longValue())) {
            PayloadReader.add(
                    errors, f.genericIdColumn(), "Related object not found using the provided value: " + givenId + ".");
            return;
        }
        cols.put(f.genericTypeColumn(), newType);
        cols.put(f.genericIdColumn(), givenId.longValue());
    }
}
