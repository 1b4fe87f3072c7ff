package org.sourceoftruth.records.changelog;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * NetBox's CHANGELOG_RETENTION: change-log rows older than that many days are deleted by a daily
 * job (0 keeps them forever). Only published rows go: an unpublished row is an event still owed to
 * Kafka, whatever its age. Every replica runs the job; running it twice deletes nothing more.
 */
@ApplicationScoped
public class ChangeLogRetention {

    private static final Logger LOG = Logger.getLogger(ChangeLogRetention.class);
    /** Rows per delete statement, so one purge never holds many locks or a long transaction. */
    private static final int CHUNK = 10_000;

    private static final String DELETE_CHUNK = """
            delete from core_objectchange
             where id in (select c.id from core_objectchange c
                           where c.parked_at is null
                             and not exists (select from core_objectchange_pending p where p.id = c.id)
                             and c.time < now() - make_interval(days => ?)
                           order by c.id
                           limit ?)""";

    @Inject
    DataSource dataSource;

    @Inject
    ChangeLogConfig config;

    @Scheduled(
            identity = "changelog-retention",
            cron = "${sot.changelog.purge-cron:0 30 3 * * ?}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purgeDaily() {
        try {
            int deleted = purge(config.changelog().retention());
            if (deleted > 0) {
                LOG.infof(
                        "Deleted %d change-log rows older than %d days",
                        deleted, config.changelog().retention());
            }
        } catch (SQLException e) {
            LOG.errorf(e, "Change-log retention failed; will try again at the next run");
        }
    }

    /** Deletes published rows older than {@code days} days; 0 or less keeps everything. */
    int purge(int days) throws SQLException {
        if (days <= 0) {
            return 0;
        }
        int total = 0;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(DELETE_CHUNK)) {
            delete.setInt(1, days);
            delete.setInt(2, CHUNK);
            int deleted;
            do {
                deleted = delete.executeUpdate();
                total += deleted;
            } while (deleted == CHUNK);
        }
        return total;
    }
}
