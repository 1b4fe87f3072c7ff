package org.sourceoftruth.dispatcher.rules;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.sourceoftruth.model.conditions.Condition;

/**
 * An enabled event rule whose action is a webhook.
 *
 * @param condition        null when the stored conditions are invalid (the rule never fires)
 * @param conditionError   why the stored conditions are invalid
 * @param actionData       the rule's action_data, merged under the event's data (may be null)
 */
public record ActiveRule(
        long id,
        String name,
        Set<String> objectTypes,
        Set<String> eventTypes,
        Condition condition,
        String conditionError,
        JsonNode actionData,
        WebhookDefinition webhook) {

    /** NetBox's event type for a change event: created becomes object_created, and so on. */
    public static String eventType(String event) {
        return "object_" + event;
    }
}
