package org.sourceoftruth.records.fieldtype;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;

/**
 * STRING_LIST: a text[] column of plain strings. Its list filters (an element equals, or with a
 * lookup on the singular name, some element matches) are FilterCompiler's array filters.
 */
public final class StringListType extends ListValuedType {

    @Override
    Object item(Field f, JsonNode item) {
        if (!item.isTextual()) {
            throw new InvalidValue("Not a valid string.");
        }
        return item.asText();
    }

    /**
     * {@code object_types=dcim.site}: some element equals a value; on the singular name
     * ({@code object_type__ic}) NetBox's text lookups on the elements.
     */
    @Override
    public List<FieldFilter> filters(Field f) {
        if (!f.isFilterable()) {
            return List.of();
        }
        FieldFilter byName = new FieldFilter(
                f.name,
                f,
                Kind.STRING,
                null,
                List.of(),
                null,
                (db, relations, lookup, values) -> lookup == null ? anyElement(f.column(), values) : null);
        if (!f.name.endsWith("s")) {
            return List.of(byName);
        }
        List<String> elementLookups =
                Lookup.TEXT_FILTERS.stream().filter(l -> !l.equals("empty")).toList();
        return List.of(
                byName,
                new FieldFilter(
                        f.name.substring(0, f.name.length() - 1),
                        f,
                        Kind.STRING,
                        null,
                        elementLookups,
                        null,
                        (db, relations, lookup, values) -> lookup == null
                                ? anyElement(f.column(), values)
                                : elementLookup(f.column(), lookup, values)));
    }

    /** Some element equals one of the values. */
    private static ExtraFilter.Sql anyElement(String column, List<String> values) {
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (String v : values) {
            parts.add("? = any(t." + column + ")");
            params.add(v);
        }
        return new ExtraFilter.Sql(String.join(" or ", parts), params);
    }

    /** A text lookup on the elements: some element matches; negated lookups: no element matches. */
    private static ExtraFilter.Sql elementLookup(String column, String lookup, List<String> values) {
        Lookup.Filter parsed = Lookup.Filter.of(lookup);
        if (parsed == null || parsed.lookup() == Lookup.EMPTY) {
            return null;
        }
        String positive =
                parsed.negated() && !lookup.equals("n") ? lookup.substring(1) : parsed.negated() ? null : lookup;
        ExtraFilter.Sql any = LookupCompiler.filter("e.v", FieldTypes.TEXT, null, positive, values);
        if (any == null) {
            return null;
        }
        String sql = "exists (select 1 from unnest(t." + column + ") e(v) where " + any.sql() + ")";
        return new ExtraFilter.Sql(parsed.negated() ? "not " + sql : sql, any.params());
    }

    @Override
    public Schema schema() {
        return Schemas.array(FieldTypes.TEXT.schema());
    }
}
