package org.sourceoftruth.dispatcher.consume;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.delivery.DeliveryRecorder;
import org.sourceoftruth.dispatcher.delivery.DeliveryWorker;
import org.sourceoftruth.dispatcher.delivery.NewDelivery;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.dispatcher.template.RequestPreparationException;
import org.sourceoftruth.dispatcher.template.WebhookRequestBuilder;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.conditions.ConditionEvaluationException;

/**
 * Turns one change event into delivery rows: finds the enabled webhook rules for its model and
 * event type, evaluates their conditions against the event's data, builds the requests that
 * need no rendering (the others are rendered later by the TemplateRenderer, from the stored
 * event), and records everything together with the event's change id in one transaction (one
 * per Kafka poll, see {@link #processAll}).
 */
@ApplicationScoped
public class ChangeProcessor {

    private static final Logger LOG = Logger.getLogger(ChangeProcessor.class);
    /** How long a poll waits for the first read of the rules before the consumer retries it. */
    private static final Duration RULES_WAIT = Duration.ofSeconds(10);

    @Inject
    RuleCache rules;

    @Inject
    WebhookRequestBuilder requests;

    @Inject
    DeliveryRecorder recorder;

    @Inject
    DeliveryWorker worker;

    /** Outcome of processing one event. */
    public record Result(boolean duplicate, int deliveries) {}

    public Result process(ChangeEvent event) throws SQLException, RecordsApiException {
        return processAll(List.of(event)).get(0);
    }

    /**
     * Processes the events of one Kafka poll, in order: a change to a rule or webhook is applied
     * to the rule cache before the events after it are matched. Everything is then recorded in
     * one transaction; events whose change id was recorded before (or earlier in the list) are
     * duplicates and get no deliveries. Nothing is processed before the rules were first read
     * (the caller retries: the events stay unacknowledged).
     *
     * @return one result per event, in order
     * @throws RecordsApiException when a rule change needed records-api and it did not answer
     */
    public List<Result> processAll(List<ChangeEvent> events) throws SQLException, RecordsApiException {
        rules.awaitLoaded(RULES_WAIT);
        // Matching happens before the transaction, which then stays short; templates are not
        // rendered here at all.
        List<DeliveryRecorder.PreparedChange> prepared = new ArrayList<>(events.size());
        for (ChangeEvent event : events) {
            if (RuleCache.RULE_MODELS.contains(event.model())) {
                rules.apply(event);
            }
            List<NewDelivery> deliveries = new ArrayList<>();
            WebhookRequestBuilder.EventBodies bodies = new WebhookRequestBuilder.EventBodies(event);
            for (ActiveRule rule : rules.rulesFor(event.model(), ActiveRule.eventType(event.event()))) {
                if (matches(rule, event)) {
                    deliveries.add(prepare(rule, event, bodies));
                }
            }
            prepared.add(new DeliveryRecorder.PreparedChange(event, deliveries));
        }
        Set<UUID> recorded = recorder.recordChanges(prepared);
        List<Result> results = new ArrayList<>(events.size());
        Set<UUID> counted = new HashSet<>();
        int queued = 0;
        for (DeliveryRecorder.PreparedChange change : prepared) {
            UUID id = change.event().changeId();
            if (recorded.contains(id) && counted.add(id)) {
                results.add(new Result(false, change.deliveries().size()));
                queued += change.deliveries().size();
            } else {
                LOG.debugf("Change %s was already processed; skipped", id);
                results.add(new Result(true, 0));
            }
        }
        if (queued > 0) {
            worker.wake();
        }
        return results;
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
