package org.sourceoftruth.dispatcher.rules;

import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.model.conditions.Condition;
import org.sourceoftruth.model.conditions.Conditions;
import org.sourceoftruth.model.conditions.InvalidConditionException;

import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * In-memory copy of the enabled webhook event rules, indexed by object type. Change events of
 * extras.webhook and extras.eventrule mark it stale (it reloads before the next lookup); a
 * periodic refresh catches changes made outside records-api.
 */
@ApplicationScoped
public class RuleCache {

    private static final Logger LOG = Logger.getLogger(RuleCache.class);

    /** Models whose change events invalidate the cache. */
    public static final Set<String> RULE_MODELS = Set.of("extras.webhook", "extras.eventrule");

    private static final String LOAD = """
            select r.id, r.name, r.object_types, r.event_types, r.conditions::text, r.action_data::text,
                   w.id, w.name, w.payload_url, w.http_method, w.http_content_type, w.additional_headers,
                   w.body_template, w.secret, w.ssl_verification, w.ca_file_path
            from public.extras_eventrule r
            join public.extras_webhook w on w.id = r.action_object_id
            where r.enabled and r.action_type = 'webhook' and r.action_object_type = 'extras.webhook'
            order by r.id""";

    @Inject
    AgroalDataSource dataSource;

    private volatile Map<String, List<ActiveRule>> rulesByObjectType = Map.of();
    private volatile Map<Long, ActiveRule> rulesById = Map.of();
    private volatile boolean stale = true;

    void onStart(@Observes StartupEvent event) {
        try {
            refresh();
        } catch (SQLException e) {
            LOG.warnf("Could not load event rules at start (will retry): %s", e.getMessage());
        }
    }

    /** The enabled rules for this object type and event type, e.g. (dcim.site, object_created). */
    public List<ActiveRule> rulesFor(String objectType, String eventType) throws SQLException {
        if (stale) {
            refresh();
        }
        List<ActiveRule> candidates = rulesByObjectType.getOrDefault(objectType, List.of());
        return candidates.stream().filter(rule -> rule.eventTypes().contains(eventType)).toList();
    }

    /** The enabled rule with this id, if there is one now. */
    public Optional<ActiveRule> rule(long id) throws SQLException {
        if (stale) {
            refresh();
        }
        return Optional.ofNullable(rulesById.get(id));
    }

    /** Reload before the next lookup. */
    public void invalidate() {
        stale = true;
    }

    @Scheduled(every = "${dispatcher.rules.refresh-interval}", delayed = "${dispatcher.rules.refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void periodicRefresh() {
        try {
            refresh();
        } catch (SQLException e) {
            LOG.warnf("Could not refresh event rules (keeping the previous copy): %s", e.getMessage());
        }
    }

    /** Loads all rules now. */
    public synchronized void refresh() throws SQLException {
        // Cleared before loading: an invalidation that arrives during the load keeps it stale.
        stale = false;
        Map<String, List<ActiveRule>> byType = new HashMap<>();
        Map<Long, ActiveRule> byId = new HashMap<>();
        int count = 0;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(LOAD);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                ActiveRule rule = toRule(rows);
                byId.put(rule.id(), rule);
                count++;
                for (String objectType : rule.objectTypes()) {
                    byType.computeIfAbsent(objectType, k -> new ArrayList<>()).add(rule);
                }
            }
        } catch (SQLException e) {
            stale = true;
            throw e;
        }
        byType.replaceAll((k, v) -> List.copyOf(v));
        rulesByObjectType = Map.copyOf(byType);
        rulesById = Map.copyOf(byId);
        LOG.debugf("Loaded %d webhook event rules", count);
    }

    private static ActiveRule toRule(ResultSet rows) throws SQLException {
        long ruleId = rows.getLong(1);
        String ruleName = rows.getString(2);
        Set<String> objectTypes = Set.copyOf(Arrays.asList(strings(rows.getArray(3))));
        Set<String> eventTypes = Set.copyOf(Arrays.asList(strings(rows.getArray(4))));
        Condition condition = null;
        String conditionError = null;
        try {
            condition = Conditions.parse(parse(rows.getString(5)));
        } catch (InvalidConditionException e) {
            conditionError = e.getMessage();
            LOG.warnf("Event rule %d (%s) has invalid conditions and will not fire: %s", ruleId, ruleName, conditionError);
        }
        JsonNode actionData = parse(rows.getString(6));
        WebhookDefinition webhook = WebhookDefinition.compile(rows.getLong(7), rows.getString(8), rows.getString(9),
                rows.getString(10), rows.getString(11), rows.getString(12), rows.getString(13), rows.getString(14),
                rows.getBoolean(15), rows.getString(16));
        if (webhook.templateError() != null) {
            LOG.warnf("Webhook %d (%s): %s", webhook.id(), webhook.name(), webhook.templateError());
        }
        return new ActiveRule(ruleId, ruleName, objectTypes, eventTypes, condition, conditionError, actionData, webhook);
    }

    private static String[] strings(Array array) throws SQLException {
        return array == null ? new String[0] : (String[]) array.getArray();
    }

    private static JsonNode parse(String json) {
        if (json == null) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("PostgreSQL returned invalid JSON", e);
        }
    }
}
