package org.sourceoftruth.records.model;

import java.util.List;

/**
 * A filter that is not a plain field filter (NetBox filtersets' "method" filters), e.g.
 * {@code within_include} on prefixes. It gets no lookup suffixes.
 *
 * @param name      query parameter name
 * @param valueKind how each value is parsed and validated (INTEGER, STRING, BOOLEAN, CIDR, ...)
 * @param predicate builds the SQL predicate for the parsed values (ORed by the predicate itself)
 */
public record ExtraFilter(String name, Kind valueKind, Predicate predicate) {

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
