package org.sourceoftruth.records.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * Sends bad input to every registered model path and checks that each answer is a 4xx with a
 * JSON body (or NetBox's documented fallback for paging parameters), never a 5xx, and that
 * the table is unchanged afterwards.
 */
@QuarkusTest
class BadInputTest {
    @Inject
    ModelRegistry registry;

    @Inject
    AgroalDataSource dataSource;

    /**
     * Bodies that are wrong for every model: malformed or non-object JSON, or objects whose
     * description (a field of every model) is not a string, plus other wrong types, unknown
     * choices and missing relations that must not turn into 5xx on the way.
     */
    private static final List<String> BAD_BODIES = List.of(
            "{not json",
            "",
            "123",
            "\"text\"",
            "[]",
            "[1, 2]",
            "null",
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
    private static final List<String> BAD_UPDATES =
            List.of("{not json", "[]", "null", BAD_BODIES.get(7), BAD_BODIES.get(12));

    private static final List<String> BAD_QUERIES = List.of(
            "id=abc",
            "id__gt=abc",
            "no_such_filter=1",
            "name__bogus=1",
            "created__lt=notadate",
            "tag=no-such-tag",
            "ordering=-no_such_field&limit=abc&offset=-3",
            "start=abc",
            "start=1&offset=1",
            "brief=1&fields=nothing,at,all",
            "q=%00");

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
        expect4xx(
                problems,
                "bulk PATCH unknown id",
                auth().body(List.of(Map.of("id", 999999999, "description", "x")))
                        .patch(list));
        expect4xx(
                problems,
                "bulk PUT missing id",
                auth().body(List.of(Map.of("description", "x"))).put(list));
        expect4xx(
                problems,
                "bulk DELETE bad ids",
                auth().body(List.of(Map.of("id", "x"), Map.of())).delete(list));
        expect4xx(problems, "DELETE unknown", auth().delete(list + "999999999/"));
        expect4xx(problems, "GET unknown", auth().get(list + "999999999/"));
        if (m.hasImageFields()) {
            multipart(problems, m, list);
        }
        for (String q : BAD_QUERIES) {
            Response r = auth().get(list + "?" + q);
            if (r.statusCode() >= 500
                    || !r.contentType().startsWith("application/json")
                    || internalText(r.asString()) != null) {
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
     * Models with an image field read multipart bodies: malformed ones (no boundary, cut short),
     * missing and wrongly typed parts, files that are no image or where text belongs, and a body
     * above the HTTP limit, on create and on update.
     */
    private void multipart(List<String> problems, Model m, String list) {
        String image = null;
        for (Field f : m.fields()) {
            if (f.kind == Kind.IMAGE) {
                image = f.name;
            }
        }
        io.restassured.config.RestAssuredConfig raw = io.restassured.RestAssured.config()
                .encoderConfig(io.restassured.config.EncoderConfig.encoderConfig()
                        .encodeContentTypeAs("multipart/form-data", io.restassured.http.ContentType.TEXT));
        String truncated =
                "--XyZ\r\nContent-Disposition: form-data; name=\"" + image + "\"; filename=\"a.png\"\r\n\r\nabc";
        for (String target : List.of(list, list + "999999999/")) {
            for (String type : List.of(
                    "multipart/form-data", "multipart/form-data; boundary=XyZ", "multipart/form-data; boundary=")) {
                Response r = target.equals(list)
                        ? form().config(raw).contentType(type).body(truncated).post(target)
                        : form().config(raw).contentType(type).body(truncated).patch(target);
                expect4xx(problems, "multipart " + type + " cut short -> " + target, r);
            }
        }
        expect4xx(
                problems,
                "multipart without parts",
                form().multiPart("nothing", "").post(list));
        expect4xx(
                problems,
                "multipart text for the image",
                form().multiPart(image, "not a file").post(list));
        expect4xx(
                problems,
                "multipart non-image file",
                form().multiPart(image, "x.png", "text".getBytes(), "image/png")
                        .multiPart("description", "x")
                        .post(list));
        expect4xx(
                problems,
                "multipart file as description",
                form().multiPart("description", "d.txt", "x".getBytes(), "text/plain")
                        .multiPart("name", "x")
                        .post(list));
        expect4xx(
                problems,
                "multipart wrong types",
                form().multiPart("object_id", "abc")
                        .multiPart("object_type", "nothing")
                        .multiPart("manufacturer", "abc")
                        .multiPart("u_height", "tall")
                        .multiPart(image, "x.gif", new byte[] {71, 73, 70}, "image/gif")
                        .post(list));
        expect4xx(
                problems,
                "multipart PATCH unknown",
                form().multiPart("description", "x").patch(list + "999999999/"));
        expect4xx(
                problems,
                "multipart bulk PATCH",
                form().multiPart("description", "x").patch(list));
        // above the HTTP limit: refused before the body is read (a raw socket, as in
        // oversizedBodiesAreRefusedWithJsonBeforeTheyAreRead: an HTTP client would be cut off
        // while still sending the body it declared)
        try {
            String answer = sendHead(
                    "POST " + list + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token " + Api.TOKEN
                            + "\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 11534336\r\n\r\n--XyZ\r\n",
                    false);
            if (!answer.startsWith("HTTP/1.1 413")
                    || !answer.toLowerCase(java.util.Locale.ROOT).contains("application/json")) {
                problems.add("multipart above the body limit -> " + answer);
            }
            // chunked: no declared length, refused once the body grows beyond the limit (by
            // Vert.x itself, whose 413 has an empty body, as for any chunked body)
            String chunked = sendHead(
                    "POST " + list + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token " + Api.TOKEN
                            + "\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nTransfer-Encoding: chunked\r\n\r\n",
                    true);
            if (!chunked.startsWith("HTTP/1.1 413")) {
                problems.add("chunked multipart above the body limit -> " + chunked);
            }
        } catch (java.io.IOException e) {
            problems.add("multipart above the body limit: " + e);
        }
    }

    /** Sends a request head (and, {@code chunked}, 11 MiB of chunks, stopping when the server answers); returns the answer. */
    private static String sendHead(String head, boolean chunked) throws java.io.IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            socket.setSoTimeout(20_000);
            var out = socket.getOutputStream();
            out.write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
            if (chunked) {
                byte[] chunk = new byte[64 * 1024];
                byte[] size = (Integer.toHexString(chunk.length) + "\r\n")
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                try {
                    for (int sent = 0;
                            sent < 11 * 1024 * 1024 && socket.getInputStream().available() == 0;
                            sent += chunk.length) {
                        out.write(size);
                        out.write(chunk);
                        out.write(new byte[] {'\r', '\n'});
                        out.flush();
                    }
                } catch (java.io.IOException closedByTheServer) {
                    // the server answered and closed; its answer is read below
                }
            }
            return readAnswer(socket.getInputStream());
        }
    }

    private static io.restassured.specification.RequestSpecification form() {
        return io.restassured.RestAssured.given().header("Authorization", "Token " + Api.TOKEN);
    }

    /**
     * Hostile input on every model path: null for every required non-nullable field, NUL bytes
     * in every filter parameter and in body strings, text after the JSON document, matrix
     * parameters on detail URLs. Each must be a 4xx JSON error naming the field or parameter
     * (or NetBox's 404 for a URL its router would not match), without server-internal text,
     * and must change nothing.
     */
    @TestFactory
    Stream<DynamicTest> everyModelPathRefusesHostileInput() {
        // objects on some detail URLs, so that a URL that wrongly reaches them shows
        int site = Api.site("hostile");
        Api.device(site, Api.deviceTypeAndRole(), "hostile-" + Api.uniq());
        return registry.all().stream().map(m -> DynamicTest.dynamicTest(m.contentType(), () -> hostile(m)));
    }

    private void hostile(Model m) {
        String list = "/api/" + m.app() + "/" + m.path() + "/";
        long before = count(list);
        List<String> problems = new ArrayList<>();
        if (!m.isReadOnlyApi()) {
            Set<String> notNull = notNullColumns(m.table());
            for (Field f : m.fields()) {
                // an image column stores '' for "no image": null is how a nullable one is cleared
                boolean mayNotBeNull = !f.isNullable() || (notNull.contains(f.column()) && f.kind != Kind.IMAGE);
                if (f.isWritable() && mayNotBeNull && f.column() != null && f.kind != Kind.CUSTOM_FIELDS) {
                    String body = "{\"" + f.name + "\": null}";
                    expectFieldError(
                            problems,
                            "POST " + body,
                            auth().body(body).post(list),
                            f.name,
                            "This field may not be null.");
                    expectFieldError(
                            problems,
                            "POST [" + body + "]",
                            auth().body("[" + body + "]").post(list),
                            f.name,
                            "This field may not be null.");
                }
            }
            String nul = "{\"description\": \"a\\u0000b\", \"name\": \"x\"}";
            expectFieldError(
                    problems,
                    "POST " + nul,
                    auth().body(nul).post(list),
                    "description",
                    "Null characters are not allowed.");
            for (String trailing :
                    List.of("{\"description\": \"x\"} garbage", "{} {}", "[{}] ]", "{\"name\": \"x\"}x")) {
                expectParseError(
                        problems, "POST " + trailing, auth().body(trailing).post(list));
                expectParseError(
                        problems, "PATCH " + trailing, auth().body(trailing).patch(list + "1/"));
            }
        }
        List<String> params = new ArrayList<>(m.extraFilters().keySet());
        for (Field f : m.fields()) {
            if (f.isFilterable()) {
                params.add(f.kind == Kind.FK ? f.name + "_id" : f.name);
            }
        }
        params.addAll(List.of("q", "ordering", "limit", "brief", "fields"));
        for (String p : params) {
            expectFieldError(
                    problems,
                    "GET ?" + p + "=a%00b",
                    auth().urlEncodingEnabled(false).get(list + "?" + p + "=a%00b"),
                    p,
                    "Null characters are not allowed.");
        }
        List<Long> ids = auth().get(list + "?limit=1")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("results.id", Long.class);
        long id = ids.isEmpty() ? 1 : ids.get(0);
        for (String detail : List.of(id + ";drop/", id + ";/", id + ";a=b/")) {
            expectNotFound(
                    problems, "GET " + detail, auth().urlEncodingEnabled(false).get(list + detail));
            expectNotFound(
                    problems,
                    "PATCH " + detail,
                    auth().urlEncodingEnabled(false)
                            .body("{\"description\": \"x\"}")
                            .patch(list + detail));
            expectNotFound(
                    problems,
                    "DELETE " + detail,
                    auth().urlEncodingEnabled(false).delete(list + detail));
        }
        assertTrue(problems.isEmpty(), list + ":\n" + String.join("\n", problems));
        assertEquals(before, count(list), "table changed by rejected requests: " + list);
        if (!ids.isEmpty()) {
            auth().get(list + id + "/").then().statusCode(200);
        }
    }

    /** The endpoints outside the model engine that read JSON bodies take them by the same rules. */
    @org.junit.jupiter.api.Test
    void serviceEndpointsRefuseTrailingDataAndNulCharacters() {
        List<String> problems = new ArrayList<>();
        String credentials = "{\"username\": \"admin\", \"password\": \"admin\"}";
        // path -> body whose first string value is the one the NUL goes into
        Map<String, String> bodies = new java.util.LinkedHashMap<>();
        bodies.put("/api/users/config/", credentials);
        bodies.put("/api/users/tokens/provision/", credentials);
        bodies.put("/login/", credentials);
        bodies.put("/api/internal/credential-check/", "{\"session\": \"admin\", \"client_ip\": \"127.0.0.1\"}");
        for (Map.Entry<String, String> endpoint : bodies.entrySet()) {
            String path = endpoint.getKey();
            String body = endpoint.getValue();
            String method = path.equals("/api/users/config/") ? "PATCH" : "POST";
            String field = body.substring(2, body.indexOf('"', 2));
            expectParseError(
                    problems,
                    method + " " + path + " trailing",
                    auth().body(body + " {}").request(method, path));
            expectFieldError(
                    problems,
                    method + " " + path + " NUL",
                    auth().body(body.replaceFirst("\"admin\"", "\"ad\\\\u0000min\""))
                            .request(method, path),
                    field,
                    "Null characters are not allowed.");
        }
        expectFieldError(
                problems,
                "POST credential-check number",
                auth().body("{\"session\": 5}").post("/api/internal/credential-check/"),
                "session",
                "Not a valid string.");
        expectFieldError(
                problems,
                "POST credential-check list",
                auth().body("[]").post("/api/internal/credential-check/"),
                "non_field_errors",
                "Expected a dictionary");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        auth().get("/api/users/config/").then().statusCode(200).body("username", org.hamcrest.Matchers.nullValue());
    }

    /** The table's NOT NULL columns: null for them must be a field error, whatever the declaration says. */
    private Set<String> notNullColumns(String table) {
        Set<String> columns = new HashSet<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "select column_name from information_schema.columns where table_schema = 'public' and table_name = ?"
                                + " and is_nullable = 'NO'")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        return columns;
    }

    /**
     * Clients send long filter lists ({@code ?id=1&id=2...}): URLs of some kilobytes are served;
     * longer ones and oversized headers get a 414/431 JSON error, not an empty answer.
     */
    @org.junit.jupiter.api.Test
    void longUrlsAreServedUpToALimitAndRefusedWithJsonBeyondIt() {
        StringBuilder ids = new StringBuilder();
        for (int i = 1; ids.length() < 10_000; i++) {
            ids.append(ids.isEmpty() ? "" : "&").append("id=").append(i);
        }
        auth().get("/api/dcim/sites/?" + ids).then().statusCode(200);
        Response tooLong = auth().get("/api/dcim/sites/?q=" + "a".repeat(20_000));
        assertEquals(414, tooLong.statusCode());
        assertTrue(tooLong.contentType().startsWith("application/json"), tooLong.contentType());
        assertTrue(tooLong.jsonPath().getString("detail").contains("URI"), tooLong.asString());
        Response bigHeader = auth().header("X-Padding", "a".repeat(40_000)).get("/api/dcim/sites/");
        assertEquals(431, bigHeader.statusCode());
        assertTrue(bigHeader.contentType().startsWith("application/json"), bigHeader.contentType());
        assertFalse(bigHeader.asString().isEmpty());
    }

    /**
     * A body declared larger than the HTTP limit (10 MiB) is refused with a 413 JSON error as
     * soon as its headers arrive, and nothing is written.
     */
    @org.junit.jupiter.api.Test
    void oversizedBodiesAreRefusedWithJsonBeforeTheyAreRead() throws Exception {
        long before = count("/api/dcim/sites/");
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            socket.setSoTimeout(10_000);
            String head = "POST /api/dcim/sites/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token " + Api.TOKEN
                    + "\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n{\"name\": \"";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = readAnswer(socket.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("content-type: application/json"), answer);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            assertTrue(
                    org.sourceoftruth.model.Json.MAPPER
                            .readTree(body)
                            .path("detail")
                            .asText()
                            .contains("too large"),
                    body);
        }
        assertEquals(before, count("/api/dcim/sites/"));
    }

    /** One HTTP/1.1 answer with a Content-Length body, read without waiting for the connection to close. */
    private static String readAnswer(java.io.InputStream in) throws java.io.IOException {
        java.io.ByteArrayOutputStream read = new java.io.ByteArrayOutputStream();
        int headEnd = -1;
        int length = 0;
        byte[] buffer = new byte[8192];
        while (headEnd < 0 || read.size() < headEnd + length) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            read.write(buffer, 0, n);
            String text = read.toString(java.nio.charset.StandardCharsets.UTF_8);
            if (headEnd < 0 && text.contains("\r\n\r\n")) {
                headEnd = text.indexOf("\r\n\r\n") + 4;
                var m = java.util.regex.Pattern.compile("(?i)content-length:\\s*(\\d+)")
                        .matcher(text.substring(0, headEnd));
                length = m.find() ? Integer.parseInt(m.group(1)) : 0;
            }
        }
        return read.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Words that only server internals put in a message. */
    private static final List<String> INTERNAL_TEXT = List.of("ERROR:", "org.", "java.", "Exception", "SQL");

    private static String internalText(String body) {
        return INTERNAL_TEXT.stream().filter(body::contains).findFirst().orElse(null);
    }

    private static void expectFieldError(List<String> problems, String what, Response r, String field, String message) {
        if (!expect4xx(problems, what, r)) {
            return;
        }
        String body = r.asString();
        if (!body.contains("\"" + field + "\"") || !body.contains(message)) {
            problems.add(what + " -> " + r.statusCode() + " does not say " + field + ": " + message + " " + body);
        }
    }

    private static void expectParseError(List<String> problems, String what, Response r) {
        if (expect4xx(problems, what, r)
                && (r.statusCode() != 400
                        || !String.valueOf(r.jsonPath().getString("detail")).startsWith("JSON parse error - "))) {
            problems.add(what + " -> " + r.statusCode() + " is no JSON parse error: " + r.asString());
        }
    }

    private static void expectNotFound(List<String> problems, String what, Response r) {
        if (expect4xx(problems, what, r) && r.statusCode() != 404) {
            problems.add(what + " -> " + r.statusCode() + " instead of 404: " + r.asString());
        }
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
                Map.of("body_template", nested),
                Map.of("additional_headers", nested),
                Map.of("additional_headers", "Transfer-Encoding: chunked"),
                Map.of("additional_headers", "Content-Length: 0"),
                Map.of("additional_headers", "Host: x.example"),
                Map.of("additional_headers", "X-A: 1\nConnection: keep-alive"));
        for (Map<String, String> fields : bodies) {
            Map<String, Object> body = new java.util.HashMap<>(
                    Map.of("name", "bad-" + System.nanoTime(), "payload_url", "http://x.example/"));
            body.putAll(fields);
            Response r = auth().body(body).post(list);
            String field = fields.keySet().iterator().next();
            assertEquals(400, r.statusCode(), fields + " -> " + r.asString());
            assertTrue(r.contentType().startsWith("application/json"), r.contentType());
            assertEquals(1, r.jsonPath().getList(field).size(), r.asString());
        }
        assertEquals(before, count(list), "webhooks created by rejected requests");
    }

    /** 4xx with a JSON body free of server-internal text; false (and a problem noted) otherwise. */
    private static boolean expect4xx(List<String> problems, String what, Response r) {
        int s = r.statusCode();
        String type = r.contentType();
        String body = r.asString();
        if (s < 400 || s >= 500 || type == null || !type.startsWith("application/json")) {
            problems.add(what + " -> " + s + " " + type + " " + body);
            return false;
        }
        if (internalText(body) != null) {
            problems.add(what + " -> " + s + " shows server internals (" + internalText(body) + "): " + body);
            return false;
        }
        return true;
    }

    private static long count(String list) {
        Number n =
                auth().get(list + "?limit=1").then().statusCode(200).extract().path("count");
        return n.longValue();
    }
}
