package org.sourceoftruth.model.conditions;

/**
 * A valid condition that cannot be evaluated against one object's data: a key on the path is
 * missing, or the data has a type the operator cannot handle. NetBox then does not fire the rule
 * and logs the reason; callers do the same.
 */
public class ConditionEvaluationException extends Exception {
    public ConditionEvaluationException(String message) {
        super(message);
    }
}
