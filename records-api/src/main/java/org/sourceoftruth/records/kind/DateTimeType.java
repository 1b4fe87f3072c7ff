package org.sourceoftruth.records.kind;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/** DATETIME: a timestamptz, rendered as NetBox does (UTC, microseconds, Z). */
public final class DateTimeType extends OrderedType {
    /** {@code 2025-04-29T15:44:47.597092Z}: ISO-8601, microseconds, Z. */
    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'");

    /**
     * The instant a text spells: ISO with offset ({@code T} or a space between date and time),
     * without one (UTC), or a bare date (its start, UTC); null when it spells none.
     */
    public static OffsetDateTime dateTime(String raw) {
        String s = raw.trim().replace(' ', 'T');
        try {
            return OffsetDateTime.parse(s);
        } catch (DateTimeParseException e) {
            try {
                if (s.length() == 10) {
                    return LocalDate.parse(s).atStartOfDay().atOffset(ZoneOffset.UTC);
                }
                return LocalDateTime.parse(s).atOffset(ZoneOffset.UTC);
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    @Override
    public Object read(Field f, JsonNode v) {
        OffsetDateTime t = v.isTextual() ? dateTime(v.asText()) : null;
        if (t == null) {
            throw new InvalidValue("Datetime has wrong format. Use one of these formats instead: "
                    + "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].");
        }
        return t;
    }

    @Override
    public JsonNode render(Field f, Object v) {
        return NODES.textNode(format((OffsetDateTime) v));
    }

    /** NetBox's wire format of an instant. */
    public static String format(OffsetDateTime t) {
        return WIRE.format(t.withOffsetSameInstant(ZoneOffset.UTC));
    }

    @Override
    public Object parse(String raw, Field f) {
        OffsetDateTime t = dateTime(raw);
        if (t == null) {
            throw new InvalidValue("Enter a valid date/time.");
        }
        return t;
    }

    @Override
    public String optionsType() {
        return "datetime";
    }

    @Override
    public Schema schema() {
        return Schemas.of(SchemaType.STRING).format("date-time");
    }
}
