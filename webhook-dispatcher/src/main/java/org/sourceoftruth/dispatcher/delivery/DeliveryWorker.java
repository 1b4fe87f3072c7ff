package org.sourceoftruth.dispatcher.delivery;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.memory.HeapBudget;
import org.sourceoftruth.dispatcher.template.TemplateRenderer;
import org.sourceoftruth.model.memory.ByteBudget;

/**
 * Sends queued deliveries. One claimer thread leases due rows (FOR UPDATE SKIP LOCKED, so any
 * number of dispatcher processes can share the table) as long as there are free request slots,
 * and hands them to the asynchronous HTTP client. Slots are bounded in total and per receiver
 * host, so a slow receiver only ever occupies its own few slots: other receivers and the Kafka
 * consumer are not held up.
 *
 * <p>A claim takes for each receiver at most its free slots plus a few times its concurrency in
 * rows to hold: held rows stay leased and are sent, without another query, as that receiver's slots free
 * up. Held rows take no process-wide slot, and a receiver whose slots and hold are full is left
 * out of claims, so a slow receiver never crowds out the others. A held row that waited so long
 * that its lease could run out during the request is given back instead of sent.
 *
 * <p>Deliveries whose request is still to be rendered (target host {@link DeliveryRecorder#UNRENDERED})
 * are claimed the same way, as if they went to one more receiver whose budget is the room of
 * the {@link TemplateRenderer}: they are handed to it, and claimed again for sending once their
 * request is stored. A slow template therefore occupies a rendering thread, never a send slot.
 *
 * <p>Outcomes are written in batches by the {@link OutcomeRecorder}. A receiver's slot is freed
 * when its response is complete; the process-wide slot only when the outcome is recorded, which
 * bounds the work between claim and record.
 */
@ApplicationScoped
public class DeliveryWorker {

    private static final Logger LOG = Logger.getLogger(DeliveryWorker.class);
    /**
     * Rows held per receiver, in units of its concurrency: claims for a busy receiver then come
     * one per (hold / 2) deliveries, and a held row waits at most hold / concurrency requests.
     */
    private static final int HOLD_FACTOR = 2;

    @Inject
    DispatcherConfig config;

    @Inject
    DeliveryClaims claims;

    @Inject
    OutcomeRecorder outcomes;

    @Inject
    WebhookHttpClient httpClient;

    @Inject
    TemplateRenderer renderer;

    @Inject
    HeapBudget heap;

    /** Identifies this process's leases. */
    private final String owner = "dispatcher-" + UUID.randomUUID();

    private final Semaphore wakeups = new Semaphore(0);
    private final Map<String, Semaphore> hostSlots = new ConcurrentHashMap<>();
    /** Claimed rows waiting for a slot of their receiver; used by the claimer thread only. */
    private final Map<String, ArrayDeque<Held>> held = new HashMap<>();
    /** Receivers whose last claim found fewer due rows than it could take; claimer thread only. */
    private final Set<String> drained = new HashSet<>();

    private Semaphore slots;
    private Thread claimer;
    private volatile boolean running;
    /** Set by {@link #wake()}: the next round claims even if every hold is still well filled. */
    private volatile boolean newWork;

    private record Held(ClaimedDelivery delivery, long claimedNanos) {}

    void onStart(@Observes StartupEvent event) {
        slots = new Semaphore(config.delivery().concurrency());
        running = true;
        outcomes.start(owner, slots, this::slotFreed, this::wake);
        claimer = new Thread(this::claimLoop, "delivery-claimer");
        claimer.setDaemon(true);
        claimer.start();
    }

