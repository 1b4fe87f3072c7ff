package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Row;

/** M2M: links through a join table, written as a list of ids, rendered as the targets' nested forms. */
public final class ManyToManyType implements FieldType {

    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        ArrayNode ids = relatedIds.apply(f);
        snap.set(f.name, ids == null ? NODES.arrayNode() : ids);
    }

    @Override
    public String optionsType() {
        return "list";
    }

    @Override
    public Schema schema() {
        return Schemas.array(Schemas.any());
    }

    @Override
    public Schema readSchema(Field f, SchemaNames names) {
        return Schemas.array(names.brief(f.target()));
    }

    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        return Schemas.array(FieldTypes.INTEGER.schema());
    }
}
