package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Row;

/**
 * What the engine does with a field of one {@link Kind}: read it from a write request (with DRF's
 * messages), render it, put it in a change-log snapshot, parse filter and constraint values, the
 * list-filter lookups it takes, its OPTIONS type and its OpenAPI schema. One final class per kind
 * (or per family of kinds that behave alike); {@link FieldTypes#of} maps a kind to it.
 */
public sealed interface FieldType
        permits TextValuedType,
                OrderedType,
                BooleanType,
                JsonType,
                ListValuedType,
                ForeignKeyType,
                ManyToManyType,
                TagsType,
                CustomFieldsType,
                CountType,
                ComputedType,
                NetworkType,
                GenericForeignKeyType,
                ImageType {

    JsonNodeFactory NODES = JsonNodeFactory.instance;

    // ----------------------------------------------------------------- writes

    /** A value of a write request as the column value; {@link InvalidValue} with DRF's message when it does not fit. */
    default Object read(Field f, JsonNode v) {
        throw new InvalidValue("Unsupported field.");
    }

    // ---------------------------------------------------------------- reading

    /** A non-null column value as JSON. */
    default JsonNode render(Field f, Object v) {
        return NODES.textNode(v.toString());
    }

    /**
     * Adds the field to a change-log snapshot of {@code row}; {@code relatedIds} gives the ids a
     * many-to-many or tag field links the row to.
     */
    default void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        Object v = row.get(f.column());
        snap.set(f.name, f.isWriteOnly() || v == null ? NODES.nullNode() : render(f, v));
    }

    // ---------------------------------------------------------------- filters

    /**
     * The list filters a field of this kind answers: by default, a filterable field compared by
     * its value under its own name, with the kind's lookups.
     */
    default List<FieldFilter> filters(Field f) {
        return f.isFilterable() && filtersByValue()
                ? List.of(FieldFilter.column(f.name, f, f.filterExpression(), f.kind, f, f.choices()))
                : List.of();
    }

    /** NetBox's filter lookups on a column of this kind besides the plain filter, by suffix. */
    default List<String> filterLookups() {
        return List.of();
    }

    /** Whether a column of this kind is filtered by its value ({@code name=value}). */
    default boolean filtersByValue() {
        return false;
    }

    /** Text columns: empty means null or '' and text lookups need no cast. */
    default boolean isText() {
        return false;
    }

    /** List columns: exact compares whole lists, contains is a superset test. */
    default boolean isList() {
        return false;
    }

    /** One value of a list filter (query-string text), {@link InvalidValue} in NetBox's words. */
    default Object parse(String raw, Field f) {
        return raw;
    }

    /** One value of a permission constraint (JSON); text goes through {@link #parse(String, Field)}. */
    default Object parse(JsonNode v, Field f) {
        return parse(v.asText(), f);
    }

    /** A parsed value as the JDBC parameter compared with the column. */
    default Object bind(Object parsed) {
        return parsed;
    }

    // --------------------------------------------------------------- metadata

    /** DRF's SimpleMetadata type in an OPTIONS answer. */
    default String optionsType() {
        return "field";
    }

    /** The JSON type of a plain value of the kind in the OpenAPI document. */
    Schema schema();

    /** The field in a response representation (before read-only and nullable marks). */
    default Schema readSchema(Field f, SchemaNames names) {
        return schema();
    }

    /** The field in a create/update body (before write-only and nullable marks). */
    default Schema writeSchema(Field f, SchemaNames names) {
        return schema();
    }
}
