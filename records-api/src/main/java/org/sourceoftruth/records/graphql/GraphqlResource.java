package org.sourceoftruth.records.graphql;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.Responses;

/**
 * NetBox's read-only GraphQL API at {@code /graphql/}: a query {@code POST}ed as JSON
 * ({@code {query, variables, operationName}}) or sent with {@code GET ?query=}; a browser's
 * {@code GET} without a query gets the GraphiQL page. Callers authenticate as for the REST API
 * (token or session); what each list shows is what the caller may view. Not in the OpenAPI
 * document, as in NetBox's.
 */
@Path("/graphql/")
public class GraphqlResource implements AnswersOptions {
    @Inject
    GraphqlService graphql;

    @Inject
    Access access;

    @Inject
    GraphiqlPage page;

    @Context
    HttpHeaders headers;

    @GET
    @Operation(hidden = true)
    public Response get(
            @QueryParam("query") String query,
            @QueryParam("operationName") String operationName,
            @QueryParam("variables") String variables) {
        if (query == null && page.wanted(headers.getHeaderString(HttpHeaders.ACCEPT))) {
            return page.response();
        }
        access.requireAuthenticated();
        Map<String, Object> vars = null;
        if (variables != null && !variables.isBlank()) {
            vars = variables(JsonBody.parse(variables));
        }
        return run(query, operationName, vars);
    }

    @POST
    @Operation(hidden = true)
    public Response post(String body) {
        access.requireAuthenticated();
        String type = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (type != null && type.startsWith("application/graphql")) {
            return run(body, null, null);
        }
        JsonNode json = JsonBody.parse(body);
        if (!json.isObject()) {
            throw ApiException.field("query", "Expected a JSON object with a GraphQL query.");
        }
        JsonNode operation = json.get("operationName");
        if (operation != null && !operation.isNull() && !operation.isTextual()) {
            throw ApiException.field("operationName", "Must be a string.");
        }
        JsonNode query = json.get("query");
        if (query != null && !query.isNull() && !query.isTextual()) {
            throw ApiException.field("query", "Must be a string.");
        }
        return run(
                query == null || query.isNull() ? null : query.asText(),
                operation == null || operation.isNull() ? null : operation.asText(),
                variables(json.get("variables")));
    }

    private Response run(String query, String operationName, Map<String, Object> variables) {
        if (query == null || query.isBlank()) {
            throw ApiException.field("query", "No GraphQL query found in the request.");
        }
        Map<String, Object> result = graphql.execute(query, operationName, variables);
        return Responses.json(200, (JsonNode) Json.MAPPER.valueToTree(result), headers);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> variables(JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isTextual()) {
            v = JsonBody.parse(v.asText());
        }
        if (!v.isObject()) {
            throw ApiException.field("variables", "Must be a JSON object.");
        }
        return Json.MAPPER.convertValue(v, Map.class);
    }
}
