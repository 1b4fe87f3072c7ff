package org.sourceoftruth.dispatcher.consume;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.delivery.DeliveryStore;
import org.sourceoftruth.dispatcher.delivery.DeliveryWorker;
import org.sourceoftruth.dispatcher.delivery.NewDelivery;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.dispatcher.template.RequestPreparationException;
import org.sourceoftruth.dispatcher.template.WebhookRequestBuilder;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.conditions.ConditionEvaluationException;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns one change event into delivery rows: finds the enabled webhook rules for its model and
 * event type, evaluates their conditions against the event's data, builds each request, and
 * records everything together with the event's change id in one transaction.
 */
@ApplicationScoped
public class ChangeProcessor {

    private static final Logger LOG = Logger.getLogger(ChangeProcessor.class);

    @Inject
    RuleCache rules;
    @Inject
    WebhookRequestBuilder requests;
    @Inject
    DeliveryStore store;
    @Inject
    DeliveryWorker worker;

    /** Outcome of processing one event. */
    public record Result(boolean duplicate, int deliveries) {
    }

    public Result process(ChangeEvent event) throws SQLException {
        if (RuleCache.RULE_MODELS.contains(event.model())) {
            rules.invalidate();
        }
        // Matching and rendering happen before the transaction, which then stays short.
        List<NewDelivery> deliveries = new ArrayList<>();
        for (ActiveRule rule : rules.rulesFor(event.model(), ActiveRule.eventType(event.event()))) {
            if (matches(rule, event)) {
                deliveries.add(prepare(rule, event));
            }
        }
        if (!store.recordChange(event, deliveries)) {
            LOG.debugf("Change %s was already processed; skipped", event.changeId());
            return new Result(true, 0);
        }
        if (!deliveries.isEmpty()) {
            worker.wake();
        }
        return new Result(false, deliveries.size());
    }

    private static boolean matches(ActiveRule rule, ChangeEvent event) {
        if (rule.condition() == null) {
            return false; // invalid conditions: logged when the rule was loaded
        }
        try {
            return rule.condition().evaluate(event.data());
        } catch (ConditionEvaluationException e) {
            LOG.infof("Event rule %d (%s) not fired for %s %s:%d: %s", rule.id(), rule.name(), event.event(),
                    event.model(), event.objectId(), e.getMessage());
            return false;
        }
    }

    private NewDelivery prepare(ActiveRule rule, ChangeEvent event) {
        try {
            RenderedRequest request = requests.build(rule, event);
            return new NewDelivery(event, rule, request, null);
        } catch (RequestPreparationException e) {
            LOG.warnf("Webhook %d (%s) for change %s: %s", rule.webhook().id(), rule.webhook().name(),
                    event.changeId(), e.getMessage());
            return new NewDelivery(event, rule, null, e.getMessage());
        }
    }
}
