package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;

import java.util.List;
import java.util.Map;

/** The contract test's few HTTP calls, as the superuser, answering status + parsed JSON body. */
final class Http {
    private Http() {
    }

    /** One answer: status, JSON body (null when the body is not JSON), the X-Request-ID header. */
    record Reply(int status, JsonNode body, String requestId, String text) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** Status and a body excerpt, for the report. */
        String describe() {
            String t = text == null ? "" : text.replaceAll("\\s+", " ");
            return status + " " + (t.length() > 240 ? t.substring(0, 240) + "…" : t);
        }
    }

    static Reply get(String path, Map<String, List<String>> params) {
        RequestSpecification req = Api.auth();
        params.forEach((name, values) -> req.queryParam(name, values.toArray()));
        return reply(req.get(path));
    }

    static Reply get(String path) {
        return reply(Api.auth().get(path));
    }

    static Reply post(String path, Object body) {
        return reply(Api.auth().body(body).post(path));
    }

    static Reply patch(String path, Object body) {
        return reply(Api.auth().body(body).patch(path));
    }

    private static Reply reply(Response r) {
        String text = r.asString();
        JsonNode body = null;
        try {
            body = text == null || text.isBlank() ? null : Json.MAPPER.readTree(text);
        } catch (Exception notJson) {
            // HTML or plain text: body stays null, text is kept for the report
        }
        return new Reply(r.statusCode(), body, r.header("X-Request-ID"), text);
    }
}
