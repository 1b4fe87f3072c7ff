package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.api.PageEnvelope;
import org.sourceoftruth.records.api.QueryParameters;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.customfields.ChoiceSetChoices;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.RenderedRows;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * {@code GET /api/extras/custom-field-choice-sets/<id>/choices/}: the set's choices as NetBox's
 * action pages them, {@code {"id": value, "display": label}} each, {@code ?q=} matching value or
 * label case-insensitively.
 */
@Path("/api/extras/custom-field-choice-sets/{id: [0-9]+}/choices/")
public class ChoiceSetChoicesResource implements AnswersOptions {
    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Inject
    QueryParameters parameters;

    @Context
    HttpHeaders headers;

    @Context
    UriInfo uri;

    @GET
    @Operation(hidden = true)
    public Response choices(@PathParam("id") long id) {
        Model model = registry.require("extras.customfieldchoiceset");
        access.require(model, Access.Action.VIEW);
        JsonNode set = service.get(
                        model, id, new Renderer.Options(request.baseUrl(), Renderer.Mode.FULL, null, Set.of()))
                .node();
        String base = set.path("base_choices").isObject()
                ? set.path("base_choices").path("value").asText(null)
                : null;
        List<ChoiceSetChoices.Choice> choices = ChoiceSetChoices.of(
                base, set.get("extra_choices"), set.path("order_alphabetically").asBoolean(false));
        Map<String, List<String>> query = new LinkedHashMap<>();
        uri.getQueryParameters().forEach(query::put);
        String q = query.containsKey("q") && !query.get("q").isEmpty()
                ? query.get("q").get(0).toLowerCase(Locale.ROOT)
                : "";
        if (!q.isEmpty()) {
            choices = choices.stream()
                    .filter(c -> c.value().toLowerCase(Locale.ROOT).contains(q)
                            || c.label().toLowerCase(Locale.ROOT).contains(q))
                    .toList();
        }
        ListQuery.PageRequest page = parameters.page(query);
        long from = Math.min(page.offset(), choices.size());
        long to = page.limit() == null ? choices.size() : Math.min(choices.size(), from + page.limit());
        List<ObjectNode> results = new ArrayList<>();
        for (ChoiceSetChoices.Choice c : choices.subList((int) from, (int) to)) {
            results.add(Json.MAPPER.createObjectNode().put("id", c.value()).put("display", c.label()));
        }
        ListQuery.PageRequest offsetPage = new ListQuery.PageRequest(page.limit(), page.offset(), null);
        return Responses.json(
                200,
                PageEnvelope.of(
                        request.baseUrl() + uri.getPath(),
                        query,
                        offsetPage,
                        new ListQuery.Page((long) choices.size(), RenderedRows.of(results), -1)),
                headers);
    }
}
