package org.sourceoftruth.records.model;

import java.util.List;

/**
 * A filter that is not a plain field filter (NetBox filtersets' "method" filters), e.g.
 * {@code within_include} on prefixes. It gets no lookup suffixes but {@code __n} (derived).
 *
 * @param name      query parameter name
 * @param valueKind how each value is parsed and validated (INTEGER, STRING, BOOLEAN, CIDR, ...)
 * @param predicate builds the SQL predicate for the parsed values (ORed by the predicate itself)
 * @param choices   when not null, every value must name an existing row (NetBox's
 *                  ModelChoiceFilter): an unknown one is a 400, not an empty answer
 */
public record ExtraFilter(String name, Kind valueKind, Predicate predicate, Choices choices) {

    public ExtraFilter(String name, Kind valueKind, Predicate predicate) {
        this(name, valueKind, predicate, null);
    }

    /** The same filter, its values required to be {@code column} of a row of {@code table}. */
    public ExtraFilter choicesFrom(String table, String column) {
        return new ExtraFilter(name, valueKind, predicate, new Choices(table, column));
    }

    /** Where the valid values of a filter live. */
    public record Choices(String table, String column) {}

    @FunctionalInterface
    public interface Predicate {
        /** @param alias table alias of the model in the query; values already parsed */
        Sql build(String alias, List<Object> values);
    }

    /** A SQL fragment with its positional parameters. */
    public record Sql(String sql, List<Object> params) {
        public static Sql of(String sql, Object... params) {
            return new Sql(sql, List.of(params));
        }
    }
}
