package org.sourceoftruth.records.engine.customfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.CacheInvalidator;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.web.ErrorMapper;

/**
 * Custom-field definitions per content type, with NetBox's rendering (every defined field,
 * null when unset), validation and default values. Definitions are cached briefly: writes to
 * extras.customfield in this process clear the cache at once, other replicas within seconds.
 */
@ApplicationScoped
public class CustomFields implements CacheInvalidator {
    private static final long TTL_MILLIS = 5_000;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Inject
    AgroalDataSource dataSource;

    private record Cached(List<CustomFieldDef> defs, long loadedAt) {}

    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /** A custom field or a choice set was written: the definitions are read again on next use. */
    @Override
    public void afterWrite(String contentType, boolean delete) {
        if (contentType.equals("extras.customfield") || contentType.equals("extras.customfieldchoiceset")) {
            invalidate();
        }
    }

    public void invalidate() {
        cache.clear();
    }

    /** The definitions, reloaded when stale on a connection of their own (writes: the transaction's). */
    public List<CustomFieldDef> definitions(String contentType) {
        return definitions(null, contentType);
    }

    /**
     * The definitions, reloaded when stale on the caller's connection. A read that already holds a
     * pooled connection must pass it: taking a second one while holding the first deadlocks the
     * pool under load (every request holds one and waits for another until the acquisition
     * time-out), which is what the list endpoints did every 5 s at 32 connections.
     */
    public List<CustomFieldDef> definitions(Db db, String contentType) {
        Cached c = cache.get(contentType);
        if (c != null && System.currentTimeMillis() - c.loadedAt < TTL_MILLIS) {
            return c.defs;
        }
        if (db != null) {
            return load(db, contentType);
        }
        try (Connection conn = dataSource.getConnection()) {
            return load(new Db(conn), contentType);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private List<CustomFieldDef> load(Db db, String contentType) {
        List<CustomFieldDef> defs = db
                .query(
                        "select f.*, s.base_choices as set_base_choices, s.extra_choices as set_extra_choices"
                                + " from " + SystemTables.EXTRAS_CUSTOMFIELD + " f left join "
                                + SystemTables.EXTRAS_CUSTOMFIELDCHOICESET + " s on s.id = f.choice_set_id"
                                + " where ? = any(f.object_types) order by f.weight, f.name",
                        contentType)
                .stream()
                .map(CustomFieldDef::from)
                .toList();
        cache.put(contentType, new Cached(defs, System.currentTimeMillis()));
        return defs;
    }

    public CustomFieldDef find(Db db, String contentType, String name) {
        return definitions(db, contentType).stream()
                .filter(d -> d.name().equals(name))
                .findFirst()
                .orElse(null);
    }

    public ObjectNode render(Db db, Model model, JsonNode data) {
        ObjectNode out = NODES.objectNode();
        for (CustomFieldDef def : definitions(db, model.contentType())) {
            JsonNode v = data == null ? null : data.get(def.name());
            out.set(def.name(), v == null ? NODES.nullNode() : v);
        }
        return out;
    }

    /**
     * Merges {@code incoming} into {@code existing} (NetBox merges on update), applies defaults on
     * create and checks every value. Unknown keys are reported under custom_fields as a string
     * (NetBox's shape); value problems under __all__.
     */
    public ObjectNode merge(
            Model model, JsonNode incoming, JsonNode existing, boolean create, Map<String, List<String>> errors) {
        ObjectNode merged = existing instanceof ObjectNode o ? o.deepCopy() : NODES.objectNode();
        List<CustomFieldDef> defs = definitions(model.contentType());
        if (incoming != null && !incoming.isNull()) {
            if (!incoming.isObject()) {
                errors.computeIfAbsent("custom_fields", k -> new ArrayList<>())
                        .add("Expected a dictionary of items but got type \"" + ErrorMapper.jsonType(incoming) + "\".");
                return merged;
            }
            var it = incoming.fields();
            while (it.hasNext()) {
                var e = it.next();
                CustomFieldDef def = defs.stream()
                        .filter(d -> d.name().equals(e.getKey()))
                        .findFirst()
                        .orElse(null);
                if (def == null) {
                    errors.computeIfAbsent("custom_fields", k -> new ArrayList<>())
                            .add("Custom field '" + e.getKey() + "' does not exist for this object type.");
                    continue;
                }
                String problem = check(def, e.getValue());
                if (problem != null) {
                    errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                            .add("Invalid value for custom field '" + def.name() + "': " + problem);
                    continue;
                }
                merged.set(def.name(), e.getValue());
            }
        }
        for (CustomFieldDef def : defs) {
            JsonNode v = merged.get(def.name());
            if ((v == null || v.isNull())
                    && create
                    && def.defaultValue() != null
                    && !def.defaultValue().isNull()) {
                merged.set(def.name(), def.defaultValue());
                v = def.defaultValue();
            }
            if (def.required()
                    && (v == null || v.isNull() || (v.isTextual() && v.asText().isEmpty()))) {
                errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                        .add("Missing required custom field '" + def.name() + "'.");
            }
        }
        return merged;
    }

    /** Returns a message when {@code v} is not valid for the field, else null. */
    static String check(CustomFieldDef def, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        switch (def.type()) {
            case "text", "longtext", "url" -> {
                if (!v.isTextual()) {
                    return "Value must be a string.";
                }
                if (def.validationRegex() != null && !def.validationRegex().isEmpty()) {
                    try {
                        if (!Pattern.compile(def.validationRegex())
                                .matcher(v.asText())
                                .find()) {
                            return "Values must match this regex: " + def.validationRegex();
                        }
                    } catch (PatternSyntaxException ex) {
                        return "Invalid validation regex.";
                    }
                }
                if (def.type().equals("url") && !v.asText().matches("(?i)^(https?|ftp)://\\S+$")) {
                    return "Enter a valid URL.";
                }
                return null;
            }
            case "integer" -> {
                if (!v.isIntegralNumber()) {
                    return "Value must be an integer.";
                }
                return range(def, v.decimalValue());
            }
            case "decimal" -> {
                // a literal beyond double's range (1e999) reads as infinite: no stored JSON can hold it
                if (!v.isNumber() || (v.isDouble() && !Double.isFinite(v.doubleValue()))) {
                    return "Value must be a decimal.";
                }
                return range(def, v.decimalValue());
            }
            case "boolean" -> {
                return v.isBoolean() ? null : "Value must be true or false.";
            }
            case "date" -> {
                try {
                    LocalDate.parse(v.asText());
                    return v.isTextual() ? null : "Date values must be in ISO 8601 format (YYYY-MM-DD).";
                } catch (DateTimeParseException e) {
                    return "Date values must be in ISO 8601 format (YYYY-MM-DD).";
                }
            }
            case "datetime" -> {
                try {
                    OffsetDateTime.parse(v.asText());
                    return null;
                } catch (DateTimeParseException e) {
                    return "Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS).";
                }
            }
            case "select" -> {
                if (!v.isTextual() || def.choices() == null || !def.choices().contains(v.asText())) {
                    return "Invalid choice (" + v.asText() + ").";
                }
                return null;
            }
            case "multiselect" -> {
                if (!v.isArray()) {
                    return "Value must be a list.";
                }
                for (JsonNode c : v) {
                    if (def.choices() == null || !def.choices().contains(c.asText())) {
                        return "Invalid choice(s) (" + c.asText() + ").";
                    }
                }
                return null;
            }
            case "object" -> {
                return v.isIntegralNumber() ? null : "Value must be an object ID, not " + ErrorMapper.jsonType(v) + ".";
            }
            case "json" -> {
                String violation = def.validationSchema() == null
                                || !def.validationSchema().isObject()
                        ? null
                        : org.sourceoftruth.records.model.JsonSchemaRules.violation(def.validationSchema(), v);
                return violation == null ? null : "Value does not conform to the assigned schema: " + violation;
            }
            default -> {
                return null;
            }
        }
    }

    private static String range(CustomFieldDef def, BigDecimal value) {
        if (def.validationMinimum() != null && value.compareTo(def.validationMinimum()) < 0) {
            return "Value must be at least "
                    + def.validationMinimum().stripTrailingZeros().toPlainString();
        }
        if (def.validationMaximum() != null && value.compareTo(def.validationMaximum()) > 0) {
            return "Value must not exceed "
                    + def.validationMaximum().stripTrailingZeros().toPlainString();
        }
        return null;
    }
}
