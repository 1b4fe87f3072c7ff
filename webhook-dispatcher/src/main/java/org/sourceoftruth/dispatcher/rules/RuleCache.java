package org.sourceoftruth.dispatcher.rules;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiClient;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.model.ChangeEvent;

/**
 * The dispatcher's copy of records-api's webhooks and event rules, with the enabled webhook
 * rules indexed by object type. records-api owns them; the dispatcher never reads its tables:
 * <ul>
 *   <li><b>Start</b>: both lists are read through records-api's REST API (RECORDS_API_SERVICE_URL,
 *       RECORDS_API_TOKEN), retried with backoff up to 30 s until records-api answers. Until then
 *       readiness is DOWN and no change event is processed (the consumer waits, so no delivery
 *       is lost to a rule not known yet).</li>
 *   <li><b>Change events</b>: an extras.webhook or extras.eventrule event this replica consumes is
 *       applied in topic order, before the events after it in the same poll are matched: its
 *       {@code data} is the object as the API renders it, a delete removes it. When the event
 *       cannot say the whole object (truncated, or data without a field the dispatcher needs),
 *       the object is read by id from records-api instead; so is the webhook of a rule that
 *       names one not known here (its own event may be on another replica's partition).</li>
 *   <li><b>Full reads</b> every RULES_REFRESH_INTERVAL: each replica consumes only some
 *       partitions, so it sees only some of these events; reading everything again brings the
 *       others in. An event applied while a full read is under way is applied again on top of
 *       what was read, so no update is lost to a read that started before it.</li>
 * </ul>
 * After a restart the consumer may replay events older than the start-up read; an object then
 * briefly has the older version until its later events, which follow on the same partition, are
 * applied again.
 */
@ApplicationScoped
public class RuleCache {

    private static final Logger LOG = Logger.getLogger(RuleCache.class);
    static final String EVENT_RULE_MODEL = "extras.eventrule";
    /** Models whose change events change the cache. */
    public static final Set<String> RULE_MODELS = Set.of(EventRuleDefinition.WEBHOOK_MODEL, EVENT_RULE_MODEL);

    static final Map<String, String> PATHS = Map.of(
            EventRuleDefinition.WEBHOOK_MODEL, "/api/extras/webhooks/", EVENT_RULE_MODEL, "/api/extras/event-rules/");
    private static final long MAX_BACKOFF_MS = 30_000;

    @Inject
    RecordsApiClient recordsApi;

    /** A change to the copy: an object as records-api renders it, or its removal. */
    private sealed interface Change permits WebhookSaved, RuleSaved, Removed {}

    private record WebhookSaved(WebhookDefinition webhook) implements Change {}

    private record RuleSaved(EventRuleDefinition rule) implements Change {}

    private record Removed(String model, long id) implements Change {}

    // guarded by this
    private final Map<Long, WebhookDefinition> webhooks = new HashMap<>();
    private final Map<Long, EventRuleDefinition> rules = new HashMap<>();
    /** The changes applied since the full read under way began; null when none is. */
    private List<Change> appliedDuringRead;

    private final ReentrantLock fullRead = new ReentrantLock();
    private final CountDownLatch loaded = new CountDownLatch(1);
    /** What matching reads: replaced whole, never changed in place. */
    private volatile RuleIndex index;

    private volatile String lastError = "not read yet";
    private volatile Instant lastRead;
    private volatile boolean stopping;
    private Thread bootstrap;

    void onStart(@Observes StartupEvent event) {
        bootstrap = new Thread(this::bootstrap, "rules-bootstrap");
        bootstrap.setDaemon(true);
        bootstrap.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
        if (bootstrap != null) {
            bootstrap.interrupt();
        }
    }

    /** Reads everything until records-api answers once. */
    private void bootstrap() {
        long backoff = 500;
        while (!stopping && index == null) {
            try {
                refresh();
                LOG.infof("Read %d webhooks and %d event rules from records-api", webhookCount(), ruleCount());
                return;
            } catch (RecordsApiException | RuntimeException e) {
                LOG.warnf(
                        "Could not read webhooks and event rules from records-api (retrying in %d ms): %s",
                        backoff, e.getMessage());
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return; // shutting down
            }
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        }
    }

    @Scheduled(
            every = "${dispatcher.rules.refresh-interval}",
            delayed = "${dispatcher.rules.refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void periodicRefresh() {
        if (index == null) {
            return; // the bootstrap thread keeps trying
        }
        try {
            refresh();
        } catch (RecordsApiException | RuntimeException e) {
            LOG.warnf("Could not read webhooks and event rules again (keeping the previous copy): %s", e.getMessage());
        }
    }

    /** The enabled rules for this object type and event type, e.g. (dcim.site, object_created). */
    public List<ActiveRule> rulesFor(String objectType, String eventType) {
        return current().rulesFor(objectType, eventType);
    }

    /** The enabled webhook rule with this id, if there is one now. */
    public Optional<ActiveRule> rule(long id) {
        return current().rule(id);
    }

