package org.sourceoftruth.records.api.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.fieldtype.FieldType;
import org.sourceoftruth.records.fieldtype.FieldTypes;
import org.sourceoftruth.records.fieldtype.SchemaNames;
import org.sourceoftruth.records.fieldtype.Schemas;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;

/**
 * Field schemas of the OpenAPI document: a field as rendered in a response, as written in a
 * request, and one value of a filter parameter. Each kind's {@link FieldType} gives its shape
 * (NetBox's drf-spectacular document: a choice is {@code {value, label}} on read and its bare
 * value on write, a relation is the target's {@code Brief<X>} on read and its id or a
 * {@code Brief<X>Request} attribute object on write, tags are {@code NestedTag}s, custom fields a
 * free object); this class adds what every field shares (read-only, write-only, nullable) and
 * names the components the shapes refer to.
 */
final class FieldSchemas implements SchemaNames {
    /** Content type → the component base name of the model (Site, IPAddress, ...). */
    private final Function<String, String> apiNames;

    FieldSchemas(Function<String, String> apiNames) {
        this.apiNames = apiNames;
    }

    /**
     * The properties a field contributes to a response: itself; for a generic relation, as
     * NetBox renders it, its content type, its id and the related object.
     */
    Map<String, Schema> readProperties(Field f) {
        Map<String, Schema> out = new LinkedHashMap<>();
        if (f.kind == Kind.GENERIC_FK) {
            out.putAll(genericPair(f));
        }
        Schema s = FieldTypes.of(f).readSchema(f, this);
        if (!f.isWritable()) {
            s.readOnly(true);
        }
        out.put(f.name, f.isNullable() || f.kind == Kind.GENERIC_FK ? nullable(s) : s);
        return out;
    }

    /**
     * The properties a writable field contributes to a create/update body: itself; for a generic
     * relation its content type and id instead.
     */
    Map<String, Schema> writeProperties(Field f) {
        if (f.kind == Kind.GENERIC_FK) {
            return genericPair(f);
        }
        Schema s = FieldTypes.of(f).writeSchema(f, this);
        if (f.isWriteOnly() || f.isSecret()) {
            s.writeOnly(true);
        }
        return Map.of(f.name, f.isNullable() ? nullable(s) : s);
    }

    /** A generic relation's content type and id columns. */
    private static Map<String, Schema> genericPair(Field f) {
        Map<String, Schema> pair = new LinkedHashMap<>();
        pair.put(f.genericTypeColumn(), nullable(basic(Kind.STRING)));
        pair.put(f.genericIdColumn(), nullable(basic(Kind.INTEGER)));
        return pair;
    }

    @Override
    public Schema brief(String contentType) {
        return ref(OpenApiNames.brief(apiNames.apply(contentType)));
    }

    @Override
    public Schema briefRequest(String contentType) {
        return ref(OpenApiNames.briefRequest(apiNames.apply(contentType)));
    }

    @Override
    public Schema nestedTag() {
        return ref(OpenApiNames.NESTED_TAG);
    }

    @Override
    public Schema nestedTagRequest() {
        return ref(OpenApiNames.NESTED_TAG_REQUEST);
    }

    /** One value of a filter parameter. */
    static Schema filterValue(Kind kind, ChoiceSet choices, String format) {
        Schema s = choices != null ? Schemas.choiceValue(choices) : basic(kind);
        return format == null ? s : s.format(format);
    }

    /** The JSON type of a plain value of the kind. */
    static Schema basic(Kind kind) {
        return FieldTypes.of(kind).schema();
    }

    static Schema array(Schema items) {
        return Schemas.array(items);
    }

    static Schema ref(String component) {
        return OASFactory.createSchema().ref("#/components/schemas/" + component);
    }

    /**
     * The schema, or null, written so that the OpenAPI 3.0 output says {@code nullable: true}
     * where drf-spectacular does: a reference (which cannot carry siblings) becomes
     * {@code allOf: [ref], nullable: true}; in a relation's {@code oneOf} the id may be null; a
     * schema without a type (any JSON value) admits null already.
     */
    static Schema nullable(Schema s) {
        if (s.getRef() != null) {
            List<Schema> either = new ArrayList<>();
            either.add(s);
            either.add(OASFactory.createSchema().addType(SchemaType.NULL));
            Schema wrapped = OASFactory.createSchema().anyOf(either);
            if (Boolean.TRUE.equals(s.getReadOnly())) {
                s.readOnly(null);
                wrapped.readOnly(true);
            }
            return wrapped;
        }
        if (s.getOneOf() != null) {
            nullable(s.getOneOf().get(0));
            return s;
        }
        if (s.getType() != null && !s.getType().isEmpty() && !s.getType().contains(SchemaType.NULL)) {
            s.addType(SchemaType.NULL);
        }
        return s;
    }
}
