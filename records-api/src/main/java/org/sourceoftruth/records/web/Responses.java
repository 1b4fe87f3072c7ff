package org.sourceoftruth.records.web;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** JSON responses (their bodies written when sent, see {@link JsonResponseBody}), honouring {@code Accept: application/json; indent=N}. */
public final class Responses {
    private static final Pattern INDENT = Pattern.compile("indent\\s*=\\s*(\\d{1,2})");

    private Responses() {}

    public static Response json(int status, JsonNode body, HttpHeaders headers) {
        return Response.status(status)
                .entity(new JsonResponseBody(body, indentOf(headers)))
                .type("application/json")
                .build();
    }

    /** A JSON response whose body is produced while it is written. */
    public static Response json(int status, JsonResponseBody.Content body, HttpHeaders headers) {
        return Response.status(status)
                .entity(new JsonResponseBody(body, indentOf(headers)))
                .type("application/json")
                .build();
    }

    public static int indentOf(HttpHeaders headers) {
        if (headers == null) {
            return 0;
        }
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        if (accept == null || !accept.contains("indent")) {
            return 0; // the common case, without a regex scan of every Accept header
        }
        Matcher m = INDENT.matcher(accept);
        return m.find() ? Math.min(Integer.parseInt(m.group(1)), 16) : 0;
    }
}
