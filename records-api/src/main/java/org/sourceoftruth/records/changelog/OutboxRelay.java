package org.sourceoftruth.records.changelog;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Publishes committed change-log rows to Kafka in id order and marks them published once the
 * broker has acknowledged them. Runs on its own thread with its own database session
 * ({@link OutboxStore}); it never takes part in a write transaction, so API writes succeed whether
 * or not Kafka is reachable, and the backlog drains once it is again.
 *
 * <p>Of several replicas, the one whose session holds the advisory lock is the leader and
 * publishes; the others stand by and retry the lock every {@code standbyRetry}. The leader wakes
 * on the NOTIFY that commits of change-log rows send, and looks anyway every {@code pollInterval}
 * (the timeout of that wait), so a lost notification delays an event by at most that interval.
 *
 * <p>Ordering: rows of one object get increasing ids in commit order (see {@link ChangeRecorder}),
 * and every publisher sends rows in id order and never marks a row after an unacknowledged one.
 * So the first copy of each event in a partition comes in commit order, even when a retry or a
 * change of leader sends some events twice.
 *
 * <p>No row can hold up the rows behind it: one that can never be published (Kafka refuses it
 * for what it holds even in reduced form, or it cannot be made an event) is parked with its
 * reason, counted, and the relay goes on with the next row; the rows after it keep their order.
 * Failures of Kafka itself (broker away, timeouts) never park anything: the relay waits and
 * resends from the first unacknowledged row.
 */
public final class OutboxRelay {

    public enum Role {
        STOPPED,
        STANDBY,
        LEADER
    }

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

    private final OutboxSettings settings;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong truncated = new AtomicLong();
    private final AtomicLong parked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile String lastError;
    private volatile Instant lastPublishedAt;
    private volatile Instant waitingForKafkaSince;
    private volatile Worker worker;

    public OutboxRelay(OutboxSettings settings) {
        this.settings = settings;
    }

    public synchronized void start() {
        if (worker == null) {
            worker = new Worker();
            worker.start();
        }
    }

