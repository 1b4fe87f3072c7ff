package org.sourceoftruth.model.conditions;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A parsed event-rule condition (NetBox's {@code extras/conditions.py} language). Build one with
 * {@link Conditions#parse(JsonNode)}.
 */
public sealed interface Condition permits ConditionSet, AttributeCondition, Conditions.Always {

    /**
     * @param data the object's REST representation (the event's {@code data})
     * @return whether the rule should fire for this object
     * @throws ConditionEvaluationException when a key is missing or a value has an unusable
     *                                      type; the rule then must not fire
     */
    boolean evaluate(JsonNode data) throws ConditionEvaluationException;
}
