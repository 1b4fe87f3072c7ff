package org.sourceoftruth.records.fieldtype;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * One list filter a field answers, as its kind declares it ({@link FieldType#filters}):
 * NetBox's parameter name (lookups follow as {@code __<suffix>}), what one value is, the lookups
 * it takes and how it compiles. FilterCompiler compiles and FilterCatalog documents the same
 * declarations, so the two cannot drift.
 *
 * @param owner       the field that declares the filter
 * @param valueKind   what one value is
 * @param choices     the values a choice takes, else null
 * @param lookups     the filter's lookup suffixes ({@code n}, {@code ic}, ...)
 * @param keyedTarget when set, values name objects of this model by slug or name, and the filter
 *                    exists only when that model has one
 */
public record FieldFilter(
        String name,
        Field owner,
        Kind valueKind,
        ChoiceSet choices,
        List<String> lookups,
        String keyedTarget,
        Compiler compiler) {

    /** Compiles the filter's values; null when it does not take the lookup. */
    @FunctionalInterface
    public interface Compiler {
        ExtraFilter.Sql compile(Db db, RelationLookups relations, String lookup, List<String> values);
    }

    /** A filter comparing {@code sql} (a column or expression over alias t) as a value of {@code kind}. */
    static FieldFilter column(String name, Field owner, String sql, Kind kind, Field valueField, ChoiceSet choices) {
        FieldType type = FieldTypes.of(kind);
        return new FieldFilter(
                name,
                owner,
                kind,
                choices,
                type.filterLookups(),
                null,
                (db, relations, lookup, values) -> LookupCompiler.filter(sql, type, valueField, lookup, values));
    }

    /**
     * The filters the model's fields answer, by parameter name. A field's own name is its own
     * filter; other names (a relation's {@code _id}, a list's singular) only where no filterable
     * field has that name.
     */
    public static Map<String, FieldFilter> byName(Model model) {
        Map<String, FieldFilter> out = new LinkedHashMap<>();
        for (Field f : model.fields()) {
            for (FieldFilter filter : FieldTypes.of(f).filters(f)) {
                if (filter.name.equals(f.name)) {
                    out.put(filter.name, filter);
                }
            }
        }
        for (Field f : model.fields()) {
            for (FieldFilter filter : FieldTypes.of(f).filters(f)) {
                Field named = model.field(filter.name);
                if (named == null || !named.isFilterable()) {
                    out.putIfAbsent(filter.name, filter);
                }
            }
        }
        return Collections.unmodifiableMap(out);
    }
}
