package org.sourceoftruth.records.auth;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Translates the constraints of an object permission into SQL over a model's declarations.
 * Constraints are NetBox's: a JSON object of Django-style lookups ANDed together
 * ({@code {"tenant__slug": "acme", "status__in": ["active", "planned"]}}), or a list of such
 * objects ORed; {@code "$user"} stands for the requesting user's id. A path follows foreign
 * keys, many-to-many fields and tags ({@code site__region__name}, {@code tags__slug}), and
 * custom fields ({@code custom_field_data__<name>}); the last part may be a lookup.
 * The result is a predicate over alias {@code t}.
 */
@ApplicationScoped
public class ConstraintCompiler {
    /** NetBox's CONSTRAINT_TOKEN_USER. */
    public static final String USER_TOKEN = "$user";
    private static final Set<String> LOOKUPS = Set.of("exact", "iexact", "in", "contains", "icontains", "startswith",
            "istartswith", "endswith", "iendswith", "gt", "gte", "lt", "lte", "isnull", "regex", "iregex");
    private static final Pattern CUSTOM_FIELD_NAME = Pattern.compile("^[a-z0-9_]+$");

    @Inject
    ModelRegistry registry;

    /** Constraints that cannot be applied to a model; the message says why, in Django's words where it has them. */
    public static final class InvalidConstraint extends IllegalArgumentException {
        InvalidConstraint(String message) {
            super(message, null);
        }
    }

