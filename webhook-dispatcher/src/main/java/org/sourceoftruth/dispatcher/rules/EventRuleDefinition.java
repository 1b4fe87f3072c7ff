package org.sourceoftruth.dispatcher.rules;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.jboss.logging.Logger;
import org.sourceoftruth.model.conditions.Condition;
import org.sourceoftruth.model.conditions.Conditions;
import org.sourceoftruth.model.conditions.InvalidConditionException;

/**
 * An event rule of records-api (extras.eventrule), its conditions parsed once. It fires a
 * webhook when it is enabled, its action is a webhook and that webhook is known; see
 * {@link RuleCache}.
 *
 * @param condition      null when the stored conditions are invalid (the rule never fires)
 * @param conditionError why they are invalid
 * @param webhookId      action_object_id when the action object is a webhook, else null
 */
record EventRuleDefinition(
        long id,
        String name,
        boolean enabled,
        String actionType,
        Long webhookId,
        Set<String> objectTypes,
        Set<String> eventTypes,
        Condition condition,
        String conditionError,
        JsonNode actionData) {

    private static final Logger LOG = Logger.getLogger(EventRuleDefinition.class);
    static final String WEBHOOK_MODEL = "extras.webhook";

    /** Reads records-api's representation of an event rule. */
    static EventRuleDefinition from(Representation rule) throws Representation.Incomplete {
        long id = rule.id();
        String name = rule.text("name");
        Condition condition = null;
        String conditionError = null;
        try {
            condition = Conditions.parse(rule.json("conditions"));
        } catch (InvalidConditionException e) {
            conditionError = e.getMessage();
            LOG.warnf("Event rule %d (%s) has invalid conditions and will not fire: %s", id, name, conditionError);
        }
        Long webhookId = WEBHOOK_MODEL.equals(rule.text("action_object_type")) ? rule.number("action_object_id") : null;
        return new EventRuleDefinition(
                id,
                name,
                rule.bool("enabled"),
                rule.choice("action_type"),
                webhookId,
                rule.strings("object_types"),
                rule.strings("event_types"),
                condition,
                conditionError,
                rule.json("action_data"));
    }

    /** True when this rule sends a webhook (whether that webhook is known is the cache's business). */
    boolean firesWebhook() {
        return enabled && "webhook".equals(actionType) && webhookId != null;
    }

    ActiveRule withWebhook(WebhookDefinition webhook) {
        return new ActiveRule(id, name, objectTypes, eventTypes, condition, conditionError, actionData, webhook);
    }
}
