package org.sourceoftruth.records.graphql;

import static graphql.Scalars.GraphQLBoolean;
import static graphql.Scalars.GraphQLFloat;
import static graphql.Scalars.GraphQLID;
import static graphql.Scalars.GraphQLInt;
import static graphql.Scalars.GraphQLString;

import graphql.schema.GraphQLInputObjectType;
import graphql.schema.GraphQLInputType;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNonNull;
import graphql.schema.GraphQLTypeReference;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.model.Field;

/**
 * The input types every model's filter shares, as NetBox's schema names them: the lookup objects
 * of each kind of value ({@code StrFilterLookup}, {@code IntComparisonFilterLookup},
 * {@code DatetimeFilterLookup}, ...), custom field data's {@code JSONFilter} and the
 * {@code OffsetPaginationInput} of every list.
 */
final class LookupInputs {
    static final String ID = "IDComparisonFilterLookup";
    static final String STR = "StrFilterLookup";
    static final String BOOL = "BoolFilterLookup";
    static final String INT_FILTER = "IntFilterLookup";
    static final String INTEGER = "IntegerLookup";
    static final String BIG_INTEGER = "BigIntegerLookup";
    static final String FLOAT = "FloatLookup";
    static final String DATE = "DateFilterLookup";
    static final String DATETIME = "DatetimeFilterLookup";
    static final String JSON = "JSONFilter";
    static final String STRING_ARRAY = "StringArrayLookup";
    static final String INTEGER_ARRAY = "IntegerArrayLookup";
    static final String PAGINATION = "OffsetPaginationInput";

    private static final List<String> TEXT_LOOKUPS = List.of(
            "i_exact",
            "contains",
            "i_contains",
            "starts_with",
            "i_starts_with",
            "ends_with",
            "i_ends_with",
            "regex",
            "i_regex");
    private static final List<String> DATE_PARTS =
            List.of("year", "month", "day", "week_day", "iso_week_day", "week", "iso_year", "quarter");
    private static final List<String> TIME_PARTS = List.of("hour", "minute", "second");

    private LookupInputs() {}

    /** The lookup input a field of this kind filters with, or null when NetBox offers none. */
    static String of(Field f) {
        if (f.name.equals("id")) {
            return ID;
        }
        return switch (f.kind) {
            case STRING, SLUG, INET, CIDR, IMAGE -> STR;
            case BOOLEAN -> BOOL;
            case INTEGER -> isBig(f) ? BIG_INTEGER : INTEGER;
            case COUNT -> INT_FILTER;
            case DECIMAL -> FLOAT;
            case DATE -> DATE;
            case DATETIME -> DATETIME;
            case JSON, CUSTOM_FIELDS -> JSON;
            case STRING_LIST -> STRING_ARRAY;
            case INTEGER_LIST -> INTEGER_ARRAY;
            default -> null;
        };
    }

    /** A whole number that may not fit GraphQL's 32-bit Int (an AS number, a speed in kbps). */
    static boolean isBig(Field f) {
        return f.maxValue() == null || f.maxValue().longValue() > Integer.MAX_VALUE;
    }

