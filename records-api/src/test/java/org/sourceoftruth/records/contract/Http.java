package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;

/** The contract test's few HTTP calls, as the superuser, answering status + parsed JSON body. */
final class Http {
    /** Requests made and milliseconds spent in them (the run's cost, printed with the summary). */
    static final java.util.concurrent.atomic.AtomicLong REQUESTS = new java.util.concurrent.atomic.AtomicLong();

    static final java.util.concurrent.atomic.AtomicLong MILLIS = new java.util.concurrent.atomic.AtomicLong();

    private Http() {}

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
        long t0 = System.nanoTime();
        return reply(req.get(path), t0);
    }

    static Reply get(String path) {
        long t0 = System.nanoTime();
        return reply(Api.auth().get(path), t0);
    }

    static Reply post(String path, Object body) {
        long t0 = System.nanoTime();
        if (hasUpload(body)) {
            // a file (an image) goes as multipart/form-data, as NetBox's clients send it
            return reply(multipart((Map<?, ?>) body).post(path), t0);
        }
        return reply(Api.auth().body(body).post(path), t0);
    }

    static Reply patch(String path, Object body) {
        long t0 = System.nanoTime();
        if (hasUpload(body)) {
            // the other fields as JSON (lists and objects do not fit a form), then the files
            Map<Object, Object> rest = new java.util.LinkedHashMap<>();
            Map<Object, Object> files = new java.util.LinkedHashMap<>();
            ((Map<?, ?>) body).forEach((k, v) -> (v instanceof SampleValues.Upload ? files : rest).put(k, v));
            if (!rest.isEmpty()) {
                Reply first = reply(Api.auth().body(rest).patch(path), t0);
                if (!first.ok()) {
                    return first;
                }
            }
            return reply(multipart(files).patch(path), System.nanoTime());
        }
        return reply(Api.auth().body(body).patch(path), t0);
    }

    private static boolean hasUpload(Object body) {
        return body instanceof Map<?, ?> map && map.values().stream().anyMatch(v -> v instanceof SampleValues.Upload);
    }

    /** The body as form parts: files as file parts, scalars as text, null as an empty part, the rest as JSON text. */
    private static RequestSpecification multipart(Map<?, ?> body) {
        RequestSpecification req = io.restassured.RestAssured.given().header("Authorization", "Token " + Api.TOKEN);
        body.forEach((k, v) -> {
            String name = String.valueOf(k);
            if (v instanceof SampleValues.Upload upload) {
                req.multiPart(name, upload.fileName(), upload.bytes(), "image/png");
            } else if (v == null) {
                req.multiPart(name, "");
            } else if (v instanceof Map<?, ?> || v instanceof java.util.Collection<?>) {
                try {
                    req.multiPart(name, Json.MAPPER.writeValueAsString(v));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new IllegalStateException(e);
                }
            } else {
                req.multiPart(name, String.valueOf(v));
            }
        });
        return req;
    }

    private static Reply reply(Response r, long startNanos) {
        String text = r.asString();
        REQUESTS.incrementAndGet();
        MILLIS.addAndGet((System.nanoTime() - startNanos) / 1_000_000);
        JsonNode body = null;
        try {
            body = text == null || text.isBlank() ? null : Json.MAPPER.readTree(text);
        } catch (Exception notJson) {
            // HTML or plain text: body stays null, text is kept for the report
        }
        return new Reply(r.statusCode(), body, r.header("X-Request-ID"), text);
    }
}
