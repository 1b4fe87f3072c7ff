package org.sourceoftruth.dispatcher;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.dispatcher.support.Fixtures.json;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/**
 * Rules as of the change: rules and webhooks are made and changed through records-api's API (so
 * its change log has their versions), and change events stamped with an earlier rules version
 * are put on the topic after the rules changed, as a change recorded before a rule change and
 * consumed after it arrives. Each is matched, and rendered, with the rules of its version.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class RulesAsOfChangeTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static Fixtures fixtures;

    @Inject
    DispatcherConfig config;

    @Inject
    RuleCache ruleCache;

    @BeforeAll
    static void setUp() {
        fixtures = Fixtures.forTests();
    }

    @AfterAll
    static void tearDown() {
        fixtures.close();
    }

    private RequestSpecification api() {
        return given().baseUri(config.recordsApi().url())
                .header("Authorization", "Token " + TestInfrastructure.SERVICE_TOKEN)
                .contentType("application/json");
    }

    private int create(String path, Map<String, Object> body) {
        return api().body(body).post(path).then().statusCode(201).extract().path("id");
    }

    /** The rules version after everything done so far: the highest of the rule changes. */
    private long rulesVersion() {
        long version = 0;
        String next = "/api/core/change-events/?model=extras.eventrule&model=extras.webhook";
        while (next != null) {
            JsonNode page = Fixtures.json(
                    api().get(next).then().statusCode(200).extract().asString());
            for (JsonNode event : page.get("results")) {
                version = Math.max(version, event.get("rules_version").asLong());
            }
            next = page.get("next").isNull()
                    ? null
                    : page.get("next").asText().replace(config.recordsApi().url(), "");
        }
        return version;
    }

    private static ChangeEvent siteAt(long id, String name, Long rulesVersion) {
        return Fixtures.event(
                        "updated",
                        "dcim.site",
                        id,
                        json("{\"id\": " + id + ", \"name\": \"" + name + "\", \"description\": \"as-of\"}"),
                        null,
                        null)
                .withRulesVersion(rulesVersion);
    }

    private static List<String> names(Receiver receiver, String path) {
        return receiver.received().stream()
                .filter(r -> r.path().equals(path))
                .map(r -> json(r.bodyText()).path("data").path("name").asText(r.bodyText()))
                .sorted()
                .toList();
    }

    @Test
    void aChangeIsMatchedAgainstTheRulesInForceWhenItWasRecorded() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            int early = create(
                    "/api/extras/webhooks/", Map.of("name", "as-of early hook", "payload_url", receiver.url("/early")));
            int earlyRule = create(
                    "/api/extras/event-rules/",
                    Map.of(
                            "name",
                            "as-of early rule",
                            "object_types",
                            List.of("dcim.site"),
                            "event_types",
                            List.of("object_updated"),
                            "conditions",
                            Map.of("and", List.of(Map.of("attr", "description", "value", "as-of"))),
                            "action_object_type",
                            "extras.webhook",
                            "action_object_id",
                            early));
            long before = rulesVersion();

            // after the change of version `before` was recorded: a new rule, and the old one disabled
            int late = create(
                    "/api/extras/webhooks/", Map.of("name", "as-of late hook", "payload_url", receiver.url("/late")));
            create(
                    "/api/extras/event-rules/",
                    Map.of(
                            "name",
                            "as-of late rule",
                            "object_types",
                            List.of("dcim.site"),
                            "event_types",
                            List.of("object_updated"),
                            "conditions",
                            Map.of("and", List.of(Map.of("attr", "description", "value", "as-of"))),
                            "action_object_type",
                            "extras.webhook",
                            "action_object_id",
                            late));
            api().body(Map.of("enabled", false))
                    .patch("/api/extras/event-rules/" + earlyRule + "/")
                    .then()
                    .statusCode(200);
            long after = rulesVersion();
            ruleCache.refresh();

            fixtures.publishAll(List.of(
                    siteAt(9401, "recorded-before", before),
                    siteAt(9402, "recorded-after", after),
                    siteAt(9403, "unversioned", null)));

            await().atMost(WAIT).until(() -> receiver.received().size() >= 3);
            Thread.sleep(1000); // nothing more should come
            // the early rule fired for the change recorded while it was enabled, though disabled now;
            // the late rule for what came after it; an event without a version takes today's rules
            assertEquals(List.of("recorded-before"), names(receiver, "/early"));
            assertEquals(List.of("recorded-after", "unversioned"), names(receiver, "/late"));
        }
    }

    @Test
    void aTemplateIsRenderedAsItWasWhenTheChangeWasRecorded() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            int webhook = create(
                    "/api/extras/webhooks/",
                    Map.of(
                            "name", "as-of template hook",
                            "payload_url", receiver.url("/template"),
                            "body_template", "{\"old\": \"{{ data['name'] }}\"}"));
            create(
                    "/api/extras/event-rules/",
                    Map.of(
                            "name",
                            "as-of template rule",
                            "object_types",
                            List.of("dcim.site"),
                            "event_types",
                            List.of("object_updated"),
                            "conditions",
                            Map.of("and", List.of(Map.of("attr", "name", "value", "templated"))),
                            "action_object_type",
                            "extras.webhook",
                            "action_object_id",
                            webhook));
            long before = rulesVersion();
            api().body(Map.of("body_template", "{\"new\": \"{{ data['name'] }}\"}"))
                    .patch("/api/extras/webhooks/" + webhook + "/")
                    .then()
                    .statusCode(200);
            long after = rulesVersion();

            fixtures.publishAll(List.of(siteAt(9411, "templated", before), siteAt(9412, "templated", after)));

            await().atMost(WAIT).until(() -> receiver.received().size() >= 2);
            List<String> bodies = receiver.received().stream()
                    .map(r -> Json.MAPPER.valueToTree(json(r.bodyText())).toString())
                    .sorted()
                    .toList();
            assertEquals(List.of("{\"new\":\"templated\"}", "{\"old\":\"templated\"}"), bodies);
        }
    }
}
