package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Row;

/** TAGS: tags through extras_taggeditem, written as ids or attribute dicts (or slugs), rendered as NestedTags. */
public final class TagsType implements FieldType {

    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        ArrayNode ids = relatedIds.apply(f);
        snap.set("tags", ids == null ? NODES.arrayNode() : ids);
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
        return f.isTagSlugs() ? Schemas.array(FieldTypes.TEXT.schema()) : Schemas.array(names.nestedTag());
    }

    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        return f.isTagSlugs() ? Schemas.array(FieldTypes.TEXT.schema()) : Schemas.array(names.nestedTagRequest());
    }
}
