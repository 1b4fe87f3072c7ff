package org.sourceoftruth.records.fieldtype;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.Field;

/** OpenAPI shapes the field types share (drf-spectacular's: choices, arrays, text limits). */
public final class Schemas {
    private Schemas() {}

    public static Schema of(SchemaType type) {
        return OASFactory.createSchema().addType(type);
    }

    /** Any JSON value, null included. */
    public static Schema any() {
        return OASFactory.createSchema();
    }

    public static Schema array(Schema items) {
        return of(SchemaType.ARRAY).items(items);
    }

    /** A choice's value: an enum of the set's values (numbers for a numeric set). */
    public static Schema choiceValue(ChoiceSet choices) {
        Schema s = of(choices.isNumeric() ? SchemaType.INTEGER : SchemaType.STRING);
        List<Object> values = new ArrayList<>();
        for (String v : choices.values()) {
            values.add(choices.isNumeric() ? (Object) Long.valueOf(v) : v);
        }
        return s.enumeration(values);
    }

    /** NetBox's {@code {value, label}} rendering of a choice. */
    public static Schema choiceObject(ChoiceSet choices) {
        Schema label = of(SchemaType.STRING)
                .enumeration(new ArrayList<>(
                        choices.asMap().values().stream().distinct().toList()));
        return of(SchemaType.OBJECT).addProperty("value", choiceValue(choices)).addProperty("label", label);
    }

    /** A string field's write schema: its length limits and pattern. */
    static Schema text(Field f) {
        Schema s = of(SchemaType.STRING);
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

    /** A number field's write schema: its declared range. */
    static Schema range(Schema s, Field f) {
        if (f.minValue() != null) {
            s.minimum(f.minValue());
        }
        if (f.maxValue() != null) {
            s.maximum(f.maxValue());
        }
        return s;
    }
}
