package org.sourceoftruth.dispatcher.rules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A set of event rules and webhooks as matching reads it: the enabled rules whose action is a
 * known webhook, by object type and by id. Never changed once built.
 */
public final class RuleIndex {

    private final Map<String, List<ActiveRule>> byObjectType;
    private final Map<Long, ActiveRule> byId;

    private RuleIndex(Map<String, List<ActiveRule>> byObjectType, Map<Long, ActiveRule> byId) {
        this.byObjectType = byObjectType;
        this.byId = byId;
    }

    /** The index of these rules, each joined with its webhook; rules whose webhook is unknown are left out. */
    static RuleIndex of(Collection<EventRuleDefinition> rules, Map<Long, WebhookDefinition> webhooks) {
        Map<String, List<ActiveRule>> byType = new HashMap<>();
        Map<Long, ActiveRule> byId = new HashMap<>();
        rules.stream()
                .filter(EventRuleDefinition::firesWebhook)
                .sorted(Comparator.comparingLong(EventRuleDefinition::id))
                .forEach(rule -> {
                    WebhookDefinition webhook = webhooks.get(rule.webhookId());
                    if (webhook == null) {
                        return;
                    }
                    ActiveRule active = rule.withWebhook(webhook);
                    byId.put(active.id(), active);
                    for (String objectType : active.objectTypes()) {
                        byType.computeIfAbsent(objectType, k -> new ArrayList<>())
                                .add(active);
                    }
                });
        byType.replaceAll((k, v) -> List.copyOf(v));
        return new RuleIndex(Map.copyOf(byType), Map.copyOf(byId));
    }

    /** The enabled rules for this object type and event type, e.g. (dcim.site, object_created), by id. */
    public List<ActiveRule> rulesFor(String objectType, String eventType) {
        return byObjectType.getOrDefault(objectType, List.of()).stream()
                .filter(rule -> rule.eventTypes().contains(eventType))
                .toList();
    }

    /** The enabled webhook rule with this id, if there is one. */
    public Optional<ActiveRule> rule(long id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The enabled rules that send to this webhook, by id. */
    public List<ActiveRule> forWebhook(long webhookId) {
        return byId.values().stream()
                .filter(rule -> rule.webhook().id() == webhookId)
                .sorted(Comparator.comparingLong(ActiveRule::id))
                .toList();
    }

    /** How many enabled webhook rules there are. */
    public int size() {
        return byId.size();
    }
}
