package org.sourceoftruth.model.memory;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A number of bytes (of heap) that work shares: work about to hold some reserves them first, and
 * gives them back when done. When they are all reserved, reservations wait, in the order they
 * were asked for, instead of failing. A reservation larger than the whole budget takes all of it:
 * it waits for the others to end, then runs alone. Counted in KiB, at least one per reservation.
 * Both services bound the heap that large values take with one (records-api's reads and writes,
 * the dispatcher's events and webhook bodies).
 */
public final class ByteBudget {
    private final Semaphore kib;
    private final int totalKib;

    public ByteBudget(long bytes) {
        totalKib = (int) Math.max(1, Math.min(Integer.MAX_VALUE, bytes / 1024));
        kib = new Semaphore(totalKib, true);
    }

    /** A share of the JVM's maximum heap, in percent (1 to 90). */
    public static ByteBudget ofHeapPercent(int percent) {
        return new ByteBudget(Runtime.getRuntime().maxMemory() / 100 * Math.max(1, Math.min(90, percent)));
    }

    /** The whole budget, in bytes. */
    public long bytes() {
        return totalKib * 1024L;
    }

    /** Bytes not reserved at the moment. */
    public long available() {
        return kib.availablePermits() * 1024L;
    }

    /**
     * Reserves about {@code bytes} now if that much is free and no reservation waits before it;
     * null otherwise.
     */
    public Reservation tryReserve(long bytes) {
        int wanted = kib(bytes);
        try {
            // with a timeout (of zero) tryAcquire keeps the arrival order: without one it takes
            // free permits ahead of waiting reservations, and a large one could wait for ever
            return kib.tryAcquire(wanted, 0, TimeUnit.SECONDS) ? new Reservation(wanted) : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Reserves about {@code bytes} (at most the whole budget), waiting until that much is free.
     * Not interrupted: every holder gives its reservation back when its work ends.
     */
    public Reservation reserve(long bytes) {
        int wanted = kib(bytes);
        kib.acquireUninterruptibly(wanted);
        return new Reservation(wanted);
    }

    private int kib(long bytes) {
        return (int) Math.min(totalKib, Math.max(1, (bytes + 1023) / 1024));
    }

    /** Bytes reserved until {@link #close()}. */
    public final class Reservation implements AutoCloseable {
        private final int reservedKib;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Reservation(int reservedKib) {
            this.reservedKib = reservedKib;
        }

        /** Gives the bytes back (once; later calls do nothing). */
        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                kib.release(reservedKib);
            }
        }
    }
}
