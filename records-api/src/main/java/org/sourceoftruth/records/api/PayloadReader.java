package org.sourceoftruth.records.api;

import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.db.Db;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads one JSON object of a write request into column values, following DRF/NetBox rules:
 * required fields, types, lengths, ranges, choice values, slugs, relations given by id or by
 * an attribute dict that must match exactly one object ({@link ReferenceResolver}), many-to-many
 * ids, tags and content-type/id pairs ({@link RelationReader}), custom fields. All problems are
 * collected as {field: [messages]}; uniqueness and model rules follow ({@link RowValidator}).
 */
@ApplicationScoped
public class PayloadReader {
    private static final Pattern SLUG = Pattern.compile("^[-a-zA-Z0-9_]+$");

    @Inject
    ModelRegistry registry;
    @Inject
    CustomFields customFields;
    @Inject
    ReferenceResolver references;
    @Inject
    RelationReader relations;

    /** What a request wants written. {@code tags}/{@code m2m} entries are present only when sent. */
    public record Changes(Row columns, Map<Field, List<Long>> m2m, List<Long> tags) {
    }

    /**
     * @param existing the stored row on update (locked), null on create
     * @param partial  PATCH semantics: absent required fields are fine
     */
    public Changes read(Db db, Model model, JsonNode body, Row existing, boolean partial,
                        Map<String, List<String>> errors) {
        Row cols = new Row();
        Map<Field, List<Long>> m2m = new LinkedHashMap<>();
        List<Long> tags = null;
        if (!body.isObject()) {
            errors.computeIfAbsent("non_field_errors", k -> new ArrayList<>())
                    .add("Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(body) + ".");
            return new Changes(cols, m2m, null);
        }
        boolean create = existing == null;
        for (Field f : model.fields()) {
            if (!f.isWritable()) {
                continue;
            }
            if (f.kind == Kind.GENERIC_FK) {
                relations.readGeneric(db, f, body, existing, create || !partial, cols, errors);
                continue;
            }
            JsonNode v = value(body, f);
            if (v == null) {
                if (f.isRequired() && (create || !partial)) {
                    add(errors, f.name, "This field is required.");
                } else if (create && f.isColumn() && f.kind != Kind.CUSTOM_FIELDS) {
                    JsonNode d = f.defaultValue();
                    cols.put(f.column(), d == null || d.isNull() ? null : convertDefault(f, d));
                }
                if (create && f.kind == Kind.CUSTOM_FIELDS) {
                    cols.put(f.column(), customFields.merge(model, null, null, true, errors));
                }
                continue;
            }
            try {
                switch (f.kind) {
                    case M2M -> m2m.put(f, relations.readM2m(db, f, v));
                    case TAGS -> tags = relations.readTags(db, f, v);
                    case CUSTOM_FIELDS -> cols.put(f.column(), customFields.merge(model, v,
                            existing == null ? null : (JsonNode) existing.get(f.column()), create, errors));
                    case FK -> cols.put(f.column(), v.isNull() ? nullOrError(f) : references.resolve(db, registry.require(f.target()), v));
                    default -> cols.put(f.column(), v.isNull() ? nullOrError(f) : transform(f, convert(f, v)));
                }
            } catch (FieldError e) {
                add(errors, f.name, e.getMessage());
            }
        }
        return new Changes(cols, m2m, tags);
    }

    static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }

    static JsonNode value(JsonNode body, Field f) {
        JsonNode v = body.get(f.name);
        if (v == null) {
            for (String alias : f.writeAliases()) {
                v = body.get(alias);
                if (v != null) {
                    break;
                }
            }
        }
        return v;
    }

    /** The declaration's write transform (e.g. password hashing); its rejection is a field error. */
    private static Object transform(Field f, Object value) {
        if (f.writeTransform() == null) {
            return value;
        }
        try {
            return f.writeTransform().apply(value);
        } catch (IllegalArgumentException e) {
            throw new FieldError(e.getMessage());
        }
    }

    private static Object nullOrError(Field f) {
        if (!f.isNullable()) {
            throw new FieldError("This field may not be null.");
        }
        return null;
    }

    /** A bad value for one field; the message goes under the field's name. */
    static final class FieldError extends RuntimeException {
        FieldError(String message) {
            super(message, null, false, false);
        }
    }

    private static Object convertDefault(Field f, JsonNode d) {
        return switch (f.kind) {
            case JSON -> d;
            case STRING_LIST -> toStrings(d);
            default -> convert(f, d);
        };
    }