    /**
     * Stops publishing and gives up the lease. Waits for the worker up to {@code timeout}; a worker
     * still blocked on Kafka after that finishes its round on its own and publishes nothing more.
     */
    public synchronized void stop(Duration timeout) {
        Worker stopping = worker;
        if (stopping == null) {
            return;
        }
        worker = null;
        stopping.running = false;
        stopping.interrupt();
        try {
            stopping.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public Role role() {
        Worker current = worker;
        return current == null ? Role.STOPPED : current.role;
    }

    /** Events acknowledged by the broker since this relay was created. */
    public long publishedCount() {
        return published.get();
    }

    /** Events published in reduced form (flagged truncated) since this relay was created. */
    public long truncatedCount() {
        return truncated.get();
    }

    /** Rows this relay parked since it was created (the table holds every replica's). */
    public long parkedCount() {
        return parked.get();
    }

    /** Rounds that failed (Kafka did not take a batch, or the database session was lost). */
    public long failedCount() {
        return failed.get();
    }

    /** The last Kafka or database failure, null after a successful round. */
    public String lastError() {
        return lastError;
    }

    public Instant lastPublishedAt() {
        return lastPublishedAt;
    }

    /**
     * When the batch now on its way to Kafka was sent, null between batches. The producer keeps
     * retrying while the broker is away, so an old value here is how an outage shows.
     */
    public Instant waitingForKafkaSince() {
        return waitingForKafkaSince;
    }

    /** One run of the relay, from start() to stop(). */
    private final class Worker extends Thread {
        private volatile boolean running = true;
        private volatile Role role = Role.STANDBY;
        private final Backoff backoff = new Backoff(FIRST_BACKOFF, settings.maxBackoff());

        Worker() {
            super("outbox-relay");
            setDaemon(true);
        }

        @Override
        public void run() {
            ChangePublisher publisher =
                    new ChangePublisher(settings.producerConfig(), settings.topic(), settings.maxEventBytes());
            try {
                while (running) {
                    try (OutboxStore store = OutboxStore.open(settings)) {
                        serve(store, publisher);
                    } catch (SQLException | RuntimeException e) {
                        if (running) {
                            // Losing the session also loses the lease: stand for election again.
                            role = Role.STANDBY;
                            failed.incrementAndGet();
                            lastError = "database: " + e.getMessage();
                            LOG.warnf("Outbox relay lost its database session: %s", e.getMessage());
                            pause(backoff.next());
                        }
                    }
                }
            } finally {
                role = Role.STOPPED;
                publisher.close();
            }
        }

        /** Stand by, then lead, on one database session until it fails or the relay stops. */
        private void serve(OutboxStore store, ChangePublisher publisher) throws SQLException {
            while (running && !store.tryAcquireLease()) {
                role = Role.STANDBY;
                pause(settings.standbyRetry());
            }
            if (!running) {
                return;
            }
            // Listen before the first read, so no commit slips between reading and waiting.
            store.listen();
            role = Role.LEADER;
            LOG.infof("Outbox relay is the leader; publishing to %s", settings.topic());
            backoff.reset();
            while (running) {
                if (publishBacklog(store, publisher)) {
                    lastError = null;
                    backoff.reset();
                    store.awaitNotification(settings.pollInterval());
                } else {
                    failed.incrementAndGet();
                    pause(backoff.next());
                }
            }
        }

        /**
         * Publishes until no unpublished row is left (true) or Kafka fails (false). A batch that
         * took every row there was ends the round without reading the table again: a commit
         * since then has notified the channel, so the wait returns at once (one commit at a time,
         * the second read found nothing, a third of the relay's statements).
         */
        private boolean publishBacklog(OutboxStore store, ChangePublisher publisher) throws SQLException {
            while (running) {
                OutboxStore.Batch fetched = store.fetchUnpublished(settings.batchSize(), settings.batchBytes());
                List<PendingChange> batch = fetched.changes();
                if (batch.isEmpty()) {
                    return true;
                }
                waitingForKafkaSince = Instant.now();
                ChangePublisher.Outcome outcome;
                try {
                    outcome = publisher.publish(batch);
                } finally {
                    waitingForKafkaSince = null;
                }
                int acknowledged = outcome.acknowledged();
                LOG.debugf(
                        "Published %d of changes %d..%d",
                        acknowledged,
                        batch.get(0).id(),
                        batch.get(batch.size() - 1).id());
                if (acknowledged > 0) {
                    store.markPublished(fetched, acknowledged);
                    published.addAndGet(acknowledged);
                    truncated.addAndGet(outcome.truncated());
                    lastPublishedAt = Instant.now();
                }
                if (acknowledged == batch.size()) {
                    if (!fetched.more()) {
                        return true;
                    }
                    continue;
                }
                if (!running) {
                    return false; // stop() cut the round short; nothing went wrong
                }
                PendingChange next = batch.get(acknowledged);
                if (outcome.rejection() != null) {
                    store.park(next.id(), outcome.rejection());
                    parked.incrementAndGet();
                    LOG.errorf(
                            "Outbox relay parked change %d (%s %s:%d), which can never be published: %s."
                                    + " Later changes go on; retry it with POST /api/core/outbox/parked/%d/retry/",
                            next.id(),
                            next.action(),
                            next.objectType(),
                            next.objectId(),
                            outcome.rejection(),
                            next.id());
                } else if (outcome.resendReduced()) {
                    LOG.warnf(
                            "Kafka refused change %d as too large (%s); sending it again in reduced form",
                            next.id(), outcome.failure().getMessage());
                } else {
                    Throwable failure = outcome.failure();
                    lastError = "kafka: " + (failure == null ? "interrupted" : failure.getMessage());
                    LOG.warnf("Outbox relay stopped before change %d and will retry from it: %s", next.id(), lastError);
                    return false;
                }
            }
            return true;
        }

        private void pause(Duration duration) {
            try {
                Thread.sleep(duration.toMillis());
            } catch (InterruptedException e) {
                // Only stop() interrupts, and it has cleared running already.
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Doubling pause between failed attempts, from {@code first} up to {@code max}. */
    private static final class Backoff {
        private final Duration first;
        private final Duration max;
        private Duration current;

        Backoff(Duration first, Duration max) {
            this.first = first;
            this.max = max;
            this.current = first;
        }

        Duration next() {
            Duration pause = current;
            Duration doubled = current.multipliedBy(2);
            current = doubled.compareTo(max) > 0 ? max : doubled;
            return pause;
        }

        void reset() {
            current = first;
        }
    }
}
