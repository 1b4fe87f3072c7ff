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
                    + " \"mtu\": 0, \"assigned_object_type\": \"dcim.nothing\", \"assigned_object_id\": 1,"
                    + " \"rear_ports\": [{\"rear_port\": \"abc\", \"position\": -1}], \"front_ports\": {\"x\": 1},"
                    + " \"positions\": 0, \"profile\": \"breakout-0c0p\", \"bundle\": 999999999}",
            // beyond the parser's bounds and outside strict JSON: each a parse error in DRF's words
            "{\"description\": NaN, \"latitude\": Infinity}",
            "[-Infinity]",
            "\uFEFF{\"description\": \"x\"}",
            "[".repeat(1001) + "]".repeat(1001),
            "{\"description\": " + "{\"a\": ".repeat(1200) + "1" + "}".repeat(1200) + "}",
            "{\"latitude\": " + "1".repeat(2000) + "}",
            "{\"" + "k".repeat(60_000) + "\": 1}",
            "{\"description\": \"x\", \"description\": [1], \"name\": 1e999999999, \"latitude\": 1e999999999}",
            "{'description': 'x'}",
            "{\"description\": \"\\q\"}",
            "{\"description\": \"a\nb\"}",
            "{\"description\": \"x\",}",
            "[{\"description\": \"\\ud800\"}]");

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

    /** Form posts of the web interface's pages that no form of theirs sends. */
    private static final List<String> BAD_FORMS = List.of(
            "description=x&tenant=abc&site=-1&vid=notanumber&custom_fields=%7Bbad&tags=abc&_present_tags=1",
            "name=%00&slug=has+spaces&status=no-such-choice&latitude=north&u_height=1e999999999",
            "assigned_object_type=dcim.nothing&assigned_object_id=x&tags=999999999&_present_tags=1&created=yesterday",
            "custom_fields=%5B1%5D&description=" + "d".repeat(5000),
            "%zz=1&name=%zz");

    /**
     * The web interface's pages of every model take bad forms and ids with a 4xx page (or the
     * form again with the engine's messages, 400), never a 5xx, and change nothing.
     */
    @TestFactory
    Stream<DynamicTest> everyModelPageRejectsBadFormsWithout5xx() {
        return registry.all().stream()
                .filter(m -> !m.isReadOnlyApi())
                .map(m -> DynamicTest.dynamicTest(m.contentType(), () -> sweepPages(m)));
    }

    private void sweepPages(Model m) {
        String api = "/api/" + m.app() + "/" + m.path() + "/";
        String pages = "/" + m.app() + "/" + m.path() + "/";
        long before = count(api);
        List<String> problems = new ArrayList<>();
        for (String form : BAD_FORMS) {
            expectPage4xx(problems, "POST add/ " + form, form(form).post(pages + "add/"));
            expectPage4xx(problems, "POST 999999999/edit/ " + form, form(form).post(pages + "999999999/edit/"));
            expectPage4xx(
                    problems, "POST 999999999/journal/ " + form, form(form).post(pages + "999999999/journal/"));
        }
        expectPage4xx(problems, "bulk delete pk=abc", form("pk=abc").post(pages + "delete/"));
        expectPage4xx(problems, "bulk delete nothing", form("confirm=1").post(pages + "delete/"));
        expectPage4xx(problems, "bulk delete unknown", form("pk=999999999").post(pages + "delete/"));
        expectPage4xx(problems, "delete unknown", form("confirm=1").post(pages + "999999999/delete/"));
        expectPage4xx(
                problems,
                "journal entry on unknown",
                form("kind=info&comments=x").post(pages + "999999999/journal/"));
        expectPage4xx(problems, "JSON body", auth().body("{}").post(pages + "add/"));
        expectPage4xx(problems, "GET unknown", auth().get(pages + "999999999/"));
        expectPage4xx(problems, "export xml", auth().get(pages + "?export=xml"));
        expectPage4xx(problems, "options bad selected", auth().get(pages + "options/?field=id&id=abc"));
        for (String q : BAD_QUERIES) {
            Response r = auth().get(pages + "?" + q);
            if (r.statusCode() >= 500 || internalText(r.asString()) != null) {
                problems.add("GET page ?" + q + " -> " + r.statusCode() + " " + r.asString());
            }
        }
        assertTrue(problems.isEmpty(), pages + ":\n" + String.join("\n", problems));
        assertEquals(before, count(api), "table changed by rejected form posts: " + pages);
    }

    private static io.restassured.specification.RequestSpecification form(String body) {
        return auth().contentType("application/x-www-form-urlencoded").body(body);
    }

    private static void expectPage4xx(List<String> problems, String what, Response r) {
        int s = r.statusCode();
        String body = r.asString();
        if (s < 400 || s >= 500) {
            problems.add(what + " -> " + s + " " + (body.length() > 300 ? body.substring(0, 300) : body));
        } else if (internalText(body) != null) {
            problems.add(what + " -> " + s + " shows server internals (" + internalText(body) + ")");
        }
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

    /**
     * Text, numbers and URLs no NetBox would take, on every model path: bytes that are not UTF-8
     * and lone surrogates in a body; for every number column a value it cannot hold (beyond
     * smallint, integer or bigint, more digits than numeric(p, s) allows, 1e308); ids beyond 64
     * bits for every relation; {@code ;} inside a query value; paging parameters near and beyond
     * 2^63; empty and dot segments in the path; Accept headers and formats no renderer serves.
     * Each is a 4xx JSON error naming the field or parameter (or DRF's parse error, 404, 406),
     * echoing values as sent, and nothing changes.
     */
    @TestFactory
    Stream<DynamicTest> everyModelPathRefusesUndecodableTextOutOfRangeNumbersAndOddUrls() {
        return registry.all().stream().map(m -> DynamicTest.dynamicTest(m.contentType(), () -> outOfRange(m)));
    }

    private void outOfRange(Model m) {
        String list = "/api/" + m.app() + "/" + m.path() + "/";
        long before = count(list);
        List<String> problems = new ArrayList<>();
        if (!m.isReadOnlyApi()) {
            byte[] notUtf8 = concat(
                    "{\"description\": \"".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    new byte[] {(byte) 0xff, (byte) 0xfe, '"', '}'});
            Response undecodable = auth().body(notUtf8).post(list);
            expectParseError(problems, "POST bytes 0xff 0xfe", undecodable);
            if (!undecodable
                    .asString()
                    .contains("'utf-8' codec can't decode byte 0xff in position 17: invalid start byte")) {
                problems.add("POST bytes 0xff 0xfe -> " + undecodable.asString());
            }
            expectFieldError(
                    problems,
                    "POST lone surrogate",
                    auth().body("{\"description\": \"a\\ud800\"}").post(list),
                    "description",
                    "Surrogate characters are not allowed: U+D800.");
            expectFieldError(
                    problems,
                    "PATCH lone surrogate",
                    auth().body("[{\"id\": 1, \"description\": \"\\udfff\"}]").patch(list),
                    "description",
                    "Surrogate characters are not allowed: U+DFFF.");
            Map<String, ColumnType> columns = columnTypes(m.table());
            for (Field f : m.fields()) {
                if (!f.isWritable()) {
                    continue;
                }
                ColumnType column = f.column() == null ? null : columns.get(f.column());
                List<String> values = new ArrayList<>();
                if (f.kind == Kind.INTEGER && column != null) {
                    values.add(column.beyondIntegerRange());
                } else if (f.kind == Kind.DECIMAL && column != null && column.precision() != null) {
                    values.addAll(column.beyondPrecision());
                } else if (f.kind == Kind.FK || f.kind == Kind.M2M || f.kind == Kind.TAGS) {
                    String id = "9223372036854775808";
                    Response r = auth().body("{\"" + f.name + "\": " + (f.kind == Kind.FK ? id : "[" + id + "]") + "}")
                            .post(list);
                    expectFieldNamed(problems, "POST " + f.name + "=" + id, r, f.name);
                    if (r.asString().contains("-" + id)) {
                        problems.add("POST " + f.name + "=" + id + " wrapped around: " + r.asString());
                    }
                }
                for (String v : values) {
                    if (v == null) {
                        continue;
                    }
                    String body = "{\"" + f.name + "\": " + v + "}";
                    expectFieldNamed(problems, "POST " + body, auth().body(body).post(list), f.name);
                }
            }
        }
        expectFieldError(
                problems,
                "GET ?id=1;drop",
                auth().urlEncodingEnabled(false).get(list + "?id=1;drop"),
                "id",
                "Enter a whole number.");
        Response farOffset = auth().get(list + "?offset=9223372036854775807");
        if (farOffset.statusCode() != 200 || farOffset.jsonPath().get("next") != null) {
            problems.add("GET ?offset=2^63-1 -> " + farOffset.statusCode() + " " + farOffset.asString());
        }
        expectFieldError(
                problems,
                "GET ?offset=2^63",
                auth().get(list + "?offset=9223372036854775808"),
                "offset",
                "Ensure this value is less than or equal to 9223372036854775807.");
        Response hugeLimit = auth().get(list + "?limit=9223372036854775808&offset=1");
        if (hugeLimit.statusCode() != 200
                || !String.valueOf(hugeLimit.jsonPath().getString("previous")).contains("limit=1000")) {
            problems.add("GET ?limit=2^63 is no capped page: " + hugeLimit.statusCode() + " " + hugeLimit.asString());
        }
        for (String path : List.of(
                list.replace("/api/", "/api//"),
                list.replace("/" + m.path() + "/", "//" + m.path() + "/"),
                list + "%2e%2e/",
                list + "1/%2E/")) {
            String answer = raw("GET", path, null);
            if (!answer.startsWith("HTTP/1.1 404") || !answer.contains("application/json")) {
                problems.add("GET " + path + " -> " + answer.lines().findFirst().orElse(answer));
            }
        }
        Map<String, Integer> negotiation = new java.util.LinkedHashMap<>();
        negotiation.put("Accept: application/xml", 406);
        negotiation.put("Accept: application/json; version=4.5", 406);
        negotiation.put("?format=xml", 404);
        for (Map.Entry<String, Integer> c : negotiation.entrySet()) {
            String what = c.getKey();
            Response r = what.startsWith("?")
                    ? auth().get(list + what)
                    : auth().header("Accept", what.substring("Accept: ".length()))
                            .get(list);
            if (expect4xx(problems, "GET " + what, r) && r.statusCode() != c.getValue()) {
                problems.add(
                        "GET " + what + " -> " + r.statusCode() + " instead of " + c.getValue() + ": " + r.asString());
            }
        }
        for (String accepted : List.of("application/*", "application/xml, application/json")) {
            Response r = auth().header("Accept", accepted).get(list + "?limit=1");
            if (r.statusCode() != 200 || !r.contentType().startsWith("application/json")) {
                problems.add("GET Accept: " + accepted + " -> " + r.statusCode() + " " + r.contentType());
            }
        }
        Response browsable = auth().get(list + "?limit=1&format=api");
        if (browsable.statusCode() != 200 || !browsable.contentType().startsWith("text/html")) {
            problems.add("GET ?format=api -> " + browsable.statusCode() + " " + browsable.contentType());
        }
        assertTrue(problems.isEmpty(), list + ":\n" + String.join("\n", problems));
        assertEquals(before, count(list), "table changed by rejected requests: " + list);
    }

    /** A number column's SQL type: what it cannot hold. */
    private record ColumnType(String type, Integer precision, Integer scale) {
        /** The smallest whole number above the column's range; null for a numeric column. */
        String beyondIntegerRange() {
            return switch (type) {
                case "smallint" -> "32768";
                case "integer" -> "2147483648";
                case "bigint" -> "9223372036854775808";
                default -> null;
            };
        }

        /** Too many digits in all, before the point, after it: DRF's three precision checks. */
        List<String> beyondPrecision() {
            return List.of(
                    "1e308",
                    "1" + "0".repeat(precision - scale),
                    scale == 0 ? "1" + "0".repeat(precision) : "0." + "1".repeat(scale + 1),
                    "\"1e999999999\"");
        }
    }

    private Map<String, ColumnType> columnTypes(String table) {
        Map<String, ColumnType> types = new java.util.HashMap<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "select column_name, data_type, numeric_precision, numeric_scale"
                                + " from information_schema.columns where table_schema = 'public' and table_name = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boolean numeric = rs.getString(2).equals("numeric");
                    types.put(
                            rs.getString(1),
                            new ColumnType(
                                    rs.getString(2),
                                    numeric ? (Integer) rs.getObject(3) : null,
                                    numeric ? (Integer) rs.getObject(4) : null));
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        return types;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * One request sent as written (no client normalises its path), with the superuser's token;
     * the whole answer, head and body.
     */
    private static String raw(String method, String target, String body) {
        try {
            return sendHead(
                    method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token " + Api.TOKEN
                            + "\r\nConnection: close\r\n"
                            + (body == null
                                    ? "\r\n"
                                    : "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n"
                                            + body),
                    false);
        } catch (java.io.IOException e) {
            return "no answer: " + e;
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
        // a username no user can have (over 150 characters) is a failed sign-in like any other
        for (String path : List.of("/api/users/tokens/provision/", "/login/")) {
            int status = io.restassured.RestAssured.given()
                    .contentType("application/json")
                    .body(Map.of("username", "u".repeat(10_000), "password", "Wrong-Password-1"))
                    .post(path)
                    .statusCode();
            if (status != 403) {
                problems.add("POST " + path + " with a 10,000-character username answered " + status);
            }
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

    /**
     * /graphql/ refuses bodies that are no GraphQL request with a 400 naming the member, and
     * answers hostile queries (bad values, NUL characters, huge numbers, unknown names) with
     * GraphQL errors, never a 500 or internal text.
     */
    @org.junit.jupiter.api.Test
    void graphqlRefusesBadRequestsAndAnswersBadQueriesWithErrors() {
        List<String> problems = new ArrayList<>();
        String query = "{\"query\": \"{ site_list { id } }\"}";
        expectParseError(
                problems, "POST /graphql/ trailing", auth().body(query + " {}").post("/graphql/"));
        expectParseError(
                problems,
                "POST /graphql/ truncated",
                auth().body("{\"query\": ").post("/graphql/"));
        expectFieldNamed(problems, "POST /graphql/ list", auth().body("[]").post("/graphql/"), "query");
        expectFieldNamed(
                problems, "POST /graphql/ number", auth().body("{\"query\": 5}").post("/graphql/"), "query");
        expectFieldNamed(problems, "POST /graphql/ no query", auth().body("{}").post("/graphql/"), "query");
        expectFieldNamed(
                problems,
                "POST /graphql/ variables",
                auth().body("{\"query\": \"{ site_list { id } }\", \"variables\": [1]}")
                        .post("/graphql/"),
                "variables");
        expectFieldNamed(
                problems,
                "POST /graphql/ operationName",
                auth().body("{\"query\": \"{ site_list { id } }\", \"operationName\": {}}")
                        .post("/graphql/"),
                "operationName");
        expectParseError(
                problems,
                "GET /graphql/ variables",
                auth().queryParam("query", "{ site_list { id } }")
                        .queryParam("variables", "{")
                        .get("/graphql/"));
        List<String> hostile = List.of(
                "{",
                "{ site_list(filters: {name: {exact: \"a\\u0000b\"}}) { id } }",
                "{ site_list(filters: {name: {regex: \"(\"}}) { id } }",
                "{ site_list(filters: {id: {exact: \"abc\"}}) { id } }",
                "{ site_list(filters: {id: {in_list: [\"1\", \"x\"]}}) { id } }",
                "{ site_list(filters: {created: {gt: \"yesterday\"}}) { id } }",
                "{ site_list(filters: {latitude: {filter_lookup: {exact: 1e400}}}) { id } }",
                "{ site_list(filters: {custom_field_data: {path: \"x;drop\", lookup: {string_lookup: {exact: \"1\"}}}}) { id } }",
                "{ site_list(pagination: {offset: 0, limit: 99999999999}) { id } }",
                "{ site_list(pagination: {offset: 0, start: -5}) { id } }",
                "{ site(id: \"99999999999999999999999\") { id } }",
                "{ site_list(filters: {region_id: {id: \"x\", match_type: EXACT}}) { id } }",
                "{ nosuch { id } }",
                "query($f: SiteFilter) { site_list(filters: $f) { id } }");
        for (String q : hostile) {
            Response r = auth().body(Map.of("query", q, "variables", Map.of("f", Map.of("name", "x"))))
                    .post("/graphql/");
            String body = r.asString();
            if (r.statusCode() >= 500 || !body.contains("\"errors\"")) {
                problems.add("GraphQL " + q + " -> " + r.statusCode() + " without GraphQL errors: " + body);
            } else if (body.contains("Server Error") || body.contains("SQL") || body.contains("java.")) {
                problems.add("GraphQL " + q + " -> internal text: " + body);
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
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
     * Clients send long filter lists ({@code ?id=1&id=2...}): URLs of some kilobytes and up to
     * 1,000 parameters are served; more parameters get a 400, longer URLs and oversized headers
     * a 414/431 JSON error, not an empty answer.
     */
    @org.junit.jupiter.api.Test
    void longUrlsAreServedUpToALimitAndRefusedWithJsonBeyondIt() {
        StringBuilder ids = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            ids.append(ids.isEmpty() ? "" : "&").append("id=").append(i);
        }
        auth().get("/api/dcim/sites/?" + ids).then().statusCode(200);
        // one more than Django's DATA_UPLOAD_MAX_NUMBER_FIELDS: refused, not cut short silently
        Response tooMany = auth().get("/api/dcim/sites/?" + ids + "&id=1001");
        assertEquals(400, tooMany.statusCode(), tooMany.asString());
        assertTrue(tooMany.jsonPath().getString("detail").contains("1000"), tooMany.asString());
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
    private static final List<String> INTERNAL_TEXT = List.of(
            "ERROR:",
            "org.",
            "java.",
            "Exception",
            "SQL",
            // the JSON parser's own wording: its settings in backticks, character codes, source
            "`",
            "StreamReadConstraints",
            "JsonReadFeature",
            "(code ",
            "REDACTED",
            "was expecting",
            "jackson");

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

    /** A 4xx whose body names {@code field} (at the top level, or in the first item of a list). */
    private static void expectFieldNamed(List<String> problems, String what, Response r, String field) {
        if (!expect4xx(problems, what, r)) {
            return;
        }
        if (!r.asString().contains("\"" + field + "\":")) {
            problems.add(what + " -> " + r.statusCode() + " does not name " + field + ": " + r.asString());
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
     * Webhook fields that must be refused at save: a template nested
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
