package org.sourceoftruth.records.api;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;

/**
 * Sends bad input to every registered model path and checks that each answer is a 4xx with a
 * JSON body (or NetBox's documented fallback for paging parameters), never a 5xx, and that
 * the table is unchanged afterwards.
 */
@QuarkusTest
class BadInputTest {
    @Inject
    ModelRegistry registry;

    /**
     * Bodies that are wrong for every model: malformed or non-object JSON, or objects whose
     * description (a field of every model) is not a string, plus other wrong types, unknown
     * choices and missing relations that must not turn into 5xx on the way.
     */
    private static final List<String> BAD_BODIES = List.of(
            "{not json", "", "123", "\"text\"", "[]", "[1, 2]", "null",
            "{\"description\": {\"a\": 1}, \"name\": {\"nested\": 1}, \"slug\": \"has spaces\", \"status\": \"no-such-choice\"}",
            "{\"description\": [\"x\"], \"name\": \"x\", \"slug\": \"x\", \"tenant\": 999999999, \"site\": 999999999,"
                    + " \"device\": 999999999, \"role\": \"abc\", \"device_type\": {\"slug\": \"none\"}, \"user\": 999999999}",
            "{\"description\": false, \"name\": [1, 2], \"slug\": 12.5, \"type\": {\"value\": \"virtual\"}, \"tags\": [999999999],"
                    + " \"prefix\": \"10.0.0.300/33\", \"address\": \"not-an-ip\", \"vid\": 5000, \"expires\": \"soon\"}",
            "{\"description\": true, \"custom_fields\": {\"no_such_field\": 1}, \"name\": \"x\", \"slug\": \"x\"}",
            "[{\"name\": \"ok-but\"}, 7]",
            "{\"description\": {}, \"id\": \"abc\", \"created\": \"yesterday\", \"latitude\": \"north\", \"u_height\": -5,"
                    + " \"mtu\": 0, \"assigned_object_type\": \"dcim.nothing\", \"assigned_object_id\": 1}");

    /** A few of them are also sent as bulk and detail updates. */
    private static final List<String> BAD_UPDATES = List.of("{not json", "[]", "null", BAD_BODIES.get(7), BAD_BODIES.get(12));

    private static final List<String> BAD_QUERIES = List.of(
            "id=abc", "id__gt=abc", "no_such_filter=1", "name__bogus=1", "created__lt=notadate",
            "tag=no-such-tag", "ordering=-no_such_field&limit=abc&offset=-3", "start=abc", "start=1&offset=1",
            "brief=1&fields=nothing,at,all", "q=%00");

    @TestFactory
    Stream<DynamicTest> everyModelPathRejectsBadInputWithout5xx() {
        return registry.all().stream().map(m -> DynamicTest.dynamicTest(m.contentType(), () -> sweep(m)));
    }

    private void sweep(Model m) {
        String list = "/api/" + m.app() + "/" + m.path() + "/";
        long before = count(list);
        List<String> problems = new ArrayList<>();
        for (String body : BAD_BODIES) {
            expect4xx(problems, "POST " + body, auth().body(body).post(list));
        }
        for (String body : BAD_UPDATES) {
            expect4xx(problems, "PATCH bulk " + body, auth().body(body).patch(list));
            expect4xx(problems, "PATCH 999999999 " + body, auth().body(body).patch(list + "999999999/"));
        }
        expect4xx(problems, "bulk PATCH unknown id",
                auth().body(List.of(Map.of("id", 999999999, "description", "x"))).patch(list));
        expect4xx(problems, "bulk PUT missing id", auth().body(List.of(Map.of("description", "x"))).put(list));
        expect4xx(problems, "bulk DELETE bad ids", auth().body(List.of(Map.of("id", "x"), Map.of())).delete(list));
        expect4xx(problems, "DELETE unknown", auth().delete(list + "999999999/"));
        expect4xx(problems, "GET unknown", auth().get(list + "999999999/"));
        for (String q : BAD_QUERIES) {
            Response r = auth().get(list + "?" + q);
            if (r.statusCode() >= 500 || !r.contentType().startsWith("application/json")) {
                problems.add("GET ?" + q + " -> " + r.statusCode() + " " + r.asString());
            }
        }
        // NetBox's documented fallbacks: bad or negative limit = default page size; huge limit = capped
        Response negative = auth().get(list + "?limit=-1");
        assertEquals(200, negative.statusCode(), list);
        Response huge = auth().get(list + "?limit=100000");
        assertEquals(200, huge.statusCode(), list);
        assertTrue(huge.jsonPath().getList("results").size() <= 1000);
        assertTrue(problems.isEmpty(), list + ":\n" + String.join("\n", problems));
        assertEquals(before, count(list), "table changed by rejected requests: " + list);
    }

    /**
     * Webhook fields that must be refused at save (issue #15, defects 7 and 8): a template nested
     * past the parser's bound and headers the HTTP client controls; each a 400 naming the field.
     */
    @org.junit.jupiter.api.Test
    void webhookTemplatesAndHeadersThatCannotBeSentAreRefused() {
        String list = "/api/extras/webhooks/";
        long before = count(list);
        String nested = "{{ " + "(".repeat(1000) + "1" + ")".repeat(1000) + " }}";
        List<Map<String, String>> bodies = List.of(
                Map.of("body_template", nested), Map.of("additional_headers", nested),
                Map.of("additional_headers", "Transfer-Encoding: chunked"),
                Map.of("additional_headers", "Content-Length: 0"), Map.of("additional_headers", "Host: x.example"),
                Map.of("additional_headers", "X-A: 1\nConnection: keep-alive"));
        for (Map<String, String> fields : bodies) {
            Map<String, Object> body = new java.util.HashMap<>(Map.of("name", "bad-" + System.nanoTime(),
                    "payload_url", "http://x.example/"));
            body.putAll(fields);
            Response r = auth().body(body).post(list);
            String field = fields.keySet().iterator().next();
            assertEquals(400, r.statusCode(), fields + " -> " + r.asString());
            assertTrue(r.contentType().startsWith("application/json"), r.contentType());
            assertEquals(1, r.jsonPath().getList(field).size(), r.asString());
        }
        assertEquals(before, count(list), "webhooks created by rejected requests");
    }

    private static void expect4xx(List<String> problems, String what, Response r) {
        int s = r.statusCode();
        String type = r.contentType();
        if (s < 400 || s >= 500 || type == null || !type.startsWith("application/json")) {
            problems.add(what + " -> " + s + " " + type + " " + r.asString());
        }
    }

    private static long count(String list) {
        Number n = auth().get(list + "?limit=1").then().statusCode(200).extract().path("count");
        return n.longValue();
    }
}
