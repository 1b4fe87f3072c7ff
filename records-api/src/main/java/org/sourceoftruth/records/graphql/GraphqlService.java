package org.sourceoftruth.records.graphql;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.execution.AsyncExecutionStrategy;
import graphql.execution.instrumentation.ChainedInstrumentation;
import graphql.schema.GraphQLSchema;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import org.dataloader.DataLoaderRegistry;
import org.sourceoftruth.records.auth.ConstraintCompiler;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.RequestContext;

/**
 * Runs GraphQL queries on the schema generated from the registry (built once, on first use),
 * refusing those deeper or larger than the configured limits before they run. Each query gets
 * its own loaders ({@link ObjectLoaders}); it runs on the request's thread, with its caller.
 */
@ApplicationScoped
public class GraphqlService {
    @Inject
    ModelRegistry registry;

    @Inject
    ListQuery lists;

    @Inject
    ConstraintCompiler constraints;

    @Inject
    RequestContext request;

    @Inject
    GraphqlConfig config;

    private volatile Built built;

    private record Built(GraphQLSchema schema, GraphQL graphql, FilterTranslator filters) {}

    /** The generated schema (for introspection tests and tools). */
    public GraphQLSchema schema() {
        return built().schema();
    }

    /** The specification's result map ({@code data}, {@code errors}) of one query. */
    public Map<String, Object> execute(String query, String operationName, Map<String, Object> variables) {
        Built b = built();
        DataLoaderRegistry loaders = new DataLoaderRegistry();
        ObjectLoaders objects = new ObjectLoaders(lists, b.filters(), loaders, request.baseUrl(), config.maxObjects());
        ExecutionInput input = ExecutionInput.newExecutionInput()
                .query(query)
                .operationName(operationName)
                .variables(variables == null ? Map.of() : variables)
                .dataLoaderRegistry(loaders)
                .graphQLContext(Map.of(Fetchers.LOADERS, objects))
                .build();
        ExecutionResult result = b.graphql().execute(input);
        return result.toSpecification();
    }

    private Built built() {
        Built b = built;
        if (b == null) {
            synchronized (this) {
                b = built;
                if (b == null) {
                    Relations relations = new Relations(registry);
                    GraphQLSchema schema = new SchemaBuilder(registry, relations, new Fetchers()).build();
                    GraphQL graphql = GraphQL.newGraphQL(schema)
                            .queryExecutionStrategy(new AsyncExecutionStrategy(new GraphqlErrors()))
                            .instrumentation(new ChainedInstrumentation(
                                    QueryLimits.of(config.maxDepth(), config.maxComplexity())))
                            .build();
                    b = new Built(schema, graphql, new FilterTranslator(registry, relations, constraints));
                    built = b;
                }
            }
        }
        return b;
    }
}