    void onStop(@Observes ShutdownEvent event) throws InterruptedException {
        running = false;
        wake();
        claimer.join(5000);
        // Let requests in flight finish and be recorded; anything left is retried after its lease.
        slots.tryAcquire(
                config.delivery().concurrency(), config.delivery().timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        outcomes.stop();
    }

    /** New deliveries are queued (or requeued): claim now. */
    public void wake() {
        newWork = true;
        wakeups.release();
    }

    /** A slot became free: send held rows, and claim when the holds run low. */
    private void slotFreed() {
        wakeups.release();
    }

    public String owner() {
        return owner;
    }

    /** What this process has done so far, as NetBox's background worker shows it. */
    public record Stats(long succeeded, long failed, long workingMillis, int inFlight) {}

    public Stats stats() {
        int inFlight = slots == null ? 0 : config.delivery().concurrency() - slots.availablePermits();
        return new Stats(outcomes.succeeded(), outcomes.failed(), outcomes.workingMillis(), Math.max(inFlight, 0));
    }

    private void claimLoop() {
        boolean mustClaim = true;
        while (running) {
            boolean mayHaveMore = false;
            try {
                if (newWork) {
                    newWork = false;
                    mustClaim = true;
                }
                mayHaveMore = claimAndSend(mustClaim);
            } catch (SQLException | RuntimeException e) {
                LOG.warnf("Could not claim deliveries (will retry): %s", e.getMessage());
            }
            mustClaim = mayHaveMore;
            if (!mayHaveMore) {
                try {
                    // a quiet poll interval: look for due retries and rows of other processes
                    mustClaim =
                            !wakeups.tryAcquire(config.delivery().pollInterval().toMillis(), TimeUnit.MILLISECONDS);
                    wakeups.drainPermits();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        giveBackHeld();
    }

    /**
     * Sends held rows that have a slot now, then claims more unless every receiver's hold is
     * still more than half full (then the next claim can take more at once).
     *
     * @param mustClaim claim even when the holds are well filled (new work, or the poll interval)
     * @return true when the claim got all it asked for, so more due rows may be waiting
     */
    private boolean claimAndSend(boolean mustClaim) throws SQLException {
        List<Long> giveBack = new ArrayList<>();
        sendHeld(giveBack);
        int free = slots.availablePermits();
        boolean full = false;
        int perHost = config.delivery().perHostConcurrency();
        int hold = HOLD_FACTOR * perHost;
        if (mustClaim) {
            drained.clear();
        }
        boolean holdsLow = false;
        for (String host : hostSlots.keySet()) {
            ArrayDeque<Held> waiting = held.get(host);
            if (!drained.contains(host) && (waiting == null || waiting.size() <= hold / 2)) {
                holdsLow = true;
                break;
            }
        }
        if (free > 0 && (mustClaim || holdsLow)) {
            // per receiver: its free slots, plus room in its hold for when they free
            Map<String, Integer> budgets = new HashMap<>();
            List<String> busy = new ArrayList<>();
            hostSlots.forEach((host, slot) -> {
                ArrayDeque<Held> waiting = held.get(host);
                int budget = slot.availablePermits() + hold - (waiting == null ? 0 : waiting.size());
                if (budget <= 0) {
                    busy.add(host);
                } else {
                    budgets.put(host, budget);
                }
            });
            int renderRoom = renderer.room();
            if (renderRoom > 0) {
                budgets.put(DeliveryRecorder.UNRENDERED, renderRoom);
            } else {
                busy.add(DeliveryRecorder.UNRENDERED);
            }
            int limit = free + hold;
            List<ClaimedDelivery> claimed = claims.claimDue(
                    limit,
                    busy,
                    budgets,
                    perHost + hold,
                    owner,
                    config.delivery().lease());
            long now = System.nanoTime();
            Map<String, Integer> got = new HashMap<>();
            for (ClaimedDelivery delivery : claimed) {
                got.merge(hostKey(delivery.targetHost()), 1, Integer::sum);
            }
            // receivers that got less than they could take have nothing more due: no claims for
            // them on freed slots until new work arrives or the poll interval passes
            budgets.forEach((host, budget) -> {
                if (got.getOrDefault(host, 0) < budget) {
                    drained.add(host);
                }
            });
            for (ClaimedDelivery delivery : claimed) {
                if (delivery.request() == null && DeliveryRecorder.UNRENDERED.equals(delivery.targetHost())) {
                    renderer.render(delivery, owner, this::wake);
                    continue;
                }
                String host = hostKey(delivery.targetHost());
                Semaphore hostSlot = hostSlot(host);
                ArrayDeque<Held> waiting = held.get(host);
                if ((waiting == null || waiting.isEmpty()) && slots.availablePermits() > 0 && hostSlot.tryAcquire()) {
                    slots.acquireUninterruptibly(); // never blocks: only this thread takes slots
                    send(delivery, hostSlot);
                } else if (waiting == null || waiting.size() < hold) {
                    held.computeIfAbsent(host, h -> new ArrayDeque<>()).add(new Held(delivery, now));
                } else {
                    giveBack.add(delivery.id());
                }
            }
            full = claimed.size() == limit;
        }
        claims.releaseLeases(giveBack, owner);
        return full;
    }

    /** Sends held rows whose receiver has a free slot, oldest first. */
    private void sendHeld(List<Long> giveBack) {
        // a held row must still have a whole request's time on its lease when it is sent
        long maxWaitNanos =
                config.delivery().lease().minus(config.delivery().timeout()).toNanos() / 2;
        long now = System.nanoTime();
        for (Iterator<Map.Entry<String, ArrayDeque<Held>>> entries =
                        held.entrySet().iterator();
                entries.hasNext(); ) {
            Map.Entry<String, ArrayDeque<Held>> entry = entries.next();
            ArrayDeque<Held> waiting = entry.getValue();
            Semaphore hostSlot = hostSlot(entry.getKey());
            while (!waiting.isEmpty()) {
                Held next = waiting.peek();
                if (now - next.claimedNanos() > maxWaitNanos) {
                    waiting.poll();
                    giveBack.add(next.delivery().id());
                    continue;
                }
                if (slots.availablePermits() == 0 || !hostSlot.tryAcquire()) {
                    break;
                }
                slots.acquireUninterruptibly();
                waiting.poll();
                send(next.delivery(), hostSlot);
            }
            if (waiting.isEmpty()) {
                entries.remove();
            }
        }
    }

    private void giveBackHeld() {
        List<Long> ids = new ArrayList<>();
        held.values()
                .forEach(waiting -> waiting.forEach(h -> ids.add(h.delivery().id())));
        held.clear();
        try {
            claims.releaseLeases(ids, owner);
        } catch (SQLException | RuntimeException e) {
            LOG.warnf("Could not give back %d leases (they expire by themselves): %s", ids.size(), e.getMessage());
        }
    }

    private static String hostKey(String host) {
        return host == null ? "" : host;
    }

    private Semaphore hostSlot(String host) {
        return hostSlots.computeIfAbsent(
                hostKey(host), h -> new Semaphore(config.delivery().perHostConcurrency()));
    }

    private void send(ClaimedDelivery delivery, Semaphore hostSlot) {
        if (delivery.largeBody() > 0) {
            sendLarge(delivery, hostSlot);
            return;
        }
        sendRead(delivery, hostSlot, null);
    }

    /**
     * A delivery whose body was too large to come with its claim: read now, under a reservation
     * of the heap it takes until its answer is in (the body, and the client's bytes of it). Waits
     * here, on the claimer, while the budget is spent.
     */
    private void sendLarge(ClaimedDelivery delivery, Semaphore hostSlot) {
        ByteBudget.Reservation reserved = heap.reserve(HEAP_PER_BODY_BYTE * delivery.largeBody());
        String body;
        try {
            body = claims.body(delivery.id());
        } catch (SQLException | RuntimeException e) {
            reserved.close();
            LOG.warnf("Delivery %d: its body could not be read; it is retried after its lease: %s", delivery.id(), e);
            hostSlot.release();
            slots.release();
            slotFreed();
            return;
        }
        sendRead(delivery.withBody(body), hostSlot, reserved);
    }

    /** Heap per byte of a large body while it is sent: the stored text, and the HTTP client's bytes of it. */
    private static final int HEAP_PER_BODY_BYTE = 3;

    private void sendRead(ClaimedDelivery delivery, Semaphore hostSlot, ByteBudget.Reservation reserved) {
        if (delivery.request() == null) {
            // defensive: such rows are created failed and cannot be requeued
            hostSlot.release();
            if (reserved != null) {
                reserved.close();
            }
            outcomes.add(
                    delivery, new AttemptOutcome(Instant.now(), 0, null, "the request could not be rendered", null));
            return;
        }
        httpClient
                .send(
                        DeliveryIdentity.withIdentity(delivery.request(), delivery),
                        delivery.sslVerification(),
                        delivery.caFilePath())
                .whenComplete((outcome, failure) -> {
                    // the receiver's slot is free as soon as its answer is in
                    hostSlot.release();
                    if (reserved != null) {
                        reserved.close();
                    }
                    if (failure != null || outcome == null) {
                        LOG.errorf(
                                failure,
                                "Delivery %d: outcome not recorded; it is retried after its lease",
                                delivery.id());
                        slots.release();
                    } else {
                        outcomes.add(delivery, outcome);
                    }
                    slotFreed();
                });
    }
}
