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
 * <p>Ordering: rows of one object get increasing ids in commit order (see {@link ChangeLogWriter}),
 * and every publisher sends rows in id order and never marks a row after an unacknowledged one.
 * So the first copy of each event in a partition comes in commit order, even when a retry or a
 * change of leader sends some events twice.
 *
 * <p>No row can hold up the rows behind it: one that can never be published (Kafka refuses it
 * for what it holds even in reduced form, or it cannot be made an event) is parked with its
 * reason, counted, and the relay goes on with the next row; the rows after it keep their order.
 * Failures of Kafka itself (broker away, timeouts) never park anything: the relay waits and
 * resends from the first unacknowledged row.
 *
 * <p>No failure ends the relay quietly. Any {@link Throwable} of a round, errors such as an
 * {@link OutOfMemoryError} included, is logged and counted; the round's database session is closed
 * (which gives up the lease), the Kafka producer is replaced (the error may have struck its
 * threads too), and the relay stands for election again after a pause. Should the worker thread
 * die all the same, it is logged and a new worker takes its place. {@link #isRunning()} tells the
 * liveness check whether a worker is there to publish.
 */
public final class OutboxRelay {

    public enum Role {
        STOPPED,
        STANDBY,
        LEADER
    }

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    /** Errors in a row (no round completed in between) after which the relay counts as unable to run. */
    static final int ERRORS_BEFORE_UNHEALTHY = 3;
    /** How long a new leader reads the end of the topic before it publishes (see markWhatIsOnTheTopic). */
    private static final Duration TAIL_READ_TIMEOUT = Duration.ofSeconds(10);

    private final OutboxSettings settings;
    private final HeapReservations heap;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong truncated = new AtomicLong();
    private final AtomicLong parked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong restarts = new AtomicLong();
    private volatile int errorsInARow;
    private volatile String lastError;
    private volatile Instant lastPublishedAt;
    private volatile Instant waitingForKafkaSince;
    private volatile Worker worker;

    /**
     * Heap the relay holds while it publishes a batch: its rows' JSON, the events' bytes and the
     * producer's copies of them ({@link org.sourceoftruth.records.memory.HeapBudget}). The relay
     * holds no row lock, so it may wait for it, but never while it holds a batch it has read.
     */
    public interface HeapReservations {
        /** Reserves about {@code bytes}, waiting if need be; the returned action gives them back. */
        Runnable reserve(long bytes);

        /** Reserves about {@code bytes} if they are free now; null otherwise. */
        Runnable tryReserve(long bytes);

        /** No budget: every reservation is granted at once. */
        HeapReservations NONE = new HeapReservations() {
            @Override
            public Runnable reserve(long bytes) {
                return () -> {};
            }

            @Override
            public Runnable tryReserve(long bytes) {
                return () -> {};
            }
        };
    }

    /** Heap taken per character of a batch's JSON while it is published. */
    static final int HEAP_PER_CHAR = 4;

    public OutboxRelay(OutboxSettings settings) {
        this(settings, HeapReservations.NONE);
    }

    public OutboxRelay(OutboxSettings settings, HeapReservations heap) {
        this.settings = settings;
        this.heap = heap;
    }

    public synchronized void start() {
        if (worker == null || !worker.isAlive()) {
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
        return current == null || !current.isAlive() ? Role.STOPPED : current.role;
    }

    /**
     * Whether the relay has a live worker that is not failing with errors round after round
     * ({@value #ERRORS_BEFORE_UNHEALTHY} in a row): false after {@link #stop}, and when it cannot
     * run. A relay waiting for Kafka or PostgreSQL, or standing by, is running.
     */
    public boolean isRunning() {
        Worker current = worker;
        return current != null && current.isAlive() && errorsInARow < ERRORS_BEFORE_UNHEALTHY;
    }

    /** Errors (not exceptions: out of memory, a killed thread...) that ended a round, since this relay was created. */
    public long errorCount() {
        return errors.get();
    }

    /** Workers started again after the previous one died, since this relay was created. */
    public long restartCount() {
        return restarts.get();
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
            setUncaughtExceptionHandler(OutboxRelay.this::workerDied);
        }

        @Override
        public void run() {
            ChangePublisher publisher = null;
            try {
                while (running) {
                    try {
                        if (publisher == null) {
                            publisher = new ChangePublisher(
                                    settings.producerConfig(),
                                    settings.topic(),
                                    settings.maxEventBytes(),
                                    settings.cloudEventsSource());
                        }
                        try (OutboxStore store = OutboxStore.open(settings)) {
                            serve(store, publisher);
                        }
                    } catch (SQLException | RuntimeException e) {
                        if (running) {
                            // Losing the session also loses the lease: stand for election again.
                            role = Role.STANDBY;
                            failed.incrementAndGet();
                            lastError = "database: " + e.getMessage();
                            LOG.warnf("Outbox relay lost its database session: %s", e.getMessage());
                            pause(backoff.next());
                        }
                    } catch (Throwable e) { // NOPMD: an Error must not end the relay unseen
                        if (!running) {
                            throw e;
                        }
                        // The session was closed on the way out (its lease with it); the producer
                        // may be broken too (an out-of-memory error strikes any thread).
                        Thread.interrupted(); // see pause()
                        role = Role.STANDBY;
                        failed.incrementAndGet();
                        errors.incrementAndGet();
                        errorsInARow++;
                        lastError = "error: " + e;
                        logError(e, "Outbox relay failed with an error; it gave up its lease and starts again");
                        publisher = closeQuietly(publisher);
                        pause(backoff.next());
                    }
                }
            } finally {
                role = Role.STOPPED;
                closeQuietly(publisher);
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
            markWhatIsOnTheTopic(store);
            backoff.reset();
            while (running) {
                if (publishBacklog(store, publisher)) {
                    lastError = null;
                    errorsInARow = 0;
                    backoff.reset();
                    store.awaitNotification(settings.pollInterval());
                } else {
                    failed.incrementAndGet();
                    pause(backoff.next());
                }
            }
        }

        /**
         * Marks published the oldest unpublished rows that are on the topic already: the batch a
         * previous leader had sent when it died, before it could mark it. Without this the new
         * leader would send them again (harmless to consumers, who drop repeats by change id, but
         * a second copy on the topic). When Kafka cannot be read, the rows are simply sent again.
         */
        private void markWhatIsOnTheTopic(OutboxStore store) throws SQLException {
            List<PendingChange> oldest = store.fetchUnpublished(settings.batchSize(), settings.batchBytes())
                    .changes();
            if (oldest.isEmpty()) {
                return;
            }
            java.util.Set<java.util.UUID> onTopic;
            try {
                onTopic = TopicTail.changeIds(
                        settings.producerConfig(), settings.topic(), settings.batchSize(), TAIL_READ_TIMEOUT);
            } catch (org.apache.kafka.common.KafkaException | IllegalStateException e) {
                LOG.warnf(
                        "Could not read the end of %s (its last changes may go out twice): %s",
                        settings.topic(), e.getMessage());
                return;
            }
            List<Long> published = oldest.stream()
                    .filter(change -> onTopic.contains(change.changeId()))
                    .map(PendingChange::id)
                    .toList();
            if (!published.isEmpty()) {
                store.unlist(published);
                LOG.infof(
                        "%d changes the previous leader published but did not mark are marked now, not sent again",
                        published.size());
            }
        }

        /**
         * Publishes until no unpublished row is left (true) or Kafka fails (false). A batch that
         * took every row there was ends the round without reading the table again: a commit
         * since then has notified the channel, so the wait returns at once (one commit at a time,
         * the second read found nothing, a third of the relay's statements).
         */
        private boolean publishBacklog(OutboxStore store, ChangePublisher publisher) throws SQLException {
            // a reservation waited for after a batch did not fit, kept for that batch read again
            Runnable waitedFor = null;
            long waitedForBytes = 0;
            try {
                while (running) {
                    OutboxStore.Batch fetched = store.fetchUnpublished(settings.batchSize(), settings.batchBytes());
                    List<PendingChange> batch = fetched.changes();
                    if (batch.isEmpty()) {
                        return true;
                    }
                    long needed = HEAP_PER_CHAR * characters(batch);
                    Runnable release;
                    if (waitedFor != null && needed <= waitedForBytes) {
                        release = waitedFor;
                    } else {
                        if (waitedFor != null) {
                            waitedFor.run();
                        }
                        release = heap.tryReserve(needed);
                    }
                    waitedFor = null;
                    if (release == null) {
                        // The budget is taken: wait for it holding nothing (a batch kept while waiting
                        // would be heap the budget does not know of, and its rows can be tens of
                        // megabytes), then read the batch again under the reservation.
                        batch = null;
                        fetched = null;
                        waitedFor = heap.reserve(needed);
                        waitedForBytes = needed;
                        continue;
                    }
                    waitingForKafkaSince = Instant.now();
                    ChangePublisher.Outcome outcome;
                    try {
                        outcome = publisher.publish(batch);
                    } finally {
                        waitingForKafkaSince = null;
                        release.run();
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
                        LOG.warnf(
                                "Outbox relay stopped before change %d and will retry from it: %s",
                                next.id(), lastError);
                        return false;
                    }
                }
                return true;
            } finally {
                if (waitedFor != null) {
                    waitedFor.run();
                }
            }
        }

        private void pause(Duration duration) {
            try {
                Thread.sleep(duration.toMillis());
            } catch (InterruptedException e) {
                // stop() interrupts, and it has cleared running already. An interrupt while the
                // relay should run came from elsewhere (a thread killed from outside is also
                // interrupted): kept, it would end every later wait at once, and the relay would
                // spin through failed rounds without pausing.
                if (!running) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * A worker that died of something its loop did not catch (thrown while it handled a failure,
     * or a thread killed from outside): logged, and replaced while the relay should run. Runs on
     * the dying thread, which counts as alive until it returns, so the relay is never without a
     * worker in between.
     */
    private void workerDied(Thread dead, Throwable cause) {
        logError(cause, "Outbox relay worker died; starting a new one");
        if (worker != dead) {
            return; // stopped meanwhile (stop() clears the worker before it waits for it)
        }
        lastError = "error: " + cause;
        errors.incrementAndGet();
        errorsInARow++;
        try {
            Thread.sleep(FIRST_BACKOFF.toMillis());
        } catch (InterruptedException e) {
            return; // only stop() interrupts
        }
        synchronized (this) {
            if (worker == dead) {
                restarts.incrementAndGet();
                Worker next = new Worker();
                worker = next;
                next.start();
            }
        }
    }

    private static long characters(List<PendingChange> batch) {
        long chars = 0;
        for (PendingChange change : batch) {
            chars += length(change.eventData()) + length(change.prechange()) + length(change.postchange());
        }
        return chars;
    }

    private static long length(String text) {
        return text == null ? 0 : text.length();
    }

    /** Logs an error; logging may fail itself when the heap is exhausted, and must not throw then. */
    private static void logError(Throwable error, String message) {
        try {
            LOG.error(message, error);
        } catch (Throwable alsoFailed) { // NOPMD
            System.err.println(message + ": " + error);
        }
    }

    private static ChangePublisher closeQuietly(ChangePublisher publisher) {
        if (publisher != null) {
            try {
                publisher.close();
            } catch (Throwable e) { // NOPMD: the producer is replaced either way
                LOG.warnf("Closing the outbox relay's Kafka producer failed: %s", e);
            }
        }
        return null;
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
