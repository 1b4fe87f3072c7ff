package org.sourceoftruth.records.fieldtype;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;

/**
 * Compiles one column lookup ({@code column <lookup> value}) to SQL, for list filters
 * ({@link #filter}) and permission constraints ({@link #predicate}, {@link #in}) alike: the
 * value is parsed by the column's {@link FieldType}, text lookups escape LIKE patterns, regular
 * expressions are checked before they reach the database. Bad values are {@link InvalidValue}s
 * that the caller words for its parameter or constraint.
 */
public final class LookupCompiler {

    /** One value a lookup compares with: a query-string value or a constraint's JSON value. */
    public interface Operand {
        /** The value means SQL null (exact matches test {@code is null}). */
        boolean isNull();

        /** The value as text, for pattern and case-insensitive lookups. */
        String text();

        /** The value as texts, for list columns (a list, or one value). */
        List<String> texts();

        /** The value parsed for a column of {@code type}. */
        Object value(FieldType type, Field field);

        /** The value as a truth value ({@code isnull}, {@code empty}). */
        boolean truth();
    }

    /** A list filter's query-string value; {@code "null"} is null. */
    public static Operand text(String raw) {
        return new Operand() {
            @Override
            public boolean isNull() {
                return raw.equals("null");
            }

            @Override
            public String text() {
                return raw;
            }

            @Override
            public List<String> texts() {
                return List.of(raw);
            }

            @Override
            public Object value(FieldType type, Field field) {
                return type.parse(raw, field);
            }

            @Override
            public boolean truth() {
                return BooleanType.parseFilter(raw);
            }
        };
    }

    private final List<Object> params;

    /** @param params where the compiled predicates' parameters go, in SQL order */
    public LookupCompiler(List<Object> params) {
        this.params = params;
    }

    /**
     * NetBox's list filter on a column: {@code suffix} is the filter's lookup ({@code null} for
     * the plain filter, {@code ic}, {@code n}, {@code nisw}, ...). Repeated values OR; negated
     * lookups exclude every value as Django's exclude() does (rows whose value is NULL stay).
     * Null when the column's kind does not take the lookup.
     */
    public static ExtraFilter.Sql filter(
            String column, FieldType type, Field field, String suffix, List<String> values) {
        if (suffix == null ? !type.filtersByValue() : !type.filterLookups().contains(suffix)) {
            return null;
        }
        Lookup.Filter lookup = Lookup.Filter.of(suffix);
        List<Object> params = new ArrayList<>();
        LookupCompiler compiler = new LookupCompiler(params);
        if (lookup.lookup() == Lookup.EMPTY) {
            String sql = compiler.predicate(column, type, field, Lookup.EMPTY, text(values.get(values.size() - 1)));
            return new ExtraFilter.Sql(sql, params);
        }
        List<String> parts = new ArrayList<>();
        for (String raw : values) {
            String p = compiler.predicate(column, type, field, lookup.lookup(), text(raw));
            parts.add(lookup.negated() ? "coalesce(not (" + p + "), true)" : p);
        }
        return new ExtraFilter.Sql(String.join(lookup.negated() ? " and " : " or ", parts), params);
    }

    /** {@code column <lookup> value}; {@link Lookup#IN} takes {@link #in}. */
    public String predicate(String column, FieldType type, Field field, Lookup lookup, Operand v) {
        switch (lookup) {
            case EXACT -> {
                if (v.isNull()) {
                    return column + " is null";
                }
                params.add(type.isList() ? new Db.SqlArray("text", v.texts()) : type.bind(v.value(type, field)));
                return column + " = ?";
            }
            case ISNULL -> {
                return column + (v.truth() ? " is null" : " is not null");
            }
            case EMPTY -> {
                String empty = type.isText() ? "(" + column + " is null or " + column + " = '')" : column + " is null";
                return v.truth() ? empty : "not " + empty;
            }
            case IEXACT -> {
                params.add(v.text());
                return "lower(" + text(column, type) + ") = lower(?)";
            }
            case CONTAINS -> {
                if (type.isList()) {
                    params.add(new Db.SqlArray("text", v.texts()));
                    return column + " @> ?";
                }
                params.add("%" + like(v.text()) + "%");
                return text(column, type) + " like ?";
            }
            case ICONTAINS, STARTSWITH, ISTARTSWITH, ENDSWITH, IENDSWITH -> {
                String pattern = like(v.text());
                boolean starts = lookup == Lookup.STARTSWITH || lookup == Lookup.ISTARTSWITH;
                boolean ends = lookup == Lookup.ENDSWITH || lookup == Lookup.IENDSWITH;
                params.add((starts ? "" : "%") + pattern + (ends ? "" : "%"));
                boolean caseless = lookup != Lookup.STARTSWITH && lookup != Lookup.ENDSWITH;
                return text(column, type) + (caseless ? " ilike ?" : " like ?");
            }
            case REGEX, IREGEX -> {
                String regex = v.text();
                try {
                    Pattern.compile(regex);
                } catch (PatternSyntaxException e) {
                    throw InvalidValue.pattern(e.getDescription());
                }
                params.add(regex);
                return text(column, type) + (lookup == Lookup.REGEX ? " ~ ?" : " ~* ?");
            }
            case LT, LTE, GT, GTE -> {
                params.add(type.bind(v.value(type, field)));
                String op = switch (lookup) {
                    case LT -> "<";
                    case LTE -> "<=";
                    case GT -> ">";
                    default -> ">=";
                };
                return column + " " + op + " ?";
            }
            default -> throw new IllegalArgumentException(lookup + " takes a list of values");
        }
    }

    /** {@code column in (values)}; no value matches nothing. */
    public String in(String column, FieldType type, Field field, List<Operand> values) {
        if (values.isEmpty()) {
            return "false";
        }
        List<String> marks = new ArrayList<>();
        for (Operand v : values) {
            marks.add("?");
            params.add(type.bind(v.value(type, field)));
        }
        return column + " in (" + String.join(", ", marks) + ")";
    }

    /** A column compared as text: text kinds as they are, others cast. */
    private static String text(String column, FieldType type) {
        return type.isText() ? column : column + "::text";
    }

    /** A LIKE pattern matching {@code s} literally. */
    public static String like(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
