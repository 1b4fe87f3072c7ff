package org.sourceoftruth.records.engine.query;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.fieldtype.RelationLookups;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.RelationFilter;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.net.Cidr;

/**
 * List filters over relations, for {@link FilterCompiler}: a foreign key by the target's slug
 * (or name) or id, tree targets matching their descendants; a {@link RelationFilter}'s path;
 * object types by id; and the check that given keys name existing rows (NetBox's
 * ModelChoiceFilter answers 400 for any other).
 */
@ApplicationScoped
class RelationFilters implements RelationLookups {
    @Inject
    ModelRegistry registry;

    /** Values of a filter that must name existing rows (NetBox's ModelChoiceFilter): a 400 for any other. */
    static void requireExisting(Db db, String table, String column, Kind kind, List<Object> values) {
        List<Object> wanted =
                values.stream().filter(v -> v != null && !"null".equals(v)).toList();
        if (wanted.isEmpty()) {
            return;
        }
        Set<String> found = new LinkedHashSet<>();
        db.query(
                        "select " + column + "::text as k from " + table + " where " + column + " = any(?)",
                        new Db.SqlArray(kind == Kind.INTEGER ? "bigint" : "text", wanted))
                .forEach(r -> found.add(r.str("k")));
        for (Object v : wanted) {
            if (!found.contains(v.toString())) {
                throw FilterCompiler.FilterError.notAChoice(v);
            }
        }
    }

    /** {@code object_type_id} for {@code object_types}, {@code changed_object_type_id} for a generic relation's type. */
    static String objectTypeIdFilter(Field f) {
        String names = f.kind == Kind.GENERIC_FK ? f.genericTypeColumn() : f.name;
        return (f.kind == Kind.STRING_LIST && names.endsWith("s") ? names.substring(0, names.length() - 1) : names)
                + "_id";
    }

    /**
     * NetBox's filters on object types by id ({@code object_type_id}, {@code changed_object_type_id},
     * and {@code object_types} itself on tags and permissions). Object-type ids are the ids of
     * core/object-types (one row per declared model, written at start-up, see core's
     * ObjectTypeCatalog): an id is resolved to its {@code app_label.model} there, an id naming no
     * object type is a 400 (NetBox's ModelMultipleChoiceFilter), {@code null} matches objects
     * without one. On {@code object_types} a type name ("dcim.site") is also accepted, as this
     * service always did.
     */
    static ExtraFilter.Sql objectTypes(Db db, Field f, boolean byName, String lookup, List<String> values) {
        String col = "t." + (f.kind == Kind.GENERIC_FK ? f.genericTypeColumn() : f.column());
        boolean list = f.kind == Kind.STRING_LIST;
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        List<Object> ids = new ArrayList<>();
        for (String v : values) {
            if (v.equals("null")) {
                parts.add(list ? "coalesce(cardinality(" + col + "), 0) = 0" : col + " is null");
            } else if (!byName || v.trim().matches("\\d+")) {
                ids.add(FilterCompiler.parse(Kind.INTEGER, v, null));
            } else {
                parts.add(list ? "? = any(" + col + ")" : col + " = ?");
                params.add(v);
            }
        }
        if (!ids.isEmpty()) {
            requireExisting(db, SystemTables.CORE_OBJECTTYPE, "id", Kind.INTEGER, ids);
            String names = "select o.app_label || '.' || o.model from " + SystemTables.CORE_OBJECTTYPE
                    + " o where o.id = any(?)";
            parts.add(list ? col + " && array(" + names + ")" : col + " in (" + names + ")");
            params.add(new Db.SqlArray("bigint", ids));
        }
        String sql = String.join(" or ", parts);
        return new ExtraFilter.Sql("n".equals(lookup) ? "coalesce(not (" + sql + "), true)" : sql, params);
    }

