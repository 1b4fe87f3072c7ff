package org.sourceoftruth.records.db;

/**
 * Counts SQL statements issued by the engine on the current thread. The query-count test
 * uses it to prove that a list page costs the same number of statements for any page size.
 */
public final class QueryCounter {
    private static final ThreadLocal<int[]> COUNT = ThreadLocal.withInitial(() -> new int[1]);
    private static volatile int lastRequestCount;

    private QueryCounter() {
    }

    static void add(int statements) {
        COUNT.get()[0] += statements;
    }

    public static void reset() {
        COUNT.get()[0] = 0;
    }

    public static int current() {
        return COUNT.get()[0];
    }

    /** Remembers the count of the request that just finished on this thread. */
    public static void finishRequest() {
        lastRequestCount = COUNT.get()[0];
        COUNT.get()[0] = 0;
    }

    public static int lastRequestCount() {
        return lastRequestCount;
    }
}