    /** Converts and checks one scalar value, with DRF's messages. */
    static Object convert(Field f, JsonNode v) {
        switch (f.kind) {
            case STRING, SLUG -> {
                if (!(v.isTextual() || v.isNumber())) {
                    throw new FieldError("Not a valid string.");
                }
                String s = v.asText();
                if (s.isBlank() && f.isRequired()) {
                    throw new FieldError("This field may not be blank.");
                }
                if (f.maxLength() != null && s.length() > f.maxLength()) {
                    throw new FieldError("Ensure this field has no more than " + f.maxLength() + " characters.");
                }
                if (f.choices() != null && !f.choices().contains(s)) {
                    throw new FieldError("\"" + s + "\" is not a valid choice.");
                }
                if (f.pattern() != null && !s.isEmpty() && !f.pattern().matcher(s).matches()) {
                    throw new FieldError(f.patternMessage());
                }
                if (f.kind == Kind.SLUG && !SLUG.matcher(s).matches()) {
                    throw new FieldError("Enter a valid \"slug\" consisting of letters, numbers, underscores or hyphens.");
                }
                return s;
            }
            case INTEGER -> {
                long n;
                if (v.isIntegralNumber() && v.canConvertToLong()) {
                    n = v.asLong();
                } else if (v.isTextual() && v.asText().trim().matches("-?\\d{1,18}")) {
                    n = Long.parseLong(v.asText().trim());
                } else if (v.isNumber() && v.decimalValue().stripTrailingZeros().scale() <= 0 && v.canConvertToLong()) {
                    n = v.asLong();
                } else {
                    throw new FieldError("A valid integer is required.");
                }
                checkRange(f, BigDecimal.valueOf(n));
                return n;
            }
            case DECIMAL -> {
                BigDecimal d;
                try {
                    d = v.isNumber() ? v.decimalValue() : (v.isTextual() ? new BigDecimal(v.asText().trim()) : null);
                } catch (NumberFormatException e) {
                    d = null;
                }
                if (d == null) {
                    throw new FieldError("A valid number is required.");
                }
                checkRange(f, d);
                return d;
            }
            case BOOLEAN -> {
                if (v.isBoolean()) {
                    return v.asBoolean();
                }
                String s = v.asText().toLowerCase(java.util.Locale.ROOT);
                return switch (s) {
                    case "true", "1", "yes", "on" -> true;
                    case "false", "0", "no", "off" -> false;
                    default -> throw new FieldError("Must be a valid boolean.");
                };
            }
            case DATE -> {
                try {
                    if (!v.isTextual()) {
                        throw new DateTimeParseException("", "", 0);
                    }
                    return LocalDate.parse(v.asText());
                } catch (DateTimeParseException e) {
                    throw new FieldError("Date has wrong format. Use one of these formats instead: YYYY-MM-DD.");
                }
            }
            case DATETIME -> {
                try {
                    if (!v.isTextual()) {
                        throw new FilterCompiler.FilterError("");
                    }
                    return FilterCompiler.parseDateTime(v.asText());
                } catch (FilterCompiler.FilterError e) {
                    throw new FieldError("Datetime has wrong format. Use one of these formats instead: "
                            + "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].");
                }
            }
            case JSON -> {
                return v;
            }
            case CHOICE -> {
                if (v.isObject() || v.isArray()) {
                    throw new FieldError("Value must be passed directly (e.g. \"foo\": 123); do not use a dictionary or list.");
                }
                String s = v.asText();
                if (s.isEmpty()) {
                    if (f.isNullable()) {
                        return null;
                    }
                    throw new FieldError("This field may not be blank.");
                }
                if (!f.choices().contains(s)) {
                    throw new FieldError("\"" + s + "\" is not a valid choice.");
                }
                return s;
            }
            case STRING_LIST -> {
                return toStrings(v);
            }
            case INET, CIDR -> {
                boolean prefix = f.kind == Kind.CIDR;
                if (!v.isTextual()) {
                    throw new FieldError(prefix ? "Invalid IP prefix format: " + v : "Invalid IP address format: " + v);
                }
                // A bare address means a host mask (/32, /128), as netaddr's IPNetwork reads it.
                Cidr.Parsed p = Cidr.parse(v.asText(), false).orElseThrow(() -> new FieldError(
                        (prefix ? "Invalid IP prefix format: " : "Invalid IP address format: ") + v.asText()));
                if (prefix && p.hasHostBits()) {
                    // NetBox's prefix_validator on every cidr model field.
                    throw new FieldError(p.text() + " is not a valid prefix. Did you mean " + p.network().text() + "?");
                }
                return new Db.Inet(prefix ? "cidr" : "inet", p.text());
            }
            default -> throw new FieldError("Unsupported field.");
        }
    }

    private static List<String> toStrings(JsonNode v) {
        if (!v.isArray()) {
            throw new FieldError("Expected a list of items but got type \"" + ErrorMapper.jsonType(v) + "\".");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : v) {
            if (!item.isTextual()) {
                throw new FieldError("Not a valid string.");
            }
            out.add(item.asText());
        }
        return out;
    }

    private static void checkRange(Field f, BigDecimal n) {
        if (f.minValue() != null && n.compareTo(f.minValue()) < 0) {
            throw new FieldError("Ensure this value is greater than or equal to " + f.minValue().toPlainString() + ".");
        }
        if (f.maxValue() != null && n.compareTo(f.maxValue()) > 0) {
            throw new FieldError("Ensure this value is less than or equal to " + f.maxValue().toPlainString() + ".");
        }
    }
}
