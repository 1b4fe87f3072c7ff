package org.sourceoftruth.records.graphql;

import static org.sourceoftruth.records.graphql.LookupInputs.field;

import graphql.Scalars;
import graphql.schema.GraphQLInputObjectType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ExtraFilter;

/**
 * NetBox's lookups of two JSON lists here: a VLAN group's {@code vid_ranges}
 * ({@code IntegerRangeArrayLookup {contains}}: a range holds the VLAN ID) and a choice set's
 * {@code extra_choices} ({@code ExtraChoicesLookup {contains, length}}: a choice has the value,
 * there are so many choices).
 */
final class JsonLookups {
    static final String RANGES = "IntegerRangeArrayLookup";
    static final String CHOICES = "ExtraChoicesLookup";

    private JsonLookups() {}

    static List<GraphQLInputObjectType> types() {
        return List.of(
                GraphQLInputObjectType.newInputObject()
                        .name(RANGES)
                        .field(field("contains", Scalars.GraphQLInt))
                        .build(),
                GraphQLInputObjectType.newInputObject()
                        .name(CHOICES)
                        .field(field("contains", Scalars.GraphQLString))
                        .field(field("length", Scalars.GraphQLInt))
                        .build());
    }

    /** The predicate of one of these lookups on the column (a jsonb list over alias {@code t}), or null for another lookup. */
    static ExtraFilter.Sql sql(String lookup, String column, String name, Map<String, Object> filter) {
        if (!lookup.equals(RANGES) && !lookup.equals(CHOICES)) {
            return null;
        }
        List<String> terms = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        String list = "(case when jsonb_typeof(t." + column + ") = 'array' then t." + column + " else '[]' end)";
        for (Map.Entry<String, Object> e : filter.entrySet()) {
            Object v = e.getValue();
            if (v == null) {
                continue;
            }
            switch (lookup + "." + e.getKey()) {
                case RANGES + ".contains" -> {
                    terms.add("exists (select 1 from jsonb_array_elements(" + list + ") r where jsonb_typeof(r) ="
                            + " 'array' and (r->>0)::bigint <= ? and ? <= (r->>1)::bigint)");
                    params.add(number(name, v));
                    params.add(number(name, v));
                }
                case CHOICES + ".contains" -> {
                    terms.add("exists (select 1 from jsonb_array_elements(" + list + ") c where jsonb_typeof(c) ="
                            + " 'array' and c->>0 = ?)");
                    params.add(String.valueOf(v));
                }
                case CHOICES + ".length" -> {
                    terms.add("jsonb_array_length(" + list + ") = ?");
                    params.add(number(name, v));
                }
                default ->
                    throw new FilterTranslator.BadFilter(
                            "Lookup '" + e.getKey() + "' on '" + name + "' is not supported.");
            }
        }
        return new ExtraFilter.Sql(terms.isEmpty() ? "true" : String.join(" and ", terms), params);
    }

    private static long number(String name, Object v) {
        if (v instanceof Number n) {
            return n.longValue();
        }
        throw new FilterTranslator.BadFilter("Filter '" + name + "' takes a number.");
    }
}
