package org.sourceoftruth.records.core;

import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.jboss.logging.Logger;
import org.sourceoftruth.records.changelog.ChangeLogTables;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;

/**
 * Synchronises data sources whose {@code sync_interval} is due (NetBox schedules a
 * SyncDataSourceJob every interval): an enabled source with an interval is due when no sync job of
 * it (scheduled or asked for, successful or not) started within the last interval, so a source
 * whose sync fails is tried again one interval later, not at every check.
 *
 * <p>Safe with several replicas: each due source is claimed with {@code FOR UPDATE SKIP LOCKED}
 * and synchronised in the claim's transaction, so a source another replica is synchronising is
 * skipped, and its job, written in that transaction, makes it not due once committed. A claim can
 * still land on a source whose sync committed while the claim's statement ran (its snapshot did
 * not see the new job, and the lock was free by then), so the claimed source is checked again in
 * a statement of its own, whose snapshot does see it. The job runs
 * on behalf of the user who last saved the source (NetBox enqueues it when the source is saved).
 * Objects bound to the source's files with {@code auto_sync_enabled} copy them on an API sync only
 * (a save through the engine needs a caller whose permissions apply).
 */
@ApplicationScoped
public class DataSourceSchedule {
    private static final Logger LOG = Logger.getLogger(DataSourceSchedule.class);
    /** Sources synchronised in one check at most; the rest wait for the next check. */
    static final int MAX_PER_CHECK = 100;

    private static final String NOT_SYNCED_WITHIN_INTERVAL = """
            not exists (select 1 from core_job j where j.object_type = 'core.datasource' and j.object_id = s.id
                           and j.name = 'Synchronization'
                           and j.created > now() - make_interval(mins => s.sync_interval))""";

    private static final String CLAIM_DUE = """
            select s.id,
                   (select c.user_id from %s c where c.changed_object_type = 'core.datasource'
                       and c.changed_object_id = s.id order by c.time desc, c.id desc limit 1) as user_id
              from core_datasource s
             where s.enabled and s.sync_interval is not null
               and %s
             order by s.last_synced nulls first, s.id
             limit 1
               for update of s skip locked""".formatted(ChangeLogTables.OBJECTCHANGE, NOT_SYNCED_WITHIN_INTERVAL);

    private static final String STILL_DUE =
            "select s.id from core_datasource s where s.id = ? and " + NOT_SYNCED_WITHIN_INTERVAL;

    private enum Claim {
        SYNCED,
        ALREADY_SYNCED,
        NONE_DUE
    }

    @Inject
    AgroalDataSource dataSource;

    @Inject
    DataSourceSync sync;

    @Scheduled(
            identity = "data-source-sync",
            every = "${sot.data-sources.sync-check:60s}",
            delayed = "30s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void checkDue() {
        try {
            int n = syncDue();
            if (n > 0) {
                LOG.infof("Synchronised %d data source(s) on their schedule", n);
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "Scheduled data source synchronisation failed; will try again at the next check");
        }
    }

    /** Synchronises the due sources, each in a transaction of its own; returns how many. */
    public int syncDue() {
        int synced = 0;
        for (int claims = 0; claims < MAX_PER_CHECK; claims++) {
            Claim claim = QuarkusTransaction.requiringNew().call(this::syncOneDue);
            if (claim == Claim.NONE_DUE) {
                break;
            }
            if (claim == Claim.SYNCED) {
                synced++;
            }
        }
        return synced;
    }

    private Claim syncOneDue() {
        Row due;
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<Row> claimed = db.query(CLAIM_DUE);
            if (claimed.isEmpty()) {
                return Claim.NONE_DUE;
            }
            due = claimed.get(0);
            if (db.query(STILL_DUE, due.id()).isEmpty()) {
                return Claim.ALREADY_SYNCED;
            }
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        sync.sync(due.id(), due.longValue("user_id"));
        return Claim.SYNCED;
    }
}
