package org.sourceoftruth.records.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.net.IpNetworks;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * {@code POST /api/internal/credential-check/}: webhook-dispatcher asks who the caller of its
 * admin API and pages is, so that users, tokens and sessions stay in this service's database
 * and are checked by this service's code alone (digest lookup, constant-time comparison,
 * allowed IPs, expiry, last_used and maintenance mode included). Not part of NetBox's API.
 *
 * <p>Only superusers may ask (the dispatcher calls with its service token): the answer says
 * whether a credential is valid and whose it is, and the caller states the client's address.
 *
 * <p>Body, every field optional: {@code authorization} (the Authorization header the caller
 * sent), {@code session} (the session cookie), {@code csrf_token} (the CSRF token the caller
 * presented in a header or form field), {@code csrf_cookie} (the CSRF cookie) and
 * {@code client_ip}. The header wins over the session, as for requests served here. The answer
 * is always 200: {@code {"user": {"id", "username", "is_superuser", "write_enabled"} | null,
 * "authenticated_by": "token" | "session" (with a user),
 * "detail": <NetBox's 403 message, when a credential was presented and refused>,
 * "csrf_valid": <the presented CSRF token is the cookie's and the session's>}}.
 */
@Path("/api/internal/credential-check/")
public class CredentialCheckResource implements AnswersOptions {
    private static final String[] FIELDS = {"authorization", "session", "csrf_token", "csrf_cookie", "client_ip"};

    @Inject
    Access access;

    @Inject
    TokenAuthenticator tokens;

    @Inject
    SessionStore sessions;

    @Context
    HttpHeaders headers;

    @POST
    public Response check(String body) {
        access.requireSuperuser();
        JsonNode json = JsonBody.parse(body);
        if (!json.isObject()) {
            throw ApiException.field(
                    "non_field_errors",
                    "Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(json) + ".");
        }
        for (String field : FIELDS) {
            JsonNode value = json.get(field);
            if (value != null && !value.isNull() && !value.isTextual()) {
                throw ApiException.field(field, "Not a valid string.");
            }
        }
        ObjectNode answer = Json.MAPPER.createObjectNode();
        answer.putNull("user");
        answer.put("csrf_valid", false);
        try {
            Optional<String> key = TokenAuthenticator.key(text(json, "authorization"));
            if (key.isPresent()) {
                Optional<ClientIp> client = Optional.ofNullable(text(json, "client_ip"))
                        .flatMap(ip -> IpNetworks.address(ip).map(address -> new ClientIp(ip, address)));
                RequestContext.Caller caller = tokens.authenticate(key.get(), () -> client);
                answer.set("user", user(caller.userId(), caller.username(), caller.superuser(), caller.writeEnabled()));
                answer.put("authenticated_by", "token");
                return Responses.json(200, answer, headers);
            }
        } catch (ApiException refused) {
            answer.put("detail", refused.body().path("detail").asText());
            return Responses.json(200, answer, headers);
        }
        Optional<SessionStore.Session> session = sessions.find(text(json, "session"));
        if (session.isPresent()) {
            SessionStore.Session s = session.get();
            answer.set("user", user(s.userId(), s.username(), s.superuser(), true));
            answer.put("authenticated_by", "session");
            answer.put("csrf_valid", s.csrfValid(text(json, "csrf_token"), text(json, "csrf_cookie")));
        }
        return Responses.json(200, answer, headers);
    }

    private static ObjectNode user(long id, String username, boolean superuser, boolean writeEnabled) {
        return Json.MAPPER
                .createObjectNode()
                .put("id", id)
                .put("username", username)
                .put("is_superuser", superuser)
                .put("write_enabled", writeEnabled);
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
