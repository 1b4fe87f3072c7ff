package org.sourceoftruth.records.graphql;

import graphql.ExecutionResult;
import graphql.analysis.MaxQueryComplexityInstrumentation;
import graphql.analysis.MaxQueryDepthInstrumentation;
import graphql.execution.ExecutionContext;
import graphql.execution.instrumentation.Instrumentation;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimpleInstrumentationContext;
import graphql.execution.instrumentation.parameters.InstrumentationExecuteOperationParameters;
import graphql.language.Field;
import graphql.language.Selection;
import java.util.List;

/**
 * The depth and size limits of a query, checked before it runs; a query over them answers a
 * GraphQL error and reads nothing. An introspection query (only {@code __schema} and
 * {@code __type} at its top, as GraphiQL and client generators send) reads no object and is
 * exempt: the standard one nests {@code ofType} deeper than any object query needs.
 */
final class QueryLimits {
    private QueryLimits() {}

    static List<Instrumentation> of(int maxDepth, int maxComplexity) {
        return List.of(
                new MaxQueryDepthInstrumentation(maxDepth) {
                    @Override
                    public InstrumentationContext<ExecutionResult> beginExecuteOperation(
                            InstrumentationExecuteOperationParameters params, InstrumentationState state) {
                        return introspectionOnly(params.getExecutionContext())
                                ? SimpleInstrumentationContext.noOp()
                                : super.beginExecuteOperation(params, state);
                    }
                },
                new MaxQueryComplexityInstrumentation(maxComplexity) {
                    @Override
                    public InstrumentationContext<ExecutionResult> beginExecuteOperation(
                            InstrumentationExecuteOperationParameters params, InstrumentationState state) {
                        return introspectionOnly(params.getExecutionContext())
                                ? SimpleInstrumentationContext.noOp()
                                : super.beginExecuteOperation(params, state);
                    }
                });
    }

    private static boolean introspectionOnly(ExecutionContext context) {
        List<Selection> top = context.getOperationDefinition().getSelectionSet().getSelections();
        for (Selection<?> s : top) {
            if (!(s instanceof Field f) || !f.getName().startsWith("__")) {
                return false;
            }
        }
        return !top.isEmpty();
    }
}
