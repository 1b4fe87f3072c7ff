package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Row;

/**
 * GENERIC_FK: a content type + id pair (assigned_object_type/assigned_object_id), written as the
 * pair, rendered as the pair and the related object. Its columns filter as text and as a number.
 */
public final class GenericForeignKeyType implements FieldType {

    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        String type = row.str(f.genericTypeColumn());
        Long id = row.longValue(f.genericIdColumn());
        snap.set(f.genericTypeColumn(), type == null ? NODES.nullNode() : NODES.textNode(type));
        snap.set(f.genericIdColumn(), id == null ? NODES.nullNode() : NODES.numberNode(id));
    }

    /** The pair's columns filter as text and as a number ({@code assigned_object_type}, {@code assigned_object_id}). */
    @Override
    public List<FieldFilter> filters(Field f) {
        return List.of(
                FieldFilter.column(f.genericTypeColumn(), f, "t." + f.genericTypeColumn(), Kind.STRING, null, null),
                FieldFilter.column(f.genericIdColumn(), f, "t." + f.genericIdColumn(), Kind.INTEGER, null, null));
    }

    /** The related object, any of several models. */
    @Override
    public Schema schema() {
        return Schemas.any();
    }
}
