package org.sourceoftruth.records.extras;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.sourceoftruth.records.model.BatchLoader;
import org.sourceoftruth.records.model.CacheInvalidator;
import org.sourceoftruth.records.model.Queries;

/**
 * This replica's copy of the active config contexts ({@link ConfigContextSnapshot}), read from
 * the database only after something it depends on changed.
 *
 * <p>Invalidation. Every change bumps a generation number; a copy is used only while the
 * generation it was read at is current. Two sources bump it:
 * <ul>
 * <li>this replica's own writes, right after their commit ({@link #afterWrite}), so a client sees
 *     its change in the very next response;</li>
 * <li>PostgreSQL's LISTEN/NOTIFY ({@link ConfigContextListener}): V44's triggers notify on commit
 *     of any write to the contexts, their assignments and tags (cascading deletes included), and
 *     the parent links of the trees, whichever replica or tool made it; other replicas drop their
 *     copy milliseconds later.</li>
 * </ul>
 * NOTIFY rather than a version row read per request: a list page then costs no query at all for
 * config contexts when none is active, and no write serialises on a counter row. While the
 * listener has no session (database restart, network), notifications may be lost, so a copy is
 * then trusted for at most {@link #UNLISTENED_TTL_NANOS}; on reconnecting the listener bumps
 * the generation once more.
 *
 * <p>A copy read while the generation moved on (a commit between two of its queries) is kept
 * with the old generation and so discarded at the next use. A copy needed inside a write
 * transaction is read on that transaction's connection but never kept: it could hold that
 * transaction's uncommitted (maybe rolled back) changes.
 */
@ApplicationScoped
public class ConfigContextCache implements CacheInvalidator {
    static final long UNLISTENED_TTL_NANOS = 1_000_000_000L;

    /**
     * Writes to these change what contexts match, whatever the action: the contexts, and the trees
     * matched with their ancestors (a new or moved node).
     */
    private static final Set<String> ALWAYS = Set.of(
            "extras.configcontext",
            "dcim.region",
            "dcim.sitegroup",
            "dcim.location",
            "dcim.devicerole",
            "dcim.platform");
    /** Deleting one of these cascades to context assignments (a context may then match more). */
    private static final Set<String> ON_DELETE = Set.of(
            "extras.tag",
            "dcim.site",
            "dcim.devicetype",
            "virtualization.clustertype",
            "virtualization.clustergroup",
            "virtualization.cluster",
            "tenancy.tenantgroup",
            "tenancy.tenant");

    private static final Object SYNCHRONIZATION_KEY = ConfigContextCache.class;

    private record Copy(ConfigContextSnapshot snapshot, long generation, long readAtNanos) {}

    @Inject
    TransactionSynchronizationRegistry transactions;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @ConfigProperty(name = "quarkus.datasource.username")
    String dbUser;

    @ConfigProperty(name = "quarkus.datasource.password", defaultValue = "")
    String dbPassword;

    private final AtomicLong generation = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private volatile Copy copy;
    private volatile ConfigContextListener listener;

    void onStart(@Observes StartupEvent event) {
        listener = new ConfigContextListener(jdbcUrl, dbUser, dbPassword, this::invalidate);
        listener.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        if (listener != null) {
            listener.shutdown();
        }
    }

    /** config_context of devices (every dimension applies). */
    public BatchLoader forDevices() {
        return loader("dcim_device", "dcim.device", true);
    }

    /** config_context of virtual machines (locations and device types must be unassigned). */
    public BatchLoader forVirtualMachines() {
        return loader("virtualization_virtualmachine", "virtualization.virtualmachine", false);
    }

    private BatchLoader loader(String table, String contentType, boolean device) {
        ConfigContexts.Target target = ConfigContexts.Target.of(table, contentType, device);
        return (db, rows) -> ConfigContexts.render(current(db), db, rows, target);
    }

    /** Drops the copy: the next use reads the contexts again. */
    public void invalidate() {
        generation.incrementAndGet();
    }

    /**
     * Called by the engine for every write: when the model is one the contexts depend on, the
     * copy is dropped once the write's transaction has ended (committed or not).
     */
    @Override
    public void afterWrite(String contentType, boolean delete) {
        if (!ALWAYS.contains(contentType) && !(delete && ON_DELETE.contains(contentType))) {
            return;
        }
        if (transactions.getTransactionStatus() == Status.STATUS_NO_TRANSACTION) {
            invalidate();
        } else if (transactions.getResource(SYNCHRONIZATION_KEY) == null) {
            transactions.putResource(SYNCHRONIZATION_KEY, Boolean.TRUE);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {}

                @Override
                public void afterCompletion(int status) {
                    invalidate();
                }
            });
        }
    }

    /** How often the contexts were read from the database (tests prove the copy is reused). */
    long reads() {
        return reads.get();
    }

    ConfigContextSnapshot current(Queries db) {
        Copy c = copy;
        if (usable(c)) {
            return c.snapshot();
        }
        if (transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) {
            return read(db);
        }
        synchronized (this) {
            c = copy;
            if (usable(c)) {
                return c.snapshot();
            }
            long at = generation.get();
            ConfigContextSnapshot snapshot = read(db);
            copy = new Copy(snapshot, at, System.nanoTime());
            return snapshot;
        }
    }

    private ConfigContextSnapshot read(Queries db) {
        reads.incrementAndGet();
        return ConfigContextSnapshot.load(db);
    }

    private boolean usable(Copy c) {
        if (c == null || c.generation() != generation.get()) {
            return false;
        }
        ConfigContextListener l = listener;
        return (l != null && l.listening()) || System.nanoTime() - c.readAtNanos() < UNLISTENED_TTL_NANOS;
    }
}
