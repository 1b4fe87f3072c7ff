package org.sourceoftruth.records.users;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.auth.Credentials;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * {@code POST /api/users/tokens/provision/} with {@code {"username", "password"}} and no token:
 * creates a token for that user, as NetBox's TokenProvisionView. The token is created through
 * the generic engine as that user would create it (so the add permission and its constraints,
 * change logging and key generation apply) and the answer is 201 with the key.
 */
@Path("/api/users/tokens/provision/")
@Tag(name = "users")
public class TokenProvisionResource implements AnswersOptions {
    /** Optional token attributes a client may set when provisioning. */
    private static final List<String> TOKEN_FIELDS =
            List.of("expires", "description", "write_enabled", "enabled", "allowed_ips", "version");

    @Inject
    Credentials credentials;

    @Inject
    RequestContext request;

    @Inject
    Access access;

    @Inject
    ModelService service;

    @Inject
    ModelRegistry registry;

    @Context
    HttpHeaders headers;

    @POST
    @Operation(
            operationId = "users_tokens_provision_create",
            description = "Create a token for the user given by username and password (no token needed).")
    public Response provision(String body) {
        JsonNode json = JsonBody.parse(body);
        if (!json.isObject()) {
            throw ApiException.field(
                    "non_field_errors",
                    "Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(json) + ".");
        }
        Map<String, List<String>> missing = new LinkedHashMap<>();
        for (String field : List.of("username", "password")) {
            JsonNode v = json.get(field);
            if (v == null || v.isNull() || !v.isTextual() || v.asText().isEmpty()) {
                missing.put(field, List.of(v == null ? "This field is required." : "This field may not be blank."));
            }
        }
        if (!missing.isEmpty()) {
            throw ApiException.fields(missing);
        }
        Credentials.User user = credentials
                .authenticate(
                        json.get("username").asText(), json.get("password").asText())
                .orElseThrow(() -> ApiException.detail(403, "Invalid username/password"));
        // From here on the request acts as the authenticated user, as after a login.
        request.caller(new RequestContext.Caller(user.id(), user.username(), user.superuser(), 0, true));
        Model token = registry.require("users.token");
        access.require(token, Access.Action.ADD);
        ObjectNode attributes = Json.MAPPER.createObjectNode();
        for (String field : TOKEN_FIELDS) {
            if (json.has(field)) {
                attributes.set(field, json.get(field));
            }
        }
        attributes.put("user", user.id());
        RenderedObject created =
                service.create(token, List.of(attributes), false).get(0);
        return Responses.json(201, created.node(), headers);
    }
}
