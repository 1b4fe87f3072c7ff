package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Row;

/**
 * FK: a bigint column referencing another model, written as an id or an attribute dict (resolved
 * by PayloadReader), rendered as the target's nested form, compared by id.
 */
public final class ForeignKeyType implements FieldType {

    @Override
    public void snapshot(Field f, Row row, ObjectNode snap, Function<Field, ArrayNode> relatedIds) {
        Long v = row.longValue(f.column());
        snap.set(f.name, v == null ? NODES.nullNode() : NODES.numberNode(v));
    }

    /** By the target's slug (or name) under the field's name, by id under its column; both negate with {@code __n}. */
    @Override
    public List<FieldFilter> filters(Field f) {
        if (!f.isFilterable()) {
            return List.of();
        }
        return List.of(
                new FieldFilter(
                        f.name,
                        f,
                        Kind.STRING,
                        null,
                        Lookup.NEGATION_ONLY,
                        f.target(),
                        (db, relations, lookup, values) ->
                                lookup == null || lookup.equals("n") ? relations.byKey(db, f, lookup, values) : null),
                new FieldFilter(
                        f.column(),
                        f,
                        Kind.INTEGER,
                        null,
                        Lookup.NEGATION_ONLY,
                        null,
                        (db, relations, lookup, values) ->
                                lookup == null || lookup.equals("n") ? relations.byId(db, f, lookup, values) : null));
    }

    @Override
    public Object parse(String raw, Field f) {
        return IntegerType.parseWhole(raw);
    }

    @Override
    public Object parse(JsonNode v, Field f) {
        return FieldTypes.INTEGER.parse(v, f);
    }

    @Override
    public String optionsType() {
        return "nested object";
    }

    /** What a relation is keyed by: its id. */
    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.STRING);
    }

    @Override
    public Schema readSchema(Field f, SchemaNames names) {
        return f.isRenderedAsId() ? FieldTypes.INTEGER.schema() : names.brief(f.target());
    }

    /** A related object: its id, or attributes that identify exactly one object. */
    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        List<Schema> either = new ArrayList<>();
        either.add(FieldTypes.INTEGER.schema());
        either.add(names.briefRequest(f.target()));
        return Schemas.any().oneOf(either);
    }
}