    /**
     * A {@link RelationFilter}: the path's fields are followed from the object (each foreign key
     * or many-to-many a subquery over the next model, alias t shadowing the outer one), the last
     * one compared with the ids of the target objects having one of the given keys.
     */
    ExtraFilter.Sql relation(Db db, Model model, RelationFilter relation, String lookup, List<String> values) {
        List<Field> hops = new ArrayList<>();
        List<Model> owners = new ArrayList<>();
        Model current = model;
        for (String name : relation.path()) {
            Field hop = current.field(name);
            if (hop == null || (hop.kind != Kind.FK && hop.kind != Kind.M2M)) {
                throw new IllegalStateException(model.contentType() + ": relation filter " + relation.name()
                        + " does not follow a relation at " + name);
            }
            owners.add(current);
            hops.add(hop);
            current = registry.require(hop.target());
        }
        Model target = current;
        String key = relation.key();
        Kind keyKind = key.equals("id") ? Kind.INTEGER : target.field(key).kind;
        List<Object> wanted = new ArrayList<>();
        for (String v : values) {
            if (!v.equals("null")) {
                Object parsed = FilterCompiler.parse(keyKind, v, null);
                wanted.add(parsed instanceof Cidr.Parsed p ? p.text() : parsed);
            }
        }
        boolean network = keyKind == Kind.INET || keyKind == Kind.CIDR;
        String keyIn =
                network ? key + " = any(?::" + keyKind.name().toLowerCase(Locale.ROOT) + "[])" : key + " = any(?)";
        Db.SqlArray keys = new Db.SqlArray(keyKind == Kind.INTEGER ? "bigint" : "text", wanted);
        if (!wanted.isEmpty()) {
            Set<String> found = new LinkedHashSet<>();
            List<Long> ids = new ArrayList<>();
            for (Row r :
                    db.query("select id, " + key + "::text as k from " + target.table() + " where " + keyIn, keys)) {
                found.add(r.str("k"));
                ids.add(r.id());
            }
            List<String> given = values.stream().filter(v -> !v.equals("null")).toList();
            Set<String> unmatched = new LinkedHashSet<>();
            for (int i = 0; i < wanted.size(); i++) {
                if (!found.contains(wanted.get(i).toString())) {
                    unmatched.add(given.get(i));
                }
            }
            if (!unmatched.isEmpty()) {
                if (keyKind == Kind.INTEGER || network) {
                    throw FilterCompiler.FilterError.notAChoice(
                            unmatched.iterator().next());
                }
                // a name filter takes ids as well (see idsOfTheRest); the match is then by id
                ids.addAll(idsOfTheRest(db, target, List.copyOf(unmatched), Set.of()));
                keyIn = "id = any(?)";
                keys = new Db.SqlArray("bigint", ids);
            }
        }
        Field last = hops.get(hops.size() - 1);
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        String ids = "select id from " + target.table() + " where " + keyIn;
        if (!wanted.isEmpty()) {
            parts.add(
                    last.kind == Kind.FK
                            ? "t." + last.column() + " in (" + ids + ")"
                            : "t.id in (select " + last.joinOwnColumn() + " from " + last.joinTable() + " where "
                                    + last.joinTargetColumn() + " in (" + ids + "))");
            params.add(keys);
        }
        if (values.contains("null")) {
            parts.add(
                    last.kind == Kind.FK
                            ? "t." + last.column() + " is null"
                            : "not exists (select 1 from " + last.joinTable() + " j where j." + last.joinOwnColumn()
                                    + " = t.id)");
        }
        String sql = String.join(" or ", parts);
        for (int i = hops.size() - 2; i >= 0; i--) {
            Field hop = hops.get(i);
            String next = registry.require(hop.target()).table();
            sql = hop.kind == Kind.FK
                    ? "t." + hop.column() + " in (select t.id from " + next + " t where " + sql + ")"
                    : "t.id in (select j." + hop.joinOwnColumn() + " from " + hop.joinTable() + " j where j."
                            + hop.joinTargetColumn() + " in (select t.id from " + next + " t where " + sql + "))";
            if (values.contains("null")) {
                // Django's isnull through a join is a left join: no object at this hop matches too
                // (a rack without a rack type has no manufacturer)
                sql = "(" + sql + ") or "
                        + (hop.kind == Kind.FK
                                ? "t." + hop.column() + " is null"
                                : "not exists (select 1 from " + hop.joinTable() + " j where j." + hop.joinOwnColumn()
                                        + " = t.id)");
            }
        }
        return new ExtraFilter.Sql("n".equals(lookup) ? "coalesce(not (" + sql + "), true)" : sql, params);
    }

