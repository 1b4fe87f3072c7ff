package org.sourceoftruth.records.graphql;

import graphql.GraphQLContext;
import graphql.execution.CoercedVariables;
import graphql.language.ArrayValue;
import graphql.language.BooleanValue;
import graphql.language.EnumValue;
import graphql.language.FloatValue;
import graphql.language.IntValue;
import graphql.language.NullValue;
import graphql.language.ObjectField;
import graphql.language.ObjectValue;
import graphql.language.StringValue;
import graphql.language.Value;
import graphql.language.VariableReference;
import graphql.schema.Coercing;
import graphql.schema.CoercingParseLiteralException;
import graphql.schema.GraphQLScalarType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scalars NetBox's schema adds to GraphQL's own: BigInt, Decimal, JSON, DateTime, Date,
 * Time and UUID. Output values are the REST renderer's (numbers, text, JSON trees), passed
 * through; input values are taken as given and checked where a filter compiles them.
 */
final class GraphqlScalars {
    static final GraphQLScalarType BIG_INT = passThrough("BigInt", "A whole number of any size.");
    static final GraphQLScalarType DECIMAL = passThrough("Decimal", "A decimal number.");
    static final GraphQLScalarType JSON = passThrough("JSON", "Any JSON value.");
    static final GraphQLScalarType DATE_TIME = passThrough("DateTime", "An ISO 8601 date and time.");
    static final GraphQLScalarType DATE = passThrough("Date", "An ISO 8601 date.");
    static final GraphQLScalarType TIME = passThrough("Time", "An ISO 8601 time.");
    static final GraphQLScalarType UUID = passThrough("UUID", "A UUID.");

    static final List<GraphQLScalarType> ALL = List.of(BIG_INT, DECIMAL, JSON, DATE_TIME, DATE, TIME, UUID);

    private GraphqlScalars() {}

    private static GraphQLScalarType passThrough(String name, String description) {
        return GraphQLScalarType.newScalar()
                .name(name)
                .description(description)
                .coercing(new Coercing<Object, Object>() {
                    @Override
                    public Object serialize(Object value, GraphQLContext context, Locale locale) {
                        return value;
                    }

                    @Override
                    public Object parseValue(Object input, GraphQLContext context, Locale locale) {
                        return input;
                    }

                    @Override
                    public Object parseLiteral(
                            Value<?> input, CoercedVariables variables, GraphQLContext context, Locale locale) {
                        return literal(input, variables);
                    }
                })
                .build();
    }

    /** A literal as a plain value (objects as maps, lists as lists), variables resolved. */
    static Object literal(Value<?> input, CoercedVariables variables) {
        if (input instanceof StringValue s) {
            return s.getValue();
        }
        if (input instanceof IntValue i) {
            return i.getValue();
        }
        if (input instanceof FloatValue f) {
            return f.getValue();
        }
        if (input instanceof BooleanValue b) {
            return b.isValue();
        }
        if (input instanceof EnumValue e) {
            return e.getName();
        }
        if (input instanceof NullValue) {
            return null;
        }
        if (input instanceof VariableReference v) {
            return variables.get(v.getName());
        }
        if (input instanceof ArrayValue a) {
            List<Object> out = new ArrayList<>();
            for (Value<?> item : a.getValues()) {
                out.add(literal(item, variables));
            }
            return out;
        }
        if (input instanceof ObjectValue o) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (ObjectField f : o.getObjectFields()) {
                out.put(f.getName(), literal(f.getValue(), variables));
            }
            return out;
        }
        throw new CoercingParseLiteralException(
                "Unexpected literal " + input.getClass().getSimpleName() + ".");
    }
}
