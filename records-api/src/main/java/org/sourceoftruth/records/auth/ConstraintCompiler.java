package org.sourceoftruth.records.auth;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.fieldtype.FieldType;
import org.sourceoftruth.records.fieldtype.FieldTypes;
import org.sourceoftruth.records.fieldtype.InvalidValue;
import org.sourceoftruth.records.fieldtype.Lookup;
import org.sourceoftruth.records.fieldtype.LookupCompiler;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Translates the constraints of an object permission into SQL over a model's declarations.
 * Constraints are NetBox's: a JSON object of Django-style lookups ANDed together
 * ({@code {"tenant__slug": "acme", "status__in": ["active", "planned"]}}), or a list of such
 * objects ORed; {@code "$user"} stands for the requesting user's id. A path follows foreign
 * keys, many-to-many fields and tags ({@code site__region__name}, {@code tags__slug}), and
 * custom fields ({@code custom_field_data__<name>}); the last part may be a lookup.
 * The result is a predicate over alias {@code t}. A set that does not fit the model matches
 * nothing (the others still count); when none fits, {@link InvalidConstraint} says why and the
 * permission grants nothing on that model (see Access).
 */
@ApplicationScoped
public class ConstraintCompiler {
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(ConstraintCompiler.class);

    /** NetBox's CONSTRAINT_TOKEN_USER. */
    public static final String USER_TOKEN = "$user";

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
        InvalidConstraint firstProblem = null;
        for (JsonNode set : sets) {
            if (!set.isObject()) {
                firstProblem = firstProblem != null
                        ? firstProblem
                        : new InvalidConstraint("Constraints must be a JSON object or a list of JSON objects.");
                continue;
            }
            if (set.isEmpty()) {
                unrestricted = true; // an empty set matches everything; still check the others
                continue;
            }
            int paramsBefore = c.params.size();
            try {
                List<String> terms = new ArrayList<>();
                for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) set::fields) {
                    terms.add(c.path(model, "t", e.getKey().split("__", -1), 0, e.getValue()));
                }
                alternatives.add("(" + String.join(" and ", terms) + ")");
            } catch (InvalidConstraint e) {
                // this set matches nothing on the model; the other sets still count
                c.params.subList(paramsBefore, c.params.size()).clear();
                firstProblem = firstProblem != null ? firstProblem : e;
            }
        }
        if (unrestricted) {
            return null;
        }
        if (alternatives.isEmpty()) {
            throw firstProblem; // no set fits the model: the permission grants nothing on it
        }
        if (firstProblem != null) {
            LOG.warnf(
                    "permission constraints %s: a set does not fit %s and matches nothing: %s",
                    constraints, model.contentType(), firstProblem.getMessage());
        }
        return new ExtraFilter.Sql(String.join(" or ", alternatives), c.params);
    }

    /** State of one compilation: the parameters in SQL order and the next subquery alias. */
    private final class Compilation {
        final List<Object> params = new ArrayList<>();
        final LookupCompiler lookups = new LookupCompiler(params);
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
            String lookup =
                    rest == 0 ? "exact" : rest == 1 && Lookup.django(parts[i + 1]) != null ? parts[i + 1] : null;
            if (name.equals("pk")) {
                name = "id";
            }
            Field f = model.field(name);
            if (f == null) {
                f = fkByColumn(model, name);
            }
            if (f == null || (f.isWriteOnly() && !f.isUnrendered()) || f.isSecret()) {
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
                    String own = "exists (select 1 from " + f.joinTable() + " " + j + " where " + j + "."
                            + f.joinOwnColumn() + " = " + alias + ".id and ";
                    if (lookup != null) {
                        return own + compare(j + "." + f.joinTargetColumn(), Kind.INTEGER, name, lookup, value) + ")";
                    }
                    Model target = registry.require(f.target());
                    String a = alias();
                    return own + j + "." + f.joinTargetColumn() + " in (select " + a + ".id from " + target.table()
                            + " " + a + " where " + path(target, a, parts, i + 1, value) + "))";
                }
                case TAGS -> {
                    String j = alias();
                    params.add(model.contentType());
                    String own = "exists (select 1 from " + SystemTables.EXTRAS_TAGGEDITEM + " " + j + " where " + j
                            + ".object_type = ? and " + j + ".object_id = " + alias + ".id and ";
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
                case COUNT, COMPUTED, GENERIC_FK, JSON ->
                    throw new InvalidConstraint("Cannot resolve keyword '" + name + "' into field.");
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
                throw new InvalidConstraint(
                        "Custom field constraints take the form custom_field_data__<name>[__<lookup>].");
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

        /** {@code column <lookup> value} with Django's lookup semantics (see {@link LookupCompiler}). */
        private String compare(String column, Kind kind, String name, String lookupName, JsonNode value) {
            Lookup lookup = Lookup.django(lookupName);
            if (lookup == null) {
                throw new InvalidConstraint("Unsupported lookup '" + lookupName + "' for field '" + name + "'.");
            }
            FieldType type = FieldTypes.of(kind);
            try {
                if (lookup == Lookup.IN) {
                    if (!value.isArray()) {
                        throw new InvalidConstraint("Field '" + name + "': 'in' needs a list of values.");
                    }
                    List<LookupCompiler.Operand> values = new ArrayList<>();
                    value.forEach(v -> values.add(operand(name, v)));
                    return lookups.in(column, type, null, values);
                }
                return lookups.predicate(column, type, null, lookup, operand(name, value));
            } catch (InvalidValue e) { // a regular expression that does not compile
                throw new InvalidConstraint("Field '" + name + "': invalid regular expression.");
            }
        }

        /** A constraint's JSON value as a lookup operand; {@code $user} is the requesting user's id. */
        private LookupCompiler.Operand operand(String name, JsonNode raw) {
            JsonNode v = substitute(raw);
            return new LookupCompiler.Operand() {
                @Override
                public boolean isNull() {
                    return v.isNull();
                }

                @Override
                public String text() {
                    if (v.isContainerNode() || v.isNull()) {
                        throw single();
                    }
                    return v.asText();
                }

                @Override
                public List<String> texts() {
                    if (!v.isArray()) {
                        return List.of(text());
                    }
                    List<String> out = new ArrayList<>();
                    v.forEach(item -> out.add(operand(name, item).text()));
                    return out;
                }

                @Override
                public Object value(FieldType type, Field field) {
                    if (v.isContainerNode()) {
                        throw single();
                    }
                    try {
                        return type.parse(v, field);
                    } catch (InvalidValue e) {
                        throw new InvalidConstraint("Field '" + name + "' got an unusable value: " + v + ".");
                    }
                }

                @Override
                public boolean truth() {
                    return v.isBoolean()
                            ? v.asBoolean()
                            : v.isTextual() ? v.asText().equalsIgnoreCase("true") : v.asInt() != 0;
                }

                private InvalidConstraint single() {
                    return new InvalidConstraint("Field '" + name + "' expected a single value but got " + v + ".");
                }
            };
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
            if (f.kind == Kind.GENERIC_FK
                    && (column.equals(f.genericTypeColumn()) || column.equals(f.genericIdColumn()))) {
                return f;
            }
        }
        return null;
    }
}
