package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Row;

/** COUNT: a read-only count of related rows; not in snapshots. Filtered as a number (FilterCompiler). */
public final class CountType implements FieldType {

    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        // derived from other rows: their own snapshots record the change
    }

    /** NetBox's counter caches (interface_count, ...) are model fields, hence number filters. */
    @Override
    public List<FieldFilter> filters(Field f) {
        return List.of(FieldFilter.column(f.name, f, expression(f), Kind.INTEGER, null, null));
    }

    /** Where the count is: the owner's counter column or a count subquery (alias t). */
    public static String expression(Field f) {
        return f.counterColumn() != null
                ? "t." + f.counterColumn()
                : "(select count(*) from " + f.countTable() + " c where c." + f.countColumn() + " = t.id"
                        + (f.countWhere() == null ? "" : " and (" + f.countWhere() + ")") + ")";
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
