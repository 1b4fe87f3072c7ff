package org.sourceoftruth.records.api.openapi;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The one place where field kinds become OpenAPI schemas: a field as rendered in a response, as
 * written in a request, and one value of a filter parameter. Shapes follow NetBox's
 * drf-spectacular document: a choice is {@code {value, label}} on read and its bare value on
 * write, a relation is the target's {@code Brief<X>} on read and its id or a
 * {@code Brief<X>Request} attribute object on write, tags are {@code NestedTag}s, custom fields a
 * free object.
 */
final class FieldSchemas {
    private static final String SLUG_PATTERN = "^[-a-zA-Z0-9_]+$";

    /** Content type → the component base name of the model (Site, IPAddress, ...). */
    private final Function<String, String> apiNames;

    FieldSchemas(Function<String, String> apiNames) {
        this.apiNames = apiNames;
    }

    // ------------------------------------------------------------------ responses

    /**
     * The properties a field contributes to a response: itself; for a generic relation, as
     * NetBox renders it, its content type, its id and the related object.
     */
    Map<String, Schema> readProperties(Field f) {
        Map<String, Schema> out = new LinkedHashMap<>();
        if (f.kind == Kind.GENERIC_FK) {
            out.put(f.genericTypeColumn(), nullable(basic(Kind.STRING)));
            out.put(f.genericIdColumn(), nullable(basic(Kind.INTEGER)));
        }
        out.put(f.name, read(f));
        return out;
    }

    /** The field in a response representation. */
    private Schema read(Field f) {
        Schema s = switch (f.kind) {
            case CHOICE -> f.choices().isPlain() ? choiceValue(f.choices()) : choiceObject(f.choices());
            case STRING -> f.choices() != null ? choiceValue(f.choices()) : basic(Kind.STRING);
            case FK -> ref(ComponentNames.brief(apiNames.apply(f.target())));
            case M2M -> array(ref(ComponentNames.brief(apiNames.apply(f.target()))));
            case TAGS -> f.isTagSlugs() ? array(basic(Kind.STRING)) : array(ref(ComponentNames.NESTED_TAG));
            case COUNT -> basic(Kind.INTEGER).format("int64");
            case COMPUTED -> computed(f);
            case GENERIC_FK -> OASFactory.createSchema(); // the related object, any of several models
            default -> basic(f.kind);
        };
        if (!f.isWritable()) {
            s.readOnly(true);
        }
        return f.isNullable() || f.kind == Kind.GENERIC_FK ? nullable(s) : s;
    }

    /** A computed field: NetBox's fixed url/display fields, else what the declaration says it renders. */
    private Schema computed(Field f) {
        if (f.name.equals("url") || f.name.equals("display_url")) {
            return basic(Kind.STRING).format("uri");
        }
        Kind renders = f.renders();
        if (renders == null) {
            return OASFactory.createSchema(); // any JSON value, null included
        }
        return switch (renders) {
            case M2M -> array(OASFactory.createSchema()); // related objects of a model not built here
            case CHOICE -> f.renderedChoices() != null ? choiceObject(f.renderedChoices()) : basic(Kind.STRING);
            default -> basic(renders);
        };
    }

    // ------------------------------------------------------------------- requests

    /**
     * The properties a writable field contributes to a create/update body: itself; for a generic
     * relation its content type and id instead.
     */
    Map<String, Schema> writeProperties(Field f) {
        if (f.kind == Kind.GENERIC_FK) {
            Map<String, Schema> pair = new LinkedHashMap<>();
            pair.put(f.genericTypeColumn(), nullable(basic(Kind.STRING)));
            pair.put(f.genericIdColumn(), nullable(basic(Kind.INTEGER)));
            return pair;
        }
        return Map.of(f.name, write(f));
    }

