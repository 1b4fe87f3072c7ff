package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;

/**
 * INTEGER_LIST: an integer[] column (NetBox's ArrayField of small integers, e.g. a rack
 * reservation's units). Each element is checked against the field's range. Its filter, on the
 * singular name ({@code unit=7}), matches lists holding the value; {@code unit__gt=7} lists with
 * an element above it, {@code unit__n=7} lists without it.
 */
public final class IntegerListType extends ListValuedType {

    @Override
    Object item(Field f, JsonNode item) {
        return ((Number) FieldTypes.INTEGER.read(f, item)).intValue();
    }

    @Override
    Object checked(List<Object> items) {
        if (items.isEmpty()) {
            throw new InvalidValue("This list may not be empty.");
        }
        return items;
    }

    @Override
    public List<FieldFilter> filters(Field f) {
        if (!f.isFilterable() || !f.name.endsWith("s")) {
            return List.of();
        }
        return List.of(new FieldFilter(
                f.name.substring(0, f.name.length() - 1),
                f,
                Kind.INTEGER,
                null,
                Lookup.NUMBER_FILTERS,
                null,
                (db, relations, lookup, values) -> element(f.column(), lookup, values)));
    }

    /** Some element equals / compares with one of the values; {@code n}: no element equals any. */
    private static ExtraFilter.Sql element(String column, String lookup, List<String> values) {
        if ("empty".equals(lookup)) {
            boolean empty = values.get(values.size() - 1)
                    .trim()
                    .toLowerCase(java.util.Locale.ROOT)
                    .matches("true|1|yes|on");
            return ExtraFilter.Sql.of(
                    empty ? "cardinality(t." + column + ") = 0" : "cardinality(t." + column + ") > 0");
        }
        String op = lookup == null
                ? "="
                : switch (lookup) {
                    case "n" -> "=";
                    case "lt" -> ">";
                    case "lte" -> ">=";
                    case "gt" -> "<";
                    case "gte" -> "<=";
                    default -> null;
                };
        if (op == null) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (String raw : values) {
            // "? op any(column)": the value compared with some element (operator mirrored)
            parts.add("? " + op + " any(t." + column + ")");
            params.add(IntegerType.parseWhole(raw));
        }
        String any = String.join(" or ", parts);
        return new ExtraFilter.Sql("n".equals(lookup) ? "not (" + any + ")" : any, params);
    }

    @Override
    public Schema schema() {
        return Schemas.array(FieldTypes.INTEGER.schema());
    }

    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        return Schemas.array(Schemas.range(FieldTypes.INTEGER.schema(), f));
    }
}
