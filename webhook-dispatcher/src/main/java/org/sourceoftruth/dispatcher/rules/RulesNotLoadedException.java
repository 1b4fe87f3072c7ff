package org.sourceoftruth.dispatcher.rules;

/**
 * The webhooks and event rules have not been read from records-api yet (it did not answer since
 * the dispatcher started). Matching a change now could lose its deliveries, so the change is not
 * processed: the consumer retries it, the template renderer after the delivery's lease.
 */
public class RulesNotLoadedException extends RuntimeException {

    public RulesNotLoadedException(String reason) {
        super("webhooks and event rules are not loaded from records-api yet: " + reason);
    }
}