    /** Every shared lookup input and what it refers to. */
    static List<graphql.schema.GraphQLNamedType> all() {
        List<graphql.schema.GraphQLNamedType> out = new ArrayList<>();
        out.add(range("IDRangeLookup", GraphQLID));
        out.add(comparison(ID, GraphQLID, "IDRangeLookup"));
        out.add(text(STR, GraphQLString));
        out.add(text(BOOL, GraphQLBoolean));
        out.add(text(INT_FILTER, GraphQLInt));
        out.add(range("IntRangeLookup", GraphQLInt));
        out.add(comparison("IntComparisonFilterLookup", GraphQLInt, "IntRangeLookup"));
        out.add(wrapper(INTEGER, INT_FILTER, "IntRangeLookup", "IntComparisonFilterLookup"));
        out.add(text("BigIntFilterLookup", GraphqlScalars.BIG_INT));
        out.add(range("BigIntRangeLookup", GraphqlScalars.BIG_INT));
        out.add(comparison("BigIntComparisonFilterLookup", GraphqlScalars.BIG_INT, "BigIntRangeLookup"));
        out.add(wrapper(BIG_INTEGER, "BigIntFilterLookup", "BigIntRangeLookup", "BigIntComparisonFilterLookup"));
        out.add(text("FloatFilterLookup", GraphQLFloat));
        out.add(range("FloatRangeLookup", GraphQLFloat));
        out.add(comparison("FloatComparisonFilterLookup", GraphQLFloat, "FloatRangeLookup"));
        out.add(wrapper(FLOAT, "FloatFilterLookup", "FloatRangeLookup", "FloatComparisonFilterLookup"));
        out.add(range("DateRangeLookup", GraphqlScalars.DATE));
        out.add(comparison("DateComparisonFilterLookup", GraphqlScalars.DATE, "DateRangeLookup"));
        out.add(parts(comparisonBuilder(DATE, GraphqlScalars.DATE, "DateRangeLookup"), DATE_PARTS)
                .build());
        out.add(range("TimeRangeLookup", GraphqlScalars.TIME));
        out.add(comparison("TimeComparisonFilterLookup", GraphqlScalars.TIME, "TimeRangeLookup"));
        out.add(range("DatetimeRangeLookup", GraphqlScalars.DATE_TIME));
        out.add(parts(
                        parts(comparisonBuilder(DATETIME, GraphqlScalars.DATE_TIME, "DatetimeRangeLookup"), DATE_PARTS),
                        TIME_PARTS)
                .field(field("date", ref("DateComparisonFilterLookup")))
                .field(field("time", ref("TimeComparisonFilterLookup")))
                .build());
        out.add(range("StrRangeLookup", GraphQLString));
        out.add(parts(comparisonBuilder("StrDateFilterLookup", GraphQLString, "StrRangeLookup"), DATE_PARTS)
                .build());
        out.add(parts(
                        parts(
                                comparisonBuilder("StrDatetimeFilterLookup", GraphQLString, "StrRangeLookup"),
                                DATE_PARTS),
                        TIME_PARTS)
                .field(field("date", ref("IntComparisonFilterLookup")))
                .field(field("time", ref("IntComparisonFilterLookup")))
                .build());
        out.add(parts(comparisonBuilder("StrTimeFilterLookup", GraphQLString, "StrRangeLookup"), TIME_PARTS)
                .field(field("date", ref("IntComparisonFilterLookup")))
                .field(field("time", ref("IntComparisonFilterLookup")))
                .build());
        GraphQLInputObjectType.Builder jsonString =
                GraphQLInputObjectType.newInputObject().name("JSONStringLookup").field(field("exact", GraphQLString));
        for (String l : TEXT_LOOKUPS) {
            jsonString.field(field(l, GraphQLString));
        }
        out.add(jsonString
                .field(field("in_", GraphQLList.list(GraphQLNonNull.nonNull(GraphQLString))))
                .field(field("isnull", GraphQLBoolean))
                .build());
        out.add(GraphQLInputObjectType.newInputObject()
                .name("JSONLookup")
                .field(field("string_lookup", ref("JSONStringLookup")))
                .field(field("int_range_lookup", ref("IntRangeLookup")))
                .field(field("int_comparison_lookup", ref("IntComparisonFilterLookup")))
                .field(field("float_range_lookup", ref("FloatRangeLookup")))
                .field(field("float_comparison_lookup", ref("FloatComparisonFilterLookup")))
                .field(field("date_lookup", ref("StrDateFilterLookup")))
                .field(field("datetime_lookup", ref("StrDatetimeFilterLookup")))
                .field(field("time_lookup", ref("StrTimeFilterLookup")))
                .field(field("boolean_lookup", ref(BOOL)))
                .build());
        out.add(GraphQLInputObjectType.newInputObject()
                .name(JSON)
                .field(field("path", GraphQLNonNull.nonNull(GraphQLString)))
                .field(field("lookup", GraphQLNonNull.nonNull(ref("JSONLookup"))))
                .build());
        out.add(arrayLookup(STRING_ARRAY, GraphQLString));
        out.add(arrayLookup(INTEGER_ARRAY, GraphQLInt));
        out.add(GraphQLInputObjectType.newInputObject()
                .name(PAGINATION)
                .field(field("offset", GraphQLNonNull.nonNull(GraphQLInt)))
                .field(field("limit", GraphQLInt))
                .field(field("start", GraphQLInt))
                .build());
        return out;
    }

