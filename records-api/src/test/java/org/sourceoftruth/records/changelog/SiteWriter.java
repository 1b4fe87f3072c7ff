package org.sourceoftruth.records.changelog;

import io.quarkus.narayana.jta.QuarkusTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import javax.sql.DataSource;

/**
 * Writes changes of a range of sites the way the model engine will: one transaction per request,
 * the changed object's row locked before its change is recorded. There are no site rows here, so a
 * transaction-scoped advisory lock per site stands in for the row lock. Each site carries a version
 * that goes up by one per change, taken under that lock: version order is commit order.
 */
final class SiteWriter {

    /** Advisory-lock key space of the stand-in row locks (two-int form, apart from the lease's). */
    private static final int LOCK_SPACE = 4242;

    private final ChangeLogWriter recorder;
    private final DataSource dataSource;
    private final long firstSiteId;
    private final AtomicIntegerArray versions;

    /** Sites get random ids so tests sharing a database or a topic do not meet. */
    SiteWriter(ChangeLogWriter recorder, DataSource dataSource, int sites) {
        this.recorder = recorder;
        this.dataSource = dataSource;
        this.firstSiteId = ThreadLocalRandom.current().nextLong(1, 1_000_000) * 1_000;
        this.versions = new AtomicIntegerArray(sites);
    }

    long firstSiteId() {
        return firstSiteId;
    }

    int sites() {
        return versions.length();
    }

    int version(int site) {
        return versions.get(site);
    }

    int totalChanges() {
        int total = 0;
        for (int i = 0; i < versions.length(); i++) {
            total += versions.get(i);
        }
        return total;
    }

    /** Whether a Kafka key names one of this writer's sites. */
    boolean owns(String kafkaKey) {
        String prefix = SampleChanges.SITE + ":";
        if (!kafkaKey.startsWith(prefix)) {
            return false;
        }
        long id = Long.parseLong(kafkaKey.substring(prefix.length()));
        return id >= firstSiteId && id < firstSiteId + sites();
    }

    /**
     * Changes the given distinct sites (indexes into the range) in one transaction and returns the
     * change-log row ids, after the commit.
     */
    long[] write(int... sites) {
        int[] ordered = sites.clone();
        Arrays.sort(ordered); // one lock order for everybody: no deadlocks
        UUID requestId = UUID.randomUUID();
        long[] rowIds = new long[ordered.length];
        QuarkusTransaction.requiringNew().run(() -> {
            for (int i = 0; i < ordered.length; i++) {
                long siteId = firstSiteId + ordered[i];
                lock(siteId);
                int version = versions.incrementAndGet(ordered[i]);
                ChangeAction action = version == 1 ? ChangeAction.CREATE : ChangeAction.UPDATE;
                rowIds[i] = recorder.record(SampleChanges.change(requestId, action, siteId, version));
            }
        });
        return rowIds;
    }

    /** Changes {@code count} distinct sites picked at random in one transaction. */
    long[] writeRandom(int count) {
        int[] picked = ThreadLocalRandom.current()
                .ints(0, sites())
                .distinct()
                .limit(count)
                .toArray();
        return write(picked);
    }

    private void lock(long siteId) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement lock = connection.prepareStatement("select pg_advisory_xact_lock(?, ?)")) {
            lock.setInt(1, LOCK_SPACE);
            lock.setInt(2, (int) siteId);
            lock.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
