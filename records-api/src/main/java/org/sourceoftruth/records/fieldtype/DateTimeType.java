package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.sourceoftruth.records.model.Field;

/** DATETIME: a timestamptz, rendered as NetBox does (UTC, microseconds, Z). */
public final class DateTimeType extends OrderedType {
    /** {@code 2025-04-29T15:44:47.597092Z}: ISO-8601, microseconds, Z. */
    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'");
    /** {@link #WIRE}'s layout: where each part (year, month, day, hour, minute, second, microsecond) goes. */
    private static final String WIRE_TEMPLATE = "0000-00-00T00:00:00.000000Z";

    private static final int[] PART_AT = {0, 5, 8, 11, 14, 17, 20};
    private static final int[] PART_WIDTH = {4, 2, 2, 2, 2, 2, 6};

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

    /**
     * NetBox's wire format of an instant. Written digit by digit: a list page formats two per
     * row, and the pattern formatter (a field walk per letter) was most of rendering them.
     */
    public static String format(OffsetDateTime t) {
        LocalDateTime u = t.getOffset().equals(ZoneOffset.UTC)
                ? t.toLocalDateTime()
                : t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        if (u.getYear() < 1 || u.getYear() > 9999) { // the pattern writes year-of-era (1 BC as 0001)
            return WIRE.format(u);
        }
        char[] c = WIRE_TEMPLATE.toCharArray();
        int[] parts = {
            u.getYear(),
            u.getMonthValue(),
            u.getDayOfMonth(),
            u.getHour(),
            u.getMinute(),
            u.getSecond(),
            u.getNano() / 1000
        };
        for (int i = 0; i < parts.length; i++) {
            digits(c, PART_AT[i], parts[i], PART_WIDTH[i]);
        }
        return new String(c);
    }

    /** Writes {@code value} as {@code width} decimal digits, zero-padded, at {@code at}. */
    private static void digits(char[] c, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + value % 10);
            value /= 10;
        }
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
