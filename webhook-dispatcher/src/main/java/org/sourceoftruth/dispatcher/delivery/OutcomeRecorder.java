package org.sourceoftruth.dispatcher.delivery;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.delivery.AttemptRecorder.FinishedAttempt;

/**
 * Writes the outcomes of the {@link DeliveryWorker}'s attempts, on a thread of its own and in
 * batches: everything that finished while the previous batch was being written, or within a few
 * milliseconds after the first, goes in one statement. Each outcome decides the delivery's next
 * state by the {@link RetryPolicy}; once written, its process-wide send slot is free again.
 */
@ApplicationScoped
public class OutcomeRecorder {

    private static final Logger LOG = Logger.getLogger(OutcomeRecorder.class);
    /** Largest number of outcomes written in one statement. */
    private static final int MAX_OUTCOME_BATCH = 1000;
    /** Outcomes worth a statement without waiting for more. */
    private static final int FULL_OUTCOME_BATCH = 64;
    /**
     * How long the recorder waits for more outcomes before it writes a small batch. Measured at
     * 1,000 deliveries/s to one receiver: without it, a statement per ~3 outcomes.
     */
    private static final long OUTCOME_LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    @Inject
    AttemptRecorder attemptRecorder;

    @Inject
    RetryPolicy retryPolicy;

    @Inject
    MeterRegistry metrics;

    /** This process's finished deliveries and time spent sending, for its background-worker entry. */
    private final AtomicLong succeededCount = new AtomicLong();

    private final AtomicLong failedCount = new AtomicLong();
    private final AtomicLong workingMillis = new AtomicLong();
    private final BlockingQueue<Finished> finished = new LinkedBlockingQueue<>();
    private String owner;
    private Semaphore slots;
    private Runnable slotFreed;
    private Runnable madeDue;
    private Thread recorder;
    private volatile boolean recording;

    private record Finished(ClaimedDelivery delivery, AttemptOutcome outcome) {}

    /**
     * Starts the recording thread.
     *
     * @param owner     the worker's lease owner: outcomes are written only while it holds the lease
     * @param slots     the worker's process-wide send slots, released as outcomes are written
     * @param slotFreed told when slots were released
     * @param madeDue   told when a finished delivery made the next one of its lane due
     */
    void start(String owner, Semaphore slots, Runnable slotFreed, Runnable madeDue) {
        this.owner = owner;
        this.slots = slots;
        this.slotFreed = slotFreed;
        this.madeDue = madeDue;
        recording = true;
        recorder = new Thread(this::recordLoop, "delivery-outcome");
        recorder.setDaemon(true);
        recorder.start();
    }

    /** Stops once everything queued is written (waiting up to 5 s). */
    void stop() throws InterruptedException {
        recording = false;
        recorder.join(5000);
    }

    /** Queues the outcome of an attempt for writing. */
    void add(ClaimedDelivery delivery, AttemptOutcome outcome) {
        finished.add(new Finished(delivery, outcome));
    }

    long succeeded() {
        return succeededCount.get();
    }

    long failed() {
        return failedCount.get();
    }

    long workingMillis() {
        return workingMillis.get();
    }

    /** Writes outcomes in batches until stopped and everything queued is written. */
    private void recordLoop() {
        List<Finished> batch = new ArrayList<>();
        while (recording || !finished.isEmpty()) {
            try {
                Finished first = finished.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                collectMore(batch);
                record(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                if (!batch.isEmpty()) {
                    slots.release(batch.size());
                    batch.clear();
                    slotFreed.run();
                }
            }
        }
    }

    /**
     * Adds what else finished, waiting up to {@link #OUTCOME_LINGER_NANOS} for outcomes to reach
     * {@link #FULL_OUTCOME_BATCH}: under load answers come in one at a time, and a statement per
     * one or two outcomes cost more PostgreSQL time than the outcomes themselves.
     */
    private void collectMore(List<Finished> batch) throws InterruptedException {
        long deadline = System.nanoTime() + OUTCOME_LINGER_NANOS;
        while (true) {
            finished.drainTo(batch, MAX_OUTCOME_BATCH - batch.size());
            long left = deadline - System.nanoTime();
            if (batch.size() >= FULL_OUTCOME_BATCH || left <= 0 || !recording) {
                return;
            }
            Finished next = finished.poll(left, TimeUnit.NANOSECONDS);
            if (next == null) {
                return;
            }
            batch.add(next);
        }
    }

    private void record(List<Finished> batch) {
        List<FinishedAttempt> attempts = new ArrayList<>(batch.size());
        for (Finished item : batch) {
            ClaimedDelivery delivery = item.delivery();
            AttemptOutcome outcome = item.outcome();
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
            attempts.add(new FinishedAttempt(delivery, outcome, next, nextAttemptAt));
        }
        Set<Long> recorded;
        try {
            AttemptRecorder.Recorded written = attemptRecorder.finishAttempts(attempts, owner);
            recorded = written.ids();
            if (written.madeDue() > 0) {
                madeDue.run();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.errorf(
                    e,
                    "Could not record the outcomes of %d deliveries; they are retried after their leases",
                    attempts.size());
            return;
        }
        for (FinishedAttempt attempt : attempts) {
            ClaimedDelivery delivery = attempt.delivery();
            if (!recorded.contains(delivery.id())) {
                LOG.warnf(
                        "Delivery %d: its lease expired before the outcome was recorded; the attempt made after "
                                + "the expiry decides its state",
                        delivery.id());
                continue;
            }
            AttemptOutcome outcome = attempt.outcome();
            DeliveryState next = attempt.nextState();
            workingMillis.addAndGet(outcome.durationMs());
            if (next == DeliveryState.SUCCEEDED) {
                succeededCount.incrementAndGet();
            } else if (next == DeliveryState.FAILED) {
                failedCount.incrementAndGet();
            }
            metrics.counter(
                            "dispatcher.delivery.attempts",
                            "outcome",
                            outcome.succeeded() ? "success" : (next == DeliveryState.QUEUED ? "retry" : "failed"))
                    .increment();
            metrics.timer("dispatcher.delivery.duration").record(outcome.durationMs(), TimeUnit.MILLISECONDS);
            if (next == DeliveryState.FAILED) {
                LOG.infof(
                        "Delivery %d failed after %d attempt(s): %s",
                        delivery.id(), delivery.attempts() + 1, outcome.error());
            }
        }
    }
}
