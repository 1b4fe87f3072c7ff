package org.sourceoftruth.model.conditions;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * {@code {"and": [...]}} or {@code {"or": [...]}}. Like NetBox, every member is evaluated before
 * the results are combined, so a missing key in any member stops the whole rule from firing,
 * even when another branch of an "or" would have matched.
 */
public record ConditionSet(Logic logic, List<Condition> members) implements Condition {

    public enum Logic {
        AND,
        OR
    }

    @Override
    public boolean evaluate(JsonNode data) throws ConditionEvaluationException {
        boolean all = true;
        boolean any = false;
        for (Condition member : members) {
            boolean result = member.evaluate(data);
            all &= result;
            any |= result;
        }
        // Python's all([]) is True and any([]) is False; the loop above gives the same.
        return logic == Logic.AND ? all : any;
    }
}
