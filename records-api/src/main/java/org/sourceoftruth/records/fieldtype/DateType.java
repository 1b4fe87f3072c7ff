package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;

/** DATE: an ISO date (YYYY-MM-DD). */
public final class DateType extends OrderedType {

    /** The date a text spells, or null. */
    static LocalDate date(String raw) {
        try {
            return LocalDate.parse(raw.trim());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    @Override
    public Object read(Field f, JsonNode v) {
        LocalDate d = v.isTextual() ? date(v.asText()) : null;
        if (d == null) {
            throw new InvalidValue("Date has wrong format. Use one of these formats instead: YYYY-MM-DD.");
        }
        return d;
    }

    @Override
    public JsonNode render(Field f, Object v) {
        return NODES.textNode(((LocalDate) v).toString());
    }

    @Override
    public Object parse(String raw, Field f) {
        LocalDate d = date(raw);
        if (d == null) {
            throw new InvalidValue("Enter a valid date.");
        }
        return d;
    }

    @Override
    public String optionsType() {
        return "date";
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.STRING).format("date");
    }
}