    /** FK given by slug (or name for models without slugs); tree targets match descendants. */
    @Override
    public ExtraFilter.Sql byKey(Db db, Field field, String lookup, List<String> values) {
        Model target = registry.require(field.target());
        if (target.field("slug") == null && target.field("name") == null) {
            return null; // no natural key (e.g. IP addresses): only the _id form filters
        }
        String key = target.field("slug") != null ? "slug" : "name";
        List<String> wanted = values.stream().filter(v -> !v.equals("null")).toList();
        List<Long> ids = new ArrayList<>();
        if (!wanted.isEmpty()) {
            Set<String> found = new LinkedHashSet<>();
            for (Row r : db.query(
                    "select id, " + key + " as k from " + target.table() + " where " + key + " = any(?)",
                    new Db.SqlArray("text", wanted))) {
                found.add(r.str("k"));
                ids.add(r.id());
            }
            ids.addAll(idsOfTheRest(db, target, wanted, found));
        }
        if (target.treeParent() == null) {
            return fkPredicate(field, lookup, values, Db.idMatch("t." + field.column(), ids));
        }
        return fkPredicate(
                field,
                lookup,
                values,
                new Db.Select(
                        "t." + field.column() + " in (" + descendants(target, "id") + ")",
                        List.of(new Db.SqlArray("bigint", ids))));
    }

    /**
     * The values that named no object by key, as ids: NetBox's clients send a relation's id under
     * its name (Ansible's modules send {@code device_type=1}, {@code contact=4}), and where
     * NetBox's filterset has no such filter it ignores the parameter; here the filter exists, so
     * it takes the id too. A value that is neither a key nor an existing id is NetBox's 400.
     */
    private static List<Long> idsOfTheRest(Db db, Model target, List<String> wanted, Set<String> found) {
        List<String> rest = wanted.stream().filter(v -> !found.contains(v)).toList();
        if (rest.isEmpty()) {
            return List.of();
        }
        List<Long> numbers = new ArrayList<>();
        for (String v : rest) {
            if (!v.matches("[0-9]{1,18}")) {
                throw FilterCompiler.FilterError.notAChoice(v);
            }
            numbers.add(Long.parseLong(v));
        }
        Set<Long> existing = new LinkedHashSet<>();
        db.query("select id from " + target.table() + " where id = any(?)", new Db.SqlArray("bigint", numbers))
                .forEach(r -> existing.add(r.id()));
        for (int i = 0; i < rest.size(); i++) {
            if (!existing.contains(numbers.get(i))) {
                throw FilterCompiler.FilterError.notAChoice(rest.get(i));
            }
        }
        return List.copyOf(existing);
    }

    /** FK given by id; tree targets match descendants. */
    @Override
    public ExtraFilter.Sql byId(Db db, Field field, String lookup, List<String> values) {
        Model target = registry.require(field.target());
        List<Long> wanted = new ArrayList<>();
        for (String v : values) {
            if (!v.equals("null")) {
                wanted.add((Long) FilterCompiler.parse(Kind.INTEGER, v, null));
            }
        }
        if (!wanted.isEmpty()) {
            Set<Long> found = new LinkedHashSet<>();
            db.query("select id from " + target.table() + " where id = any(?)", new Db.SqlArray("bigint", wanted))
                    .forEach(r -> found.add(r.id()));
            for (Long v : wanted) {
                if (!found.contains(v)) {
                    throw FilterCompiler.FilterError.notAChoice(v);
                }
            }
        }
        return fkPredicate(
                field,
                lookup,
                values,
                target.treeParent() == null
                        ? Db.idMatch("t." + field.column(), wanted)
                        : new Db.Select(
                                "t." + field.column() + " in (" + descendants(target, "id") + ")",
                                List.of(new Db.SqlArray("bigint", wanted))));
    }

    private static String descendants(Model tree, String key) {
        String parentCol = tree.field(tree.treeParent()).column();
        return "with recursive d(id) as (select id from " + tree.table() + " where " + key + " = any(?)"
                + " union select c.id from " + tree.table() + " c join d on c." + parentCol
                + " = d.id) select id from d";
    }

    /**
     * The FK filter: the column matches (non-tree targets match the ids the filter's validation
     * found, bound as ids: a subquery by slug made PostgreSQL's generic plan worse than a custom
     * one, so each request was planned anew), and/or is null for the value "null".
     *
     * @param match the condition on the FK column for the values other than "null"
     */
    private static ExtraFilter.Sql fkPredicate(Field field, String lookup, List<String> values, Db.Select match) {
        boolean wantsNull = values.contains("null");
        boolean hasValues = values.stream().anyMatch(v -> !v.equals("null"));
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        if (hasValues) {
            parts.add(match.sql());
            params.addAll(match.params());
        }
        if (wantsNull) {
            parts.add("t." + field.column() + " is null");
        }
        String sql = String.join(" or ", parts);
        if ("n".equals(lookup)) {
            sql = "coalesce(not (" + sql + "), true)";
        }
        return new ExtraFilter.Sql(sql, params);
    }
}
