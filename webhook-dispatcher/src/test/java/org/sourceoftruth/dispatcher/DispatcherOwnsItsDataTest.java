package org.sourceoftruth.dispatcher;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.dispatcher.support.Fixtures.ALL_EVENTS;
import static org.sourceoftruth.dispatcher.support.Fixtures.json;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestDatabase;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.records.testsupport.Management;

/**
 * The dispatcher owns its data: it runs as a database role with no privilege on
 * records-api's schema (so every other test of this module passes without one), and learns
 * webhooks and event rules from records-api's API and from their change events.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class DispatcherOwnsItsDataTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Fixtures fixtures;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RuleCache rules;

    @BeforeAll
    static void setUp() {
        fixtures = Fixtures.forTests();
    }

    @AfterAll
    static void tearDown() {
        fixtures.close();
    }

    @Test
    void theDispatchersRoleHasNoGrantOnRecordsApisTables() throws Exception {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("select current_user")) {
            row.next();
            assertEquals(TestDatabase.DISPATCHER_USER, row.getString(1), "the dispatcher connects as its own role");
            assertNotEquals(TestDatabase.USER, row.getString(1));
        }
        // records-api's tables, as records-api's role sees them
        List<String> tables =
                Fixtures.rows("""
                select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S') order by 1""").stream().map(r -> (String) r.get("relname")).toList();
        for (String table :
                List.of("extras_webhook", "extras_eventrule", "users_user", "users_token", "users_session")) {
            assertTrue(tables.contains(table), "records-api's table " + table + " is in the test database");
        }
        assertEquals(
                false,
                Fixtures.rows(
                                "select has_schema_privilege(?, 'public', 'USAGE') as granted",
                                TestDatabase.DISPATCHER_USER)
                        .get(0)
                        .get("granted"),
                "the dispatcher's role may use records-api's schema");
        List<Map<String, Object>> granted = Fixtures.rows(
                """
                select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S') and case when c.relkind = 'S'
                    then has_sequence_privilege(?, c.oid, 'USAGE, SELECT, UPDATE')
                    else has_table_privilege(?, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
                         or has_any_column_privilege(?, c.oid, 'SELECT, INSERT, UPDATE, REFERENCES') end""", TestDatabase.DISPATCHER_USER, TestDatabase.DISPATCHER_USER, TestDatabase.DISPATCHER_USER);
        assertEquals(List.of(), granted, "the dispatcher's role has privileges on records-api's tables");
        // and its own connection is refused them
        for (String sql : List.of(
                "select 1 from public.extras_webhook",
                "select 1 from public.users_token",
                "update public.users_token set last_used = now()")) {
            SQLException refused = assertThrows(
                    SQLException.class,
                    () -> {
                        try (Connection connection = dataSource.getConnection();
                                Statement statement = connection.createStatement()) {
                            statement.execute(sql);
                        }
                    },
                    sql);
            assertEquals("42501", refused.getSQLState(), sql + ": " + refused.getMessage()); // insufficient_privilege
        }
    }

    @Test
    void webhooksAndRulesComeThroughRecordsApisApi() throws Exception {
        long webhook = Fixtures.webhook("own data hook", "http://127.0.0.1:9/own", "X-Own: yes", null, "own-secret");
        long rule = Fixtures.eventRule("own data rule", List.of("dcim.powerfeed"), ALL_EVENTS, null, webhook);
        rules.refresh();
        ActiveRule active = rules.rule(rule).orElseThrow();
        assertEquals(webhook, active.webhook().id());
        assertEquals("own-secret", active.webhook().secret(), "the secret is read through the API too");
        assertEquals("X-Own: yes", active.webhook().additionalHeaders());
        Management.given()
                .get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("checks.find { it.name == 'event-rules' }.status", equalTo("UP"));
    }

    /**
     * A change event carries the whole object: it is applied as it is (here it names another
     * receiver than records-api's table, so only the event can have told the dispatcher), a
     * delete removes it, and an event that cannot say the whole object makes it read again.
     */
    @Test
    void changeEventsOfWebhooksAndRulesAreApplied() throws Exception {
        try (Receiver before = Receiver.start();
                Receiver after = Receiver.start()) {
            long webhook = Fixtures.webhook("event-applied hook", before.url("/before"), null, null, null);
            long rule = Fixtures.eventRule("event-applied rule", List.of("dcim.powerpanel"), ALL_EVENTS, null, webhook);
            rules.refresh();

            ChangeEvent moved = Fixtures.event(
                    "updated",
                    "extras.webhook",
                    webhook,
                    json("""
                    {"id": %d, "url": "/api/extras/webhooks/%d/", "name": "event-applied hook", "payload_url": "%s",
                     "http_method": "PUT", "http_content_type": "application/json", "additional_headers": "",
                     "body_template": "", "secret": "", "ssl_verification": true, "ca_file_path": null}""".formatted(webhook, webhook, after.url("/after"))),
                    null,
                    null);
            fixtures.publish(moved);
            await().atMost(WAIT).until(() -> Fixtures.processed(moved.changeId()));
            fixtures.publish(Fixtures.event("created", "dcim.powerpanel", 4, json("{\"id\": 4}"), null, null));
            await().atMost(WAIT).until(() -> after.received().size() == 1);
            assertEquals("PUT", after.received().get(0).method());
            assertEquals(0, before.received().size());

            // a truncated event is not trusted: the rule is read again (still enabled in records-api)
            ChangeEvent truncated = Fixtures.event(
                            "updated", "extras.eventrule", rule, json("{\"id\": " + rule + "}"), null, null)
                    .truncatedTo(json("{\"id\": " + rule + ", \"enabled\": false}"), null);
            fixtures.publish(truncated);
            await().atMost(WAIT).until(() -> Fixtures.processed(truncated.changeId()));
            assertTrue(rules.rule(rule).isPresent(), "a truncated event's reduced data was applied");

            ChangeEvent deleted =
                    Fixtures.event("deleted", "extras.eventrule", rule, json("{\"id\": " + rule + "}"), null, null);
            fixtures.publish(deleted);
            await().atMost(WAIT).until(() -> Fixtures.processed(deleted.changeId()));
            assertFalse(rules.rule(rule).isPresent(), "a deleted rule still fires");
            ChangeEvent ignored = Fixtures.event("created", "dcim.powerpanel", 4, json("{\"id\": 4}"), null, null);
            fixtures.publish(ignored);
            await().atMost(WAIT).until(() -> Fixtures.processed(ignored.changeId()));
            assertTrue(Fixtures.deliveriesOf(ignored.changeId()).isEmpty());
        }
    }
}