    /** {@code exact}, {@code is_null}, {@code in_list} of a choice field's enum. */
    static GraphQLInputObjectType choice(String name, GraphQLTypeReference values) {
        return GraphQLInputObjectType.newInputObject()
                .name(name)
                .field(field("exact", values))
                .field(field("is_null", GraphQLBoolean))
                .field(field("in_list", GraphQLList.list(GraphQLNonNull.nonNull(values))))
                .build();
    }

    private static GraphQLInputObjectType text(String name, GraphQLInputType type) {
        GraphQLInputObjectType.Builder b = GraphQLInputObjectType.newInputObject()
                .name(name)
                .field(field("exact", type))
                .field(field("is_null", GraphQLBoolean))
                .field(field("in_list", GraphQLList.list(GraphQLNonNull.nonNull(type))));
        for (String l : TEXT_LOOKUPS) {
            b.field(field(l, type));
        }
        return b.build();
    }

    private static GraphQLInputObjectType comparison(String name, GraphQLInputType type, String range) {
        return comparisonBuilder(name, type, range).build();
    }

    private static GraphQLInputObjectType.Builder comparisonBuilder(String name, GraphQLInputType type, String range) {
        return GraphQLInputObjectType.newInputObject()
                .name(name)
                .field(field("exact", type))
                .field(field("is_null", GraphQLBoolean))
                .field(field("in_list", GraphQLList.list(GraphQLNonNull.nonNull(type))))
                .field(field("gt", type))
                .field(field("gte", type))
                .field(field("lt", type))
                .field(field("lte", type))
                .field(field("range", ref(range)));
    }

    private static GraphQLInputObjectType.Builder parts(GraphQLInputObjectType.Builder b, List<String> parts) {
        for (String p : parts) {
            b.field(field(p, ref("IntComparisonFilterLookup")));
        }
        return b;
    }

    private static GraphQLInputObjectType range(String name, GraphQLInputType type) {
        return GraphQLInputObjectType.newInputObject()
                .name(name)
                .field(field("start", type))
                .field(field("end", type))
                .build();
    }

    private static GraphQLInputObjectType wrapper(String name, String filter, String range, String comparison) {
        return GraphQLInputObjectType.newInputObject()
                .name(name)
                .field(field("filter_lookup", ref(filter)))
                .field(field("range_lookup", ref(range)))
                .field(field("comparison_lookup", ref(comparison)))
                .build();
    }

    private static GraphQLInputObjectType arrayLookup(String name, GraphQLInputType type) {
        GraphQLInputType list = GraphQLList.list(GraphQLNonNull.nonNull(type));
        return GraphQLInputObjectType.newInputObject()
                .name(name)
                .field(field("contains", list))
                .field(field("contained_by", list))
                .field(field("overlap", list))
                .field(field("length", GraphQLInt))
                .build();
    }

    static graphql.schema.GraphQLInputObjectField field(String name, GraphQLInputType type) {
        return graphql.schema.GraphQLInputObjectField.newInputObjectField()
                .name(name)
                .type(type)
                .build();
    }

    static GraphQLTypeReference ref(String name) {
        return GraphQLTypeReference.typeRef(name);
    }
}
