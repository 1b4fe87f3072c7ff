package org.sourceoftruth.records.changelog;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/**
 * Sensitive fields (a webhook's secret, a password hash, a token's key and plaintext) are in no
 * change record, no change event on Kafka, no object-change answer, no export, and event rules
 * may name only the object types NetBox 4.6 lets them name.
 */
@QuarkusTest
class SensitiveFieldsTest {
    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "sot.changes-topic")
    String topic;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @Test
    void aWebhooksSecretIsShownByTheApiButInNoChangeRecordOrEvent() {
        String u = Api.uniq();
        String first = "first-secret-" + u;
        String second = "second-secret-" + u;
        List<ExtractableResponse<Response>> writes = new ArrayList<>();
        ExtractableResponse<Response> created = auth().body(
                        Map.of("name", "sensitive-" + u, "payload_url", "http://127.0.0.1:9/hook", "secret", first))
                .post("/api/extras/webhooks/")
                .then()
                .statusCode(201)
                .body("secret", equalTo(first)) // NetBox's API shows it
                .extract();
        writes.add(created);
        int id = created.path("id");
        auth().get("/api/extras/webhooks/" + id + "/").then().statusCode(200).body("secret", equalTo(first));
        writes.add(auth().body(Map.of("secret", second, "description", "changed"))
                .patch("/api/extras/webhooks/" + id + "/")
                .then()
                .statusCode(200)
                .extract());
        writes.add(auth().delete("/api/extras/webhooks/" + id + "/")
                .then()
                .statusCode(204)
                .extract());

        List<ChangeLogTable.Row> rows = rowsOf(writes);
        assertEquals(3, rows.size(), "create, update and delete are logged");
        for (ChangeLogTable.Row row : rows) {
            for (JsonNode part : new JsonNode[] {row.prechange(), row.postchange(), row.eventData()}) {
                if (part != null && !part.isNull()) {
                    assertFalse(part.has("secret"), "the field is left out: " + part);
                    assertTrue(part.has("name") || part.has("payload_url"), "the rest is there: " + part);
                }
            }
        }
        ChangeLogTable.Row update = rows.get(1);
        assertEquals("", update.prechange().path("description").asText());
        assertEquals("changed", update.postchange().path("description").asText());
        assertNoneCarries(rows, events(rows), first, second);
        String changes = auth().get(
                        "/api/core/object-changes/?changed_object_type=extras.webhook&changed_object_id=" + id)
                .then()
                .statusCode(200)
                .body("count", equalTo(3))
                .extract()
                .asString();
        assertFalse(changes.contains(first) || changes.contains(second), changes);
    }

    @Test
    void passwordHashesAndTokenSecretsAreInNoChangeRecordOrEvent() {
        String u = Api.uniq();
        List<ExtractableResponse<Response>> writes = new ArrayList<>();
        ExtractableResponse<Response> user = auth().body(Map.of("username", "sens-" + u, "password", Accounts.PASSWORD))
                .post("/api/users/users/")
                .then()
                .statusCode(201)
                .extract();
        writes.add(user);
        int userId = user.path("id");
        writes.add(auth().body(Map.of("password", "Another-Horse-43"))
                .patch("/api/users/users/" + userId + "/")
                .then()
                .statusCode(200)
                .extract());
        ExtractableResponse<Response> v1 = auth().body(Map.of("user", userId, "version", 1))
                .post("/api/users/tokens/")
                .then()
                .statusCode(201)
                .extract();
        writes.add(v1);
        ExtractableResponse<Response> v2 = auth().body(Map.of("user", userId, "version", 2))
                .post("/api/users/tokens/")
                .then()
                .statusCode(201)
                .extract();
        writes.add(v2);
        writes.add(auth().body(Map.of("description", "renamed"))
                .patch("/api/users/tokens/" + v1.path("id") + "/")
                .then()
                .statusCode(200)
                .extract());
        String v1Secret = v1.path("token");
        String v2Secret = v2.path("token");
        assertEquals(40, v1Secret.length());
        assertEquals(40, v2Secret.length());

        List<ChangeLogTable.Row> rows = rowsOf(writes);
        assertEquals(5, rows.size());
        for (ChangeLogTable.Row row : rows) {
            JsonNode post = row.postchange();
            assertFalse(post.has("password") || post.has("token") || post.has("hmac_digest"), post.toString());
        }
        assertNoneCarries(rows, events(rows), "pbkdf2_sha256", v1Secret, v2Secret, digestOf(v2.path("id")));
    }

    @Test
    void exportTemplatesSeeNoSecret() {
        String u = Api.uniq();
        String secret = "exported-secret-" + u;
        Api.create(
                "/api/extras/webhooks/",
                Map.of("name", "export-" + u, "payload_url", "http://127.0.0.1:9/x", "secret", secret));
        String name = "hooks-" + u;
        Api.create(
                "/api/extras/export-templates/",
                Map.of(
                        "name",
                        name,
                        "object_types",
                        List.of("extras.webhook"),
                        "template_code",
                        "{% for w in queryset %}[{{ w.name }}:{{ w.secret }}]{% endfor %}"));
        String out = auth().get("/api/extras/webhooks/?name=export-" + u + "&export=" + name)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertTrue(out.contains("[export-" + u + ":"), out);
        assertFalse(out.contains(secret), out);
    }

    @Test
    void eventRulesNameOnlyTheObjectTypesNetBoxAllows() {
        int webhook = Api.create(
                "/api/extras/webhooks/", Map.of("name", "rules-" + Api.uniq(), "payload_url", "http://127.0.0.1:9/r"));
        for (String refused : List.of(
                "users.token",
                "users.user",
                "users.group",
                "users.objectpermission",
                "extras.bookmark",
                "extras.notification",
                "extras.subscription",
                "extras.taggeditem",
                "core.objectchange",
                "core.job",
                "core.datafile",
                "core.objecttype")) {
            auth().body(rule(refused, webhook))
                    .post("/api/extras/event-rules/")
                    .then()
                    .statusCode(400)
                    .body("object_types", equalTo(List.of("Invalid content type: " + refused)));
        }
        for (String allowed :
                List.of("extras.webhook", "dcim.site", "extras.script", "core.datasource", "extras.tag")) {
            auth().body(rule(allowed, webhook))
                    .post("/api/extras/event-rules/")
                    .then()
                    .statusCode(201);
        }
        auth().get("/api/core/object-types/?app_label=users&model=token")
                .then()
                .statusCode(200)
                .body("results[0].features", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("event_rules")));
        auth().get("/api/core/object-types/?app_label=extras&model=script")
                .then()
                .statusCode(200)
                .body("results[0].features", org.hamcrest.Matchers.hasItem("event_rules"));
    }

    private static Map<String, Object> rule(String objectType, int webhook) {
        return Map.of(
                "name",
                "rule-" + Api.uniq(),
                "object_types",
                List.of(objectType),
                "event_types",
                List.of("object_created"),
                "action_object_type",
                "extras.webhook",
                "action_object_id",
                webhook);
    }

    private List<ChangeLogTable.Row> rowsOf(List<ExtractableResponse<Response>> writes) {
        ChangeLogTable table = new ChangeLogTable(dataSource);
        List<ChangeLogTable.Row> rows = new ArrayList<>();
        for (ExtractableResponse<Response> w : writes) {
            rows.addAll(table.ofRequest(UUID.fromString(w.header("X-Request-ID"))));
        }
        return rows;
    }

    /** The change events of these records, read off the topic. */
    private List<ChangeEvent> events(List<ChangeLogTable.Row> rows) {
        Set<UUID> changeIds = rows.stream().map(ChangeLogTable.Row::changeId).collect(Collectors.toSet());
        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            List<ChangeEvent> events = reader
                    .readUntil(
                            all -> all.stream()
                                            .filter(r ->
                                                    changeIds.contains(r.event().changeId()))
                                            .count()
                                    >= changeIds.size(),
                            Duration.ofSeconds(60))
                    .stream()
                    .map(TopicReader.Received::event)
                    .filter(e -> changeIds.contains(e.changeId()))
                    .toList();
            assertEquals(changeIds.size(), events.size(), "every change reached the topic");
            return events;
        }
    }

    /** The hex HMAC a v2 token's secret is stored as, which is no more shown than the secret. */
    private String digestOf(int tokenId) {
        return String.valueOf(
                new ChangeLogTable(dataSource).single("select hmac_digest from users_token where id = ?", tokenId));
    }

    private static void assertNoneCarries(List<ChangeLogTable.Row> rows, List<ChangeEvent> events, String... secrets) {
        List<String> texts = new ArrayList<>();
        for (ChangeLogTable.Row row : rows) {
            texts.add(row.objectRepr() + " " + row.prechange() + " " + row.postchange() + " " + row.eventData());
        }
        for (ChangeEvent event : events) {
            texts.add(new String(Json.toBytes(event), StandardCharsets.UTF_8));
        }
        for (String text : texts) {
            for (String secret : secrets) {
                assertFalse(text.contains(secret), "carries " + secret + ": " + text);
            }
        }
    }
}
