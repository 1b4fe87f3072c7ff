package org.sourceoftruth.records.kind;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Row;

import java.util.function.Function;

/** COUNT: a read-only count of related rows; not in snapshots. Filtered as a number (FilterCompiler). */
public final class CountType implements FieldType {

    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        // derived from other rows: their own snapshots record the change
    }

    @Override
    public Schema schema() {
        return FieldTypes.INTEGER.schema();
    }

    @Override
    public Schema readSchema(Field f, SchemaNames names) {
        return FieldTypes.INTEGER.schema().format("int64");
    }
}
