package org.sourceoftruth.records.db;

/**
 * Counts SQL statements, and the round trips that carried them, issued by the engine on the
 * current thread. The query-count test uses it to prove that a list page costs the same number
 * of statements for any page size, and that nested objects' parents share their round trip.
 */
public final class QueryCounter {
    /** [statements, round trips] of the current request. */
    private static final ThreadLocal<int[]> COUNT = ThreadLocal.withInitial(() -> new int[2]);

    private QueryCounter() {}

    /** One round trip carrying {@code statements} statements. */
    static void add(int statements) {
        int[] count = COUNT.get();
        count[0] += statements;
        count[1]++;
    }

    public static void reset() {
        int[] count = COUNT.get();
        count[0] = 0;
        count[1] = 0;
    }

    public static int current() {
        return COUNT.get()[0];
    }

    public static int currentRoundTrips() {
        return COUNT.get()[1];
    }
}
