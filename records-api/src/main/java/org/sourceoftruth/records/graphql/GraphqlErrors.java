package org.sourceoftruth.records.graphql;

import graphql.GraphQLException;
import graphql.GraphqlErrorBuilder;
import graphql.execution.DataFetcherExceptionHandler;
import graphql.execution.DataFetcherExceptionHandlerParameters;
import graphql.execution.DataFetcherExceptionHandlerResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jboss.logging.Logger;
import org.sourceoftruth.records.web.ApiException;

/**
 * A data fetcher's failure as a GraphQL error: a bad filter, a refused read or a limit says what
 * is wrong (in the REST API's words for the same fault); anything else is logged and answered
 * without internal text, as the REST API's 500.
 */
final class GraphqlErrors implements DataFetcherExceptionHandler {
    private static final Logger LOG = Logger.getLogger(GraphqlErrors.class);

    @Override
    public CompletableFuture<DataFetcherExceptionHandlerResult> handleException(
            DataFetcherExceptionHandlerParameters params) {
        Throwable e = params.getException();
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        String message;
        if (e instanceof FilterTranslator.BadFilter || e instanceof GraphQLException) {
            message = e.getMessage();
        } else if (e instanceof ApiException api) {
            message = api.body().has("detail")
                    ? api.body().get("detail").asText()
                    : api.body().toString();
        } else {
            LOG.errorf(e, "GraphQL field %s failed", params.getPath());
            message = "Server Error";
        }
        return CompletableFuture.completedFuture(DataFetcherExceptionHandlerResult.newResult()
                .error(GraphqlErrorBuilder.newError()
                        .message(message)
                        .path(params.getPath())
                        .location(params.getSourceLocation())
                        .build())
                .build());
    }
}
