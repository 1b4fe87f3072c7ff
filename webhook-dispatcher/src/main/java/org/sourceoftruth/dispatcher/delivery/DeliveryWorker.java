package org.sourceoftruth.dispatcher.delivery;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Sends queued deliveries. One claimer thread leases due rows (FOR UPDATE SKIP LOCKED, so any
 * number of dispatcher processes can share the table) as long as there are free request slots,
 * and hands them to the asynchronous HTTP client. Slots are bounded in total and per receiver
 * host, so a slow receiver only ever occupies its own few slots: other receivers and the Kafka
 * consumer are not held up. Outcomes are written on a small pool, off the HTTP client's threads.
 */
@ApplicationScoped
public class DeliveryWorker {

    private static final Logger LOG = Logger.getLogger(DeliveryWorker.class);

    @Inject
    DispatcherConfig config;
    @Inject
    DeliveryStore store;
    @Inject
    WebhookHttpClient httpClient;
    @Inject
    RetryPolicy retryPolicy;
    @Inject
    MeterRegistry metrics;

    /** Identifies this process's leases. */
    private final String owner = "dispatcher-" + UUID.randomUUID();
    private final Semaphore wakeups = new Semaphore(0);
    private final Map<String, Semaphore> hostSlots = new ConcurrentHashMap<>();
    private Semaphore slots;
    private ExecutorService outcomeWriters;
    private Thread claimer;
    private volatile boolean running;

    void onStart(@Observes StartupEvent event) {
        slots = new Semaphore(config.delivery().concurrency());
        outcomeWriters = Executors.newFixedThreadPool(4, runnable -> {
            Thread thread = new Thread(runnable, "delivery-outcome");
            thread.setDaemon(true);
            return thread;
        });
        running = true;
        claimer = new Thread(this::claimLoop, "delivery-claimer");
        claimer.setDaemon(true);
        claimer.start();
    }

    void onStop(@Observes ShutdownEvent event) throws InterruptedException {
        running = false;
        wake();
        claimer.join(5000);
        // Let requests in flight finish and be recorded; anything left is retried after its lease.
        slots.tryAcquire(config.delivery().concurrency(), config.delivery().timeout().toMillis() + 1000,
                TimeUnit.MILLISECONDS);
        outcomeWriters.shutdown();
        outcomeWriters.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** New deliveries are queued, or a slot became free: look for work now. */
    public void wake() {
        wakeups.release();
    }

    public String owner() {
        return owner;
    }

    private void claimLoop() {
        while (running) {
            boolean mayHaveMore = false;
            try {
                mayHaveMore = claimAndSend();
            } catch (SQLException | RuntimeException e) {
                LOG.warnf("Could not claim deliveries (will retry): %s", e.getMessage());
            }
            if (!mayHaveMore) {
                try {
                    wakeups.tryAcquire(config.delivery().pollInterval().toMillis(), TimeUnit.MILLISECONDS);
                    wakeups.drainPermits();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** @return true when every free slot was filled, so more due rows may be waiting */
    private boolean claimAndSend() throws SQLException {
        int free = slots.availablePermits();
        if (free == 0) {
            return false;
        }
        List<ClaimedDelivery> claimed = store.claimDue(free, busyHosts(), owner, config.delivery().lease());
        List<Long> noSlot = new ArrayList<>();
        int started = 0;
        for (ClaimedDelivery delivery : claimed) {
            Semaphore hostSlot = hostSlot(delivery.targetHost());
            if (!hostSlot.tryAcquire()) {
                noSlot.add(delivery.id());
                continue;
            }
            slots.acquireUninterruptibly(); // never blocks: only this thread takes slots
            started++;
            send(delivery, hostSlot);
        }
        store.releaseLeases(noSlot, owner);
        return claimed.size() == free && noSlot.isEmpty() && started > 0;
    }

    private List<String> busyHosts() {
        List<String> busy = new ArrayList<>();
        hostSlots.forEach((host, slot) -> {
            if (slot.availablePermits() == 0) {
                busy.add(host);
            }
        });
        return busy;
    }

    private Semaphore hostSlot(String host) {
        return hostSlots.computeIfAbsent(host == null ? "" : host,
                h -> new Semaphore(config.delivery().perHostConcurrency()));
    }

    private void send(ClaimedDelivery delivery, Semaphore hostSlot) {
        if (delivery.request() == null) {
            // defensive: such rows are created failed and cannot be requeued
            record(delivery, new AttemptOutcome(Instant.now(), 0, null, "the request could not be rendered", null), hostSlot);
            return;
        }
        httpClient.send(delivery.request(), delivery.sslVerification(), delivery.caFilePath())
                .thenAcceptAsync(outcome -> record(delivery, outcome, hostSlot), outcomeWriters)
                .exceptionally(failure -> {
                    LOG.errorf(failure, "Delivery %d: outcome not recorded; it is retried after its lease", delivery.id());
                    release(hostSlot);
                    return null;
                });
    }

    private void record(ClaimedDelivery delivery, AttemptOutcome outcome, Semaphore hostSlot) {
        try {
            int attemptsMade = delivery.attempts() + 1;
            DeliveryState next;
            Instant nextAttemptAt = null;
            if (outcome.succeeded()) {
                next = DeliveryState.SUCCEEDED;
            } else if (retryPolicy.mayRetry(attemptsMade)) {
                next = DeliveryState.QUEUED;
                nextAttemptAt = Instant.now().plus(retryPolicy.delayAfter(attemptsMade));
            } else {
                next = DeliveryState.FAILED;
            }
            boolean recorded = store.finishAttempt(delivery, owner, outcome, next, nextAttemptAt);
            if (!recorded) {
                LOG.warnf("Delivery %d: its lease expired before the outcome was recorded; the attempt made after "
                        + "the expiry decides its state", delivery.id());
            } else {
                metrics.counter("dispatcher.delivery.attempts", "outcome",
                        outcome.succeeded() ? "success" : (next == DeliveryState.QUEUED ? "retry" : "failed")).increment();
                if (next == DeliveryState.FAILED) {
                    LOG.infof("Delivery %d failed after %d attempt(s): %s", delivery.id(), attemptsMade, outcome.error());
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.errorf(e, "Delivery %d: could not record the outcome; it is retried after its lease", delivery.id());
        } finally {
            release(hostSlot);
        }
    }

    private void release(Semaphore hostSlot) {
        hostSlot.release();
        slots.release();
        wake();
    }
}