    /** The enabled rules that send to this webhook now. */
    public List<ActiveRule> rulesOfWebhook(long webhookId) {
        return current().forWebhook(webhookId);
    }

    /** The name of the webhook with this id, if it exists now. */
    public synchronized Optional<String> webhookName(long webhookId) {
        return Optional.ofNullable(webhooks.get(webhookId)).map(WebhookDefinition::name);
    }

    /** Waits up to {@code timeout} for the first read; throws when it has not happened by then. */
    public void awaitLoaded(Duration timeout) {
        try {
            if (loaded.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new RulesNotLoadedException(lastError);
    }

    public boolean isLoaded() {
        return index != null;
    }

    /** Why the last read failed, or null when it succeeded. */
    public String lastError() {
        return lastError;
    }

    public Instant lastRead() {
        return lastRead;
    }

    public synchronized int webhookCount() {
        return webhooks.size();
    }

    public synchronized int ruleCount() {
        return rules.size();
    }

    public int activeRuleCount() {
        RuleIndex current = index;
        return current == null ? 0 : current.size();
    }

    private RuleIndex current() {
        RuleIndex current = index;
        if (current == null) {
            throw new RulesNotLoadedException(lastError);
        }
        return current;
    }

    /**
     * Applies a change event of a webhook or event rule (see the class comment). Throws when
     * records-api had to be asked and did not answer; applying the event again later is harmless.
     */
    public void apply(ChangeEvent event) throws RecordsApiException {
        Change change = ChangeEvent.DELETED.equals(event.event())
                ? new Removed(event.model(), event.objectId())
                : event.truncated() ? null : parse(event.model(), event.data()).orElse(null);
        if (change == null) {
            change = read(event.model(), event.objectId());
        }
        save(change);
        if (change instanceof RuleSaved saved
                && saved.rule().webhookId() != null
                && !knows(saved.rule().webhookId())) {
            save(read(EventRuleDefinition.WEBHOOK_MODEL, saved.rule().webhookId()));
        }
    }

    /** Reads every webhook and event rule from records-api and makes that the copy. */
    public void refresh() throws RecordsApiException {
        fullRead.lock();
        try {
            synchronized (this) {
                appliedDuringRead = new ArrayList<>();
            }
            try {
                List<Change> everything = new ArrayList<>();
                for (String model : List.of(EventRuleDefinition.WEBHOOK_MODEL, EVENT_RULE_MODEL)) {
                    for (JsonNode object : recordsApi.list(PATHS.get(model))) {
                        everything.add(parse(model, object)
                                .orElseThrow(() -> new RecordsApiException("records-api listed a " + model
                                        + " without the fields its API has: " + object)));
                    }
                }
                synchronized (this) {
                    webhooks.clear();
                    rules.clear();
                    everything.forEach(this::put);
                    appliedDuringRead.forEach(this::put);
                    reindex();
                }
                lastError = null;
                lastRead = Instant.now();
                loaded.countDown();
            } catch (RecordsApiException | RuntimeException e) {
                lastError = e.getMessage();
                throw e;
            } finally {
                synchronized (this) {
                    appliedDuringRead = null;
                }
            }
        } finally {
            fullRead.unlock();
        }
    }

    private Change read(String model, long id) throws RecordsApiException {
        Optional<JsonNode> object = recordsApi.get(PATHS.get(model) + id + "/");
        if (object.isEmpty()) {
            return new Removed(model, id); // deleted since
        }
        return parse(model, object.get())
                .orElseThrow(() -> new RecordsApiException("records-api answered " + model + " " + id
                        + " without the fields its API has: " + object.get()));
    }

    private static Optional<Change> parse(String model, JsonNode data) {
        try {
            Representation object = new Representation(data);
            return Optional.of(
                    EVENT_RULE_MODEL.equals(model)
                            ? new RuleSaved(EventRuleDefinition.from(object))
                            : new WebhookSaved(WebhookDefinition.from(object)));
        } catch (Representation.Incomplete e) {
            return Optional.empty();
        }
    }

    private synchronized boolean knows(long webhookId) {
        return webhooks.containsKey(webhookId);
    }

    private synchronized void save(Change change) {
        put(change);
        if (appliedDuringRead != null) {
            appliedDuringRead.add(change);
        }
        if (index != null) {
            reindex();
        }
    }

    private void put(Change change) {
        if (change instanceof WebhookSaved saved) {
            webhooks.put(saved.webhook().id(), saved.webhook());
        } else if (change instanceof RuleSaved saved) {
            rules.put(saved.rule().id(), saved.rule());
        } else if (change instanceof Removed removed && EVENT_RULE_MODEL.equals(removed.model())) {
            rules.remove(removed.id());
        } else if (change instanceof Removed removed) {
            webhooks.remove(removed.id());
        }
    }

    /** The enabled rules whose action is a known webhook, by object type and by id. */
    private void reindex() {
        index = RuleIndex.of(rules.values(), webhooks);
    }
}
