package org.sourceoftruth.dispatcher.consume;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.delivery.NewDelivery;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.dispatcher.template.RequestPreparationException;
import org.sourceoftruth.dispatcher.template.WebhookRequestBuilder;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.conditions.ConditionEvaluationException;

/**
 * The deliveries a change event gives with some rules (of its model and event type): each rule
 * whose conditions hold for the event's data, with its request built now when it needs no
 * rendering (templated ones are rendered later by the TemplateRenderer, from the stored event).
 * Used for the change stream and for replays alike.
 */
@ApplicationScoped
public class DeliveryPlanner {

    private static final Logger LOG = Logger.getLogger(DeliveryPlanner.class);

    @Inject
    WebhookRequestBuilder requests;

    /** The deliveries of the event for those of the rules whose conditions hold. */
    public List<NewDelivery> plan(ChangeEvent event, List<ActiveRule> rules) {
        List<NewDelivery> deliveries = new ArrayList<>();
        WebhookRequestBuilder.EventBodies bodies = new WebhookRequestBuilder.EventBodies(event);
        for (ActiveRule rule : rules) {
            if (matches(rule, event)) {
                deliveries.add(prepare(rule, event, bodies));
            }
        }
        return deliveries;
    }

    private static boolean matches(ActiveRule rule, ChangeEvent event) {
        if (rule.condition() == null) {
            return false; // invalid conditions: logged when the rule was loaded
        }
        try {
            return rule.condition().evaluate(event.data());
        } catch (ConditionEvaluationException e) {
            LOG.infof(
                    "Event rule %d (%s) not fired for %s %s:%d: %s",
                    rule.id(), rule.name(), event.event(), event.model(), event.objectId(), e.getMessage());
            return false;
        }
    }

    private NewDelivery prepare(ActiveRule rule, ChangeEvent event, WebhookRequestBuilder.EventBodies bodies) {
        if (WebhookRequestBuilder.needsRendering(rule)) {
            // rendered by the TemplateRenderer once the delivery is recorded, not on this thread:
            // a slow template must not hold the other events of this poll
            return NewDelivery.toRender(event, rule);
        }
        try {
            RenderedRequest request = requests.build(rule, event, bodies);
            return new NewDelivery(event, rule, request, null);
        } catch (RequestPreparationException e) {
            LOG.warnf(
                    "Webhook %d (%s) for change %s: %s",
                    rule.webhook().id(), rule.webhook().name(), event.changeId(), e.getMessage());
            return new NewDelivery(event, rule, null, e.getMessage());
        }
    }
}
