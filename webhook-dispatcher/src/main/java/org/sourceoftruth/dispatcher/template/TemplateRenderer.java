package org.sourceoftruth.dispatcher.template;

import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.delivery.ClaimedDelivery;
import org.sourceoftruth.dispatcher.delivery.RenderQueue;
import org.sourceoftruth.dispatcher.memory.HeapBudget;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.rules.RuleHistory;
import org.sourceoftruth.model.memory.ByteBudget;

/**
 * Renders the requests of deliveries whose webhooks have templates, on a few threads of its own
 * (dispatcher.template.concurrency). The delivery worker claims such a delivery like any other
 * and hands it here; the rendered request is stored and the lease given back, so the worker
 * then claims it for sending. A template that fails or exceeds its budget fails its own
 * delivery with the reason. Nothing here runs on the Kafka consumer, so a slow template delays
 * only its own delivery.
 */
@ApplicationScoped
public class TemplateRenderer {

    private static final Logger LOG = Logger.getLogger(TemplateRenderer.class);
    /** Deliveries waiting per rendering thread, beyond the one it renders. */
    private static final int QUEUED_PER_THREAD = 1;

    @Inject
    DispatcherConfig config;

    @Inject
    RenderQueue renderQueue;

    @Inject
    RuleCache rules;

    @Inject
    RuleHistory history;

    @Inject
    WebhookRequestBuilder requests;

    @Inject
    HeapBudget heap;

    private final AtomicInteger pending = new AtomicInteger();
    private volatile ExecutorService threads;
    private volatile boolean stopping;

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
        if (threads != null) {
            threads.shutdownNow();
        }
    }

    /**
     * How many more deliveries may be handed over now: the claim takes no more, so a claimed
     * delivery waits for at most one rendering per thread and its lease cannot run out.
     */
    public int room() {
        return Math.max(0, capacity() - pending.get());
    }

    private int capacity() {
        return config.template().concurrency() * (1 + QUEUED_PER_THREAD);
    }

    /**
     * Renders a claimed delivery, then calls {@code done} (stored or failed, or the lease was
     * lost: either way the worker should claim again).
     */
    public void render(ClaimedDelivery delivery, String owner, Runnable done) {
        pending.incrementAndGet();
        executor().execute(() -> {
            try {
                renderNow(delivery.id(), owner);
            } catch (SQLException | RuntimeException e) {
                LOG.warnf(
                        "Delivery %d: could not render its request (retried after its lease): %s",
                        delivery.id(), e.getMessage());
            } finally {
                pending.decrementAndGet();
                done.run();
            }
        });
    }

    private void renderNow(long deliveryId, String owner) throws SQLException {
        Optional<RenderQueue.StoredInput> stored = renderQueue.storedInput(deliveryId);
        if (stored.isEmpty()) {
            return; // rendered by another worker meanwhile
        }
        // the event parsed, the template's values and the rendered body: reserved before parsing
        try (ByteBudget.Reservation reserved =
                heap.reserve(HEAP_PER_EVENT_CHAR * stored.get().event().length())) {
            render(deliveryId, owner, Optional.of(stored.get().parse()));
        }
    }

    /** Heap per character of a stored event while a template renders it. */
    private static final int HEAP_PER_EVENT_CHAR = 6;

    private void render(long deliveryId, String owner, Optional<RenderQueue.RenderInput> input) throws SQLException {
        Optional<ActiveRule> rule;
        Long version = input.get().event().rulesVersion();
        try {
            rule = version == null
                    ? rules.rule(input.get().eventRuleId())
                    : history.at(version).rule(input.get().eventRuleId());
        } catch (RecordsApiException e) {
            // records-api does not answer: the delivery stays leased and is rendered after its lease
            LOG.warnf("Delivery %d: could not read the rules of its change (retried): %s", deliveryId, e.getMessage());
            return;
        }
        if (rule.isEmpty()) {
            renderQueue.failRendering(
                    deliveryId,
                    owner,
                    "event rule " + input.get().eventRuleId()
                            + " is no longer enabled (or its webhook was deleted) since the change was received");
            return;
        }
        try {
            RenderedRequest request = requests.build(rule.get(), input.get().event());
            renderQueue.storeRendered(deliveryId, owner, request);
            LOG.debugf("Delivery %d: request rendered", deliveryId);
        } catch (RequestPreparationException e) {
            if (stopping) {
                // cut short by the shutdown (interrupted), not by the template: the delivery stays
                // leased, and another worker renders it when the lease runs out
                return;
            }
            LOG.warnf(
                    "Webhook %d (%s), delivery %d: %s",
                    rule.get().webhook().id(), rule.get().webhook().name(), deliveryId, e.getMessage());
            renderQueue.failRendering(deliveryId, owner, e.getMessage());
        }
    }

    private ExecutorService executor() {
        ExecutorService current = threads;
        if (current == null) {
            synchronized (this) {
                if (threads == null) {
                    int count = config.template().concurrency();
                    AtomicInteger number = new AtomicInteger();
                    threads = new ThreadPoolExecutor(
                            count, count, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), runnable -> {
                                Thread thread = new Thread(runnable, "template-render-" + number.incrementAndGet());
                                thread.setDaemon(true);
                                return thread;
                            });
                }
                current = threads;
            }
        }
        return current;
    }
}