    /**
     * @param constraints null, an object, or a list of objects
     * @param userId      the value of {@code $user}
     * @return the predicate, or {@code null} when the constraints restrict nothing
     * @throws InvalidConstraint when a path or value does not fit the model
     */
    public ExtraFilter.Sql compile(Model model, JsonNode constraints, long userId) {
        if (constraints == null || constraints.isNull() || constraints.isMissingNode()) {
            return null;
        }
        if (!constraints.isObject() && !constraints.isArray()) {
            throw new InvalidConstraint("Constraints must be a JSON object or a list of JSON objects.");
        }
        List<JsonNode> sets = new ArrayList<>();
        if (constraints.isArray()) {
            constraints.forEach(sets::add);
        } else {
            sets.add(constraints);
        }
        Compilation c = new Compilation(userId);
        List<String> alternatives = new ArrayList<>();
        boolean unrestricted = sets.isEmpty();
        for (JsonNode set : sets) {
            if (!set.isObject()) {
                throw new InvalidConstraint("Constraints must be a JSON object or a list of JSON objects.");
            }
            if (set.isEmpty()) {
                unrestricted = true; // an empty set matches everything; still check the others
                continue;
            }
            List<String> terms = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) set::fields) {
                terms.add(c.path(model, "t", e.getKey().split("__", -1), 0, e.getValue()));
            }
            alternatives.add("(" + String.join(" and ", terms) + ")");
        }
        return unrestricted ? null : new ExtraFilter.Sql(String.join(" or ", alternatives), c.params);
    }

    /** State of one compilation: the parameters in SQL order and the next subquery alias. */
    private final class Compilation {
        final List<Object> params = new ArrayList<>();
        final long userId;
        int aliases;

        Compilation(long userId) {
            this.userId = userId;
        }

        String alias() {
            return "pc" + (++aliases);
        }

        /** The predicate for {@code parts[i..]} applied to {@code model} under {@code alias}. */
        String path(Model model, String alias, String[] parts, int i, JsonNode value) {
            String name = parts[i];
            int rest = parts.length - i - 1;
            String lookup = rest == 0 ? "exact" : rest == 1 && LOOKUPS.contains(parts[i + 1]) ? parts[i + 1] : null;
            if (name.equals("pk")) {
                name = "id";
            }
            Field f = model.field(name);
            if (f == null) {
                f = fkByColumn(model, name);
            }
            if (f == null || f.isWriteOnly() || f.isSecret()) {
                Field generic = genericColumn(model, name);
                if (generic != null && lookup != null) {
                    boolean isType = name.equals(generic.genericTypeColumn());
                    return compare(alias + "." + Db.q(name), isType ? Kind.STRING : Kind.INTEGER, name, lookup, value);
                }
                throw new InvalidConstraint("Cannot resolve keyword '" + name + "' into field.");
            }
            switch (f.kind) {
                case FK -> {
                    String column = alias + "." + Db.q(f.column());
                    if (lookup != null) {
                        return compare(column, Kind.INTEGER, name, lookup, value);
                    }
                    Model target = registry.require(f.target());
                    String a = alias();
                    return column + " in (select " + a + ".id from " + target.table() + " " + a + " where "
                            + path(target, a, parts, i + 1, value) + ")";
                }
                case M2M -> {
                    String j = alias();
                    String own = "exists (select 1 from " + f.joinTable() + " " + j + " where " + j + "." + f.joinOwnColumn()
                            + " = " + alias + ".id and ";
                    if (lookup != null) {
                        return own + compare(j + "." + f.joinTargetColumn(), Kind.INTEGER, name, lookup, value) + ")";
                    }
                    Model target = registry.require(f.target());
                    String a = alias();
                    return own + j + "." + f.joinTargetColumn() + " in (select " + a + ".id from " + target.table() + " "
                            + a + " where " + path(target, a, parts, i + 1, value) + "))";
                }
                case TAGS -> {
                    String j = alias();
                    params.add(model.contentType());
                    String own = "exists (select 1 from extras_taggeditem " + j + " where " + j + ".object_type = ? and "
                            + j + ".object_id = " + alias + ".id and ";
                    if (lookup != null) {
                        return own + compare(j + ".tag_id", Kind.INTEGER, name, lookup, value) + ")";
                    }
                    Model tag = registry.require("extras.tag");
                    String a = alias();
                    return own + j + ".tag_id in (select " + a + ".id from " + tag.table() + " " + a + " where "
                            + path(tag, a, parts, i + 1, value) + "))";
                }
                case CUSTOM_FIELDS -> {
                    return customField(alias, f, parts, i, value);
                }
                case COUNT, COMPUTED, GENERIC_FK, JSON -> throw new InvalidConstraint(
                        "Cannot resolve keyword '" + name + "' into field.");
                default -> {
                    if (lookup == null) {
                        throw new InvalidConstraint("Unsupported lookup '" + parts[i + 1] + "' for field '" + name
                                + "' or join on the field not permitted.");
                    }
                    return compare(alias + "." + Db.q(f.column()), f.kind, name, lookup, value);
                }
            }
        }

        /** {@code custom_field_data__<name>[__lookup]}: the JSON value, typed by the constraint value. */
        private String customField(String alias, Field f, String[] parts, int i, JsonNode value) {
            int rest = parts.length - i - 1;
            if (rest < 1 || rest > 2 || !CUSTOM_FIELD_NAME.matcher(parts[i + 1]).matches()) {
                throw new InvalidConstraint("Custom field constraints take the form custom_field_data__<name>[__<lookup>].");
            }
            String lookup = rest == 2 ? parts[i + 2] : "exact";
            String text = "(" + alias + "." + f.column() + "->>'" + parts[i + 1] + "')";
            JsonNode sample = value.isArray() && !value.isEmpty() ? value.get(0) : value;
            if (sample.isNumber() && !lookup.equals("isnull")) {
                return compare(text + "::numeric", Kind.DECIMAL, parts[i + 1], lookup, value);
            }
            if (sample.isBoolean() && !lookup.equals("isnull")) {
                return compare(text + "::boolean", Kind.BOOLEAN, parts[i + 1], lookup, value);
            }
            return compare(text, Kind.STRING, parts[i + 1], lookup, value);
        }

        /** {@code column <lookup> value} with Django's lookup semantics. */
        private String compare(String column, Kind kind, String name, String lookup, JsonNode value) {
            if (!LOOKUPS.contains(lookup)) {
                throw new InvalidConstraint("Unsupported lookup '" + lookup + "' for field '" + name + "'.");
            }
            switch (lookup) {
                case "isnull" -> {
                    return column + (truthy(value) ? " is null" : " is not null");
                }
                case "in" -> {
                    if (!value.isArray()) {
                        throw new InvalidConstraint("Field '" + name + "': 'in' needs a list of values.");
                    }
                    if (value.isEmpty()) {
                        return "false";
                    }
                    List<String> marks = new ArrayList<>();
                    for (JsonNode v : value) {
                        marks.add("?");
                        params.add(convert(kind, name, v));
                    }
                    return column + " in (" + String.join(", ", marks) + ")";
                }
                case "exact" -> {
                    if (value.isNull()) {
                        return column + " is null";
                    }
                    if (kind == Kind.STRING_LIST) {
                        params.add(new Db.SqlArray("text", stringList(name, value)));
                        return column + " = ?";
                    }
                    params.add(convert(kind, name, value));
                    return column + " = ?";
                }
                case "iexact" -> {
                    params.add(text(name, value));
                    return "lower(" + column + "::text) = lower(?)";
                }
                case "contains" -> {
                    if (kind == Kind.STRING_LIST) {
                        params.add(new Db.SqlArray("text", value.isArray() ? stringList(name, value) : List.of(text(name, value))));
                        return column + " @> ?";
                    }
                    params.add("%" + like(text(name, value)) + "%");
                    return column + "::text like ?";
                }
                case "icontains", "istartswith", "iendswith", "startswith", "endswith" -> {
                    String v = like(text(name, value));
                    params.add(lookup.endsWith("contains") ? "%" + v + "%" : lookup.endsWith("startswith") ? v + "%" : "%" + v);
                    return column + "::text " + (lookup.startsWith("i") ? "ilike" : "like") + " ?";
                }
                case "regex", "iregex" -> {
                    String v = text(name, value);
                    try {
                        Pattern.compile(v);
                    } catch (PatternSyntaxException e) {
                        throw new InvalidConstraint("Field '" + name + "': invalid regular expression.");
                    }
                    params.add(v);
                    return column + "::text " + (lookup.equals("regex") ? "~" : "~*") + " ?";
                }
                default -> { // gt, gte, lt, lte
                    String op = switch (lookup) {
                        case "gt" -> ">";
                        case "gte" -> ">=";
                        case "lt" -> "<";
                        default -> "<=";
                    };
                    params.add(convert(kind, name, value));
                    return column + " " + op + " ?";
                }
            }
        }

        /** A constraint value as the Java value bound for a column of this kind. */
        private Object convert(Kind kind, String name, JsonNode raw) {
            JsonNode v = substitute(raw);
            if (v.isContainerNode()) {
                throw new InvalidConstraint("Field '" + name + "' expected a single value but got " + v + ".");
            }
            try {
                return switch (kind) {
                    case INTEGER, FK -> {
                        if (v.isIntegralNumber() && v.canConvertToLong()) {
                            yield v.asLong();
                        }
                        yield Long.parseLong(v.asText().trim());
                    }
                    case DECIMAL -> v.isNumber() ? v.decimalValue() : new BigDecimal(v.asText().trim());
                    case BOOLEAN -> {
                        if (v.isBoolean()) {
                            yield v.asBoolean();
                        }
                        String s = v.asText().trim().toLowerCase(java.util.Locale.ROOT);
                        if (!s.equals("true") && !s.equals("false")) {
                            throw new IllegalArgumentException();
                        }
                        yield Boolean.parseBoolean(s);
                    }
                    case DATE -> LocalDate.parse(v.asText().trim());
                    case DATETIME -> dateTime(v.asText().trim());
                    case INET, CIDR -> new Db.Inet(kind == Kind.CIDR ? "cidr" : "inet", Cidr.parse(v.asText(), false)
                            .orElseThrow(IllegalArgumentException::new).text());
                    default -> v.asText();
                };
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw new InvalidConstraint("Field '" + name + "' got an unusable value: " + v + ".");
            }
        }

        private String text(String name, JsonNode raw) {
            JsonNode v = substitute(raw);
            if (v.isContainerNode() || v.isNull()) {
                throw new InvalidConstraint("Field '" + name + "' expected a single value but got " + v + ".");
            }
            return v.asText();
        }

        private List<String> stringList(String name, JsonNode list) {
            List<String> out = new ArrayList<>();
            for (JsonNode v : list) {
                out.add(text(name, v));
            }
            return out;
        }

        /** "$user" becomes the requesting user's id. */
        private JsonNode substitute(JsonNode v) {
            if (v.isTextual() && v.asText().equals(USER_TOKEN)) {
                return com.fasterxml.jackson.databind.node.LongNode.valueOf(userId);
            }
            return v;
        }
    }

    private static Field fkByColumn(Model model, String column) {
        for (Field f : model.fields()) {
            if (f.kind == Kind.FK && column.equals(f.column())) {
                return f;
            }
        }
        return null;
    }

    private static Field genericColumn(Model model, String column) {
        for (Field f : model.fields()) {
            if (f.kind == Kind.GENERIC_FK && (column.equals(f.genericTypeColumn()) || column.equals(f.genericIdColumn()))) {
                return f;
            }
        }
        return null;
    }

    private static boolean truthy(JsonNode v) {
        return v.isBoolean() ? v.asBoolean() : v.isTextual() ? v.asText().equalsIgnoreCase("true") : v.asInt() != 0;
    }

    private static OffsetDateTime dateTime(String s) {
        try {
            return OffsetDateTime.parse(s.replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            return LocalDate.parse(s).atStartOfDay().atOffset(ZoneOffset.UTC);
        }
    }

    private static String like(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
