package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;

/** STRING and SLUG: text with a length limit, optional choices and pattern; a slug also its character set. */
public final class TextType extends TextValuedType {
    private static final Pattern SLUG = Pattern.compile("^[-a-zA-Z0-9_]+$");
    private final boolean slug;

    TextType(boolean slug) {
        this.slug = slug;
    }

    @Override
    public Object read(Field f, JsonNode v) {
        if (!(v.isTextual() || v.isNumber())) {
            throw new InvalidValue("Not a valid string.");
        }
        String s = v.asText();
        if (s.isBlank() && f.isRequired()) {
            throw new InvalidValue("This field may not be blank.");
        }
        if (f.maxLength() != null && s.length() > f.maxLength()) {
            throw new InvalidValue("Ensure this field has no more than " + f.maxLength() + " characters.");
        }
        if (f.choices() != null && !f.choices().contains(s)) {
            throw new InvalidValue("\"" + s + "\" is not a valid choice.");
        }
        if (f.pattern() != null && !s.isEmpty() && !f.pattern().matcher(s).matches()) {
            throw new InvalidValue(f.patternMessage());
        }
        if (slug && !SLUG.matcher(s).matches()) {
            throw new InvalidValue("Enter a valid \"slug\" consisting of letters, numbers, underscores or hyphens.");
        }
        return s;
    }

    @Override
    public String optionsType() {
        return slug ? "slug" : "string";
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.STRING);
    }

    @Override
    public Schema readSchema(Field f, SchemaNames names) {
        return f.choices() != null ? Schemas.choiceValue(f.choices()) : schema();
    }

    @Override
    public Schema writeSchema(Field f, SchemaNames names) {
        if (slug) {
            return Schemas.text(f).pattern(SLUG.pattern());
        }
        return f.choices() != null ? Schemas.choiceValue(f.choices()) : Schemas.text(f);
    }
}
