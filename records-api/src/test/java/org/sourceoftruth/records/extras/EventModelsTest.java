package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.startsWith;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Webhooks and event rules: NetBox's shapes, and bad templates/conditions/URLs refused at save. */
@QuarkusTest
class EventModelsTest {

    @Test
    void webhookAndRuleRoundTrip() {
        String u = Api.uniq();
        int hook = create(
                "/api/extras/webhooks/",
                Map.of(
                        "name",
                        "h-" + u,
                        "payload_url",
                        "https://hooks.example/{{ event }}",
                        "http_method",
                        "PUT",
                        "body_template",
                        "{\"name\": \"{{ data['name'] }}\"}",
                        "secret",
                        "s"));
        auth().get("/api/extras/webhooks/" + hook + "/")
                .then()
                .statusCode(200)
                .body("http_method", equalTo("PUT"))
                .body("http_content_type", equalTo("application/json"))
                .body("ssl_verification", equalTo(true))
                .body("secret", equalTo("s"));
        int rule = create(
                "/api/extras/event-rules/",
                Map.of(
                        "name",
                        "r-" + u,
                        "object_types",
                        List.of("dcim.site"),
                        "event_types",
                        List.of("object_created"),
                        "action_object_type",
                        "extras.webhook",
                        "action_object_id",
                        hook,
                        "conditions",
                        Map.of("and", List.of(Map.of("attr", "status.value", "value", "active")))));
        auth().get("/api/extras/event-rules/" + rule + "/")
                .then()
                .statusCode(200)
                .body("action_object_type", equalTo("extras.webhook"))
                .body("action_object_id", equalTo(hook))
                .body("action_object.name", equalTo("h-" + u))
                .body("action_type.value", equalTo("webhook"))
                .body("event_types", contains("object_created"))
                .body("enabled", equalTo(true));
        auth().get("/api/extras/event-rules/?object_type=dcim.site&name=r-" + u)
                .then()
                .body("count", equalTo(1));
    }

    @Test
    void badTemplatesConditionsUrlsAndChoicesAreRefused() {
        String u = Api.uniq();
        Api.post("/api/extras/webhooks/", Map.of("name", "b1-" + u, "payload_url", "ftp://x.example/"))
                .statusCode(400)
                .body("payload_url", contains("Enter a valid URL (http or https)."));
        Api.post(
                        "/api/extras/webhooks/",
                        Map.of(
                                "name",
                                "b2-" + u,
                                "payload_url",
                                "http://x.example/",
                                "body_template",
                                "{{ data['name' }}"))
                .statusCode(400)
                .body("body_template[0]", startsWith("Invalid template"));
        Api.post(
                        "/api/extras/webhooks/",
                        Map.of("name", "b3-" + u, "payload_url", "http://x.example/", "http_method", "FETCH"))
                .statusCode(400)
                .body("http_method", contains("\"FETCH\" is not a valid choice."));
        int hook = create("/api/extras/webhooks/", Map.of("name", "ok-" + u, "payload_url", "http://x.example/"));
        Api.post(
                        "/api/extras/event-rules/",
                        Map.of(
                                "name",
                                "c1-" + u,
                                "object_types",
                                List.of("dcim.site"),
                                "event_types",
                                List.of("object_created"),
                                "action_object_type",
                                "extras.webhook",
                                "action_object_id",
                                hook,
                                "conditions",
                                List.of(Map.of("attr", "x"))))
                .statusCode(400)
                .body("$", hasKey("conditions"));
        Api.post(
                        "/api/extras/event-rules/",
                        Map.of(
                                "name",
                                "c2-" + u,
                                "object_types",
                                List.of("dcim.nope"),
                                "event_types",
                                List.of("object_exploded"),
                                "action_object_type",
                                "extras.webhook",
                                "action_object_id",
                                hook))
                .statusCode(400)
                .body("object_types", contains("Invalid content type: dcim.nope"))
                .body("event_types", contains("\"object_exploded\" is not a valid choice."));
        Api.post(
                        "/api/extras/event-rules/",
                        Map.of(
                                "name",
                                "c3-" + u,
                                "object_types",
                                List.of("dcim.site"),
                                "event_types",
                                List.of("object_created"),
                                "action_object_type",
                                "extras.webhook",
                                "action_object_id",
                                99999999))
                .statusCode(400)
                .body("$", hasKey("action_object_id"));
        auth().get("/api/extras/event-rules/?name__isw=c&name__iew=" + u).then().body("count", equalTo(0));
    }

    /** A template nested past the parser's bound is a 400 naming the field, not a 500. */
    @Test
    void deeplyNestedTemplatesAreRefusedNamingTheField() {
        String u = Api.uniq();
        String nested = "{{ " + "(".repeat(1000) + "data.name" + ")".repeat(1000) + " }}";
        Api.post(
                        "/api/extras/webhooks/",
                        Map.of("name", "n1-" + u, "payload_url", "http://x.example/", "body_template", nested))
                .statusCode(400)
                .body(
                        "body_template",
                        contains("Invalid template: line 1: expression is nested more than 100 levels deep"));
        Api.post(
                        "/api/extras/webhooks/",
                        Map.of(
                                "name",
                                "n2-" + u,
                                "payload_url",
                                "http://x.example/",
                                "additional_headers",
                                "X-A: " + nested))
                .statusCode(400)
                .body("additional_headers[0]", startsWith("Invalid template: line 1: expression is nested"));
        Api.post(
                        "/api/extras/webhooks/",
                        Map.of("name", "n3-" + u, "payload_url", "http://x.example/{{ " + "-".repeat(300) + "1 }}"))
                .statusCode(400)
                .body("payload_url[0]", startsWith("Invalid template"));
        auth().get("/api/extras/webhooks/?name__iew=" + u).then().body("count", equalTo(0));
    }

    /** Headers that frame the message or the connection are refused at save. */
    @Test
    void connectionAndFramingHeadersAreRefused() {
        String u = Api.uniq();
        for (String header : List.of(
                "Transfer-Encoding: chunked",
                "Content-Length: 5",
                "Host: evil.example",
                "connection: close",
                "Upgrade: h2c",
                "TE: trailers",
                "Trailer: X",
                "Keep-Alive: 5",
                "Proxy-Authorization: Basic eA==",
                "{% if data %}Transfer-Encoding: chunked{% endif %}")) {
            Api.post(
                            "/api/extras/webhooks/",
                            Map.of(
                                    "name",
                                    "hh-" + u,
                                    "payload_url",
                                    "http://x.example/",
                                    "additional_headers",
                                    "X-Ok: 1\n" + header))
                    .statusCode(400)
                    .body(
                            "additional_headers[0]",
                            startsWith("The "
                                    + header.replaceAll("\\{%.*?%}", "").split(":")[0] + " header cannot be set"));
        }
        int hook = create(
                "/api/extras/webhooks/",
                Map.of(
                        "name",
                        "hh-" + u,
                        "payload_url",
                        "http://x.example/",
                        "additional_headers",
                        "X-Ok: 1\nAuthorization: Token abc\nX-Transfer-Encoding-Note: fine"));
        Api.auth()
                .body(Map.of("additional_headers", "Transfer-Encoding: chunked"))
                .patch("/api/extras/webhooks/" + hook + "/")
                .then()
                .statusCode(400)
                .body("additional_headers[0]", startsWith("The Transfer-Encoding header"));
        auth().get("/api/extras/webhooks/" + hook + "/")
                .then()
                .body(
                        "additional_headers",
                        equalTo("X-Ok: 1\nAuthorization: Token abc\nX-Transfer-Encoding-Note: fine"));
    }
}