    /** The field in a create/update body. */
    private Schema write(Field f) {
        Schema s = switch (f.kind) {
            case CHOICE, STRING -> f.choices() != null ? choiceValue(f.choices()) : text(f);
            case SLUG -> text(f).pattern(SLUG_PATTERN);
            case INTEGER, DECIMAL -> range(basic(f.kind), f);
            case FK -> relation(f.target());
            case M2M -> array(basic(Kind.INTEGER));
            case TAGS -> f.isTagSlugs() ? array(basic(Kind.STRING)) : array(ref(ComponentNames.NESTED_TAG_REQUEST));
            default -> basic(f.kind);
        };
        if (f.isWriteOnly() || f.isSecret()) {
            s.writeOnly(true);
        }
        return f.isNullable() ? nullable(s) : s;
    }

    /** A related object: its id, or attributes that identify exactly one object. */
    private Schema relation(String targetContentType) {
        List<Schema> either = new ArrayList<>();
        either.add(basic(Kind.INTEGER));
        either.add(ref(ComponentNames.briefRequest(apiNames.apply(targetContentType))));
        return OASFactory.createSchema().oneOf(either);
    }

    private static Schema text(Field f) {
        Schema s = basic(Kind.STRING);
        if (f.maxLength() != null) {
            s.maxLength(f.maxLength());
        }
        if (f.isRequired()) {
            s.minLength(1);
        }
        if (f.pattern() != null) {
            s.pattern(f.pattern().pattern());
        }
        return s;
    }

    private static Schema range(Schema s, Field f) {
        if (f.minValue() != null) {
            s.minimum(f.minValue());
        }
        if (f.maxValue() != null) {
            s.maximum(f.maxValue());
        }
        return s;
    }

    // -------------------------------------------------------------------- filters

    /** One value of a filter parameter. */
    static Schema filterValue(Kind kind, ChoiceSet choices, String format) {
        Schema s = choices != null ? choiceValue(choices) : basic(kind);
        return format == null ? s : s.format(format);
    }

    // --------------------------------------------------------------------- shapes

    /** The JSON type of a plain value of the kind. */
    static Schema basic(Kind kind) {
        Schema s = OASFactory.createSchema();
        return switch (kind) {
            case INTEGER -> s.addType(SchemaType.INTEGER);
            case DECIMAL -> s.addType(SchemaType.NUMBER).format("double");
            case BOOLEAN -> s.addType(SchemaType.BOOLEAN);
            case DATE -> s.addType(SchemaType.STRING).format("date");
            case DATETIME -> s.addType(SchemaType.STRING).format("date-time");
            case STRING_LIST -> s.addType(SchemaType.ARRAY).items(basic(Kind.STRING));
            case CUSTOM_FIELDS -> s.addType(SchemaType.OBJECT).additionalPropertiesSchema(OASFactory.createSchema());
            case JSON, COMPUTED, GENERIC_FK -> s; // any JSON value, null included
            default -> s.addType(SchemaType.STRING); // STRING, SLUG, CHOICE, INET, CIDR, FK keys
        };
    }

    /** A choice's value: an enum of the set's values (numbers for a numeric set). */
    private static Schema choiceValue(ChoiceSet choices) {
        Schema s = OASFactory.createSchema().addType(choices.isNumeric() ? SchemaType.INTEGER : SchemaType.STRING);
        List<Object> values = new ArrayList<>();
        for (String v : choices.values()) {
            values.add(choices.isNumeric() ? (Object) Long.valueOf(v) : v);
        }
        return s.enumeration(values);
    }

    /** NetBox's {@code {value, label}} rendering of a choice. */
    private static Schema choiceObject(ChoiceSet choices) {
        Schema label = OASFactory.createSchema().addType(SchemaType.STRING)
                .enumeration(new ArrayList<>(choices.asMap().values().stream().distinct().toList()));
        return OASFactory.createSchema().addType(SchemaType.OBJECT)
                .addProperty("value", choiceValue(choices))
                .addProperty("label", label);
    }

    static Schema array(Schema items) {
        return OASFactory.createSchema().addType(SchemaType.ARRAY).items(items);
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
