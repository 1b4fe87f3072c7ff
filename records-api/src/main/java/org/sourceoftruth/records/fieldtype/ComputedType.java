package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Row;

/** COMPUTED: a read-only value the declaration computes from the row; not in snapshots. */
public final class ComputedType implements FieldType {

    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        // not stored: nothing to record
    }

    /** A field of a model not built yet filters as NetBox's filter over its unset value ({@link Field#filtersAs}). */
    @Override
    public List<FieldFilter> filters(Field f) {
        Kind kind = f.unsetFilterKind();
        if (kind == null) {
            return List.of();
        }
        return List.of(
                FieldFilter.column(f.name, f, f.unsetSql(), kind == Kind.COUNT ? Kind.INTEGER : kind, f, f.choices()));
    }

    @Override
    public Schema schema() {
        return Schemas.any();
    }

    /** NetBox's fixed url/display fields, else what the declaration says it renders. */
    @Override
    public Schema readSchema(Field f, SchemaNames names) {
        if (f.name.equals("url") || f.name.equals("display_url")) {
            return FieldTypes.TEXT.schema().format("uri");
        }
        Kind renders = f.renders();
        if (renders == null) {
            return Schemas.any(); // any JSON value, null included
        }
        if (renders == Kind.CHOICE) {
            return f.renderedChoices() != null ? Schemas.choiceObject(f.renderedChoices()) : FieldTypes.TEXT.schema();
        }
        return FieldTypes.of(renders).schema();
    }
}
