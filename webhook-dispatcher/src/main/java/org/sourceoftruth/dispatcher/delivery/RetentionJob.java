package org.sourceoftruth.dispatcher.delivery;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

/**
 * Keeps the delivery history and the processed change ids bounded. The retention must exceed the
 * topic's retention, or a replayed old event would no longer be recognised as processed.
 */
@ApplicationScoped
public class RetentionJob {

    private static final Logger LOG = Logger.getLogger(RetentionJob.class);

    @Inject
    DeliveryAdmin deliveries;

    @Inject
    DispatcherConfig config;

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void deleteOldRows() {
        if (config.retentionDays() <= 0) {
            return;
        }
        try {
            int[] deleted = deliveries.deleteOlderThan(config.retentionDays());
            if (deleted[0] + deleted[1] > 0) {
                LOG.infof(
                        "Retention: deleted %d finished deliveries and %d processed change ids older than %d days",
                        deleted[0], deleted[1], config.retentionDays());
            }
        } catch (SQLException e) {
            LOG.warnf("Retention clean-up failed: %s", e.getMessage());
        }
    }
}
