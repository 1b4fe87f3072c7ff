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
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.rules.RuleHistory;
import org.sourceoftruth.model.ChangeEvent;

/**
 * Turns change events into delivery rows: finds the webhook rules for each event's model and
 * event type that were enabled when the change was recorded ({@link RuleHistory}), lets the
 * {@link DeliveryPlanner} evaluate their conditions and build the requests, and records everything
 * together with the events' change ids in one transaction (one per Kafka poll, see
 * {@link #processAll}).
 */
@ApplicationScoped
public class ChangeProcessor {

    private static final Logger LOG = Logger.getLogger(ChangeProcessor.class);
    /** How long a poll waits for the first read of the rules before the consumer retries it. */
    private static final Duration RULES_WAIT = Duration.ofSeconds(10);

    @Inject
    RuleCache rules;

    @Inject
    RuleHistory history;

    @Inject
    DeliveryPlanner planner;

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
            prepared.add(new DeliveryRecorder.PreparedChange(event, planner.plan(event, rulesFor(event))));
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

    /**
     * The rules that fire for the event: those in force at its rules version (a rule created after
     * the change does not fire, one disabled after it does); for an event without a version (from
     * a records-api that did not stamp it), the rules as they are now.
     */
    private List<ActiveRule> rulesFor(ChangeEvent event) throws RecordsApiException {
        String eventType = ActiveRule.eventType(event.event());
        return event.rulesVersion() == null
                ? rules.rulesFor(event.model(), eventType)
                : history.at(event.rulesVersion()).rulesFor(event.model(), eventType);
    }
}
