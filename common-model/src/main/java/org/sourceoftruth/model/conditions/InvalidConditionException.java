package org.sourceoftruth.model.conditions;

/**
 * A condition document that NetBox would refuse at save time (wrong shape, unknown operator,
 * operator unsuited to the value's type). The message is what the API reports under the
 * {@code conditions} key.
 */
public class InvalidConditionException extends Exception {
    public InvalidConditionException(String message) {
        super(message);
    }
}
