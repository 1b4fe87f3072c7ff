package org.sourceoftruth.dispatcher.delivery;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Keeps this process's row in dispatch.worker fresh, so that every replica can list all running
 * replicas as NetBox's background workers (RQ keeps its workers in Redis the same way). The row
 * is removed at shutdown; a replica that died stops beating and drops out of the list after
 * {@link #STALE_AFTER_SECONDS}.
 */
@ApplicationScoped
public class WorkerHeartbeat {

    private static final Logger LOG = Logger.getLogger(WorkerHeartbeat.class);
    /** Three missed beats (every 10 s) and a worker counts as gone. */
    public static final int STALE_AFTER_SECONDS = 30;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    DeliveryWorker worker;

    private final Instant birth = ProcessHandle.current().info().startInstant().orElse(Instant.now());

    void onStart(@Observes StartupEvent event) {
        beat();
    }

    @Scheduled(every = "10s", delayed = "10s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void beat() {
        DeliveryWorker.Stats stats = worker.stats();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement upsert = connection.prepareStatement("""
                     insert into dispatch.worker(name, hostname, pid, birth_date, last_heartbeat, state,
                         successful_job_count, failed_job_count, total_working_time_ms)
                     values (?, ?, ?, ?, now(), ?, ?, ?, ?)
                     on conflict (name) do update set last_heartbeat = now(), state = excluded.state,
                         successful_job_count = excluded.successful_job_count,
                         failed_job_count = excluded.failed_job_count,
                         total_working_time_ms = excluded.total_working_time_ms""")) {
            upsert.setString(1, worker.owner());
            upsert.setString(2, hostname());
            upsert.setLong(3, ProcessHandle.current().pid());
            upsert.setObject(4, java.sql.Timestamp.from(birth));
            upsert.setString(5, stats.inFlight() > 0 ? "busy" : "idle");
            upsert.setLong(6, stats.succeeded());
            upsert.setLong(7, stats.failed());
            upsert.setLong(8, stats.workingMillis());
            upsert.executeUpdate();
        } catch (SQLException e) {
            LOG.warnf("Could not record this worker's heartbeat: %s", e.getMessage());
        }
    }

    /** A running dispatcher process as its last heartbeat recorded it. */
    public record Worker(
            String name,
            String hostname,
            long pid,
            Instant birthDate,
            Instant lastHeartbeat,
            String state,
            long successfulJobCount,
            long failedJobCount,
            long totalWorkingTimeMs) {}

    /** The processes that beat recently, oldest first. */
    public List<Worker> live() throws SQLException {
        List<Worker> workers = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("""
                     select name, hostname, pid, birth_date, last_heartbeat, state, successful_job_count,
                            failed_job_count, total_working_time_ms
                       from dispatch.worker where last_heartbeat > now() - make_interval(secs => ?)
                      order by birth_date, name""")) {
            select.setInt(1, STALE_AFTER_SECONDS);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    workers.add(new Worker(
                            rows.getString(1),
                            rows.getString(2),
                            rows.getLong(3),
                            rows.getTimestamp(4).toInstant(),
                            rows.getTimestamp(5).toInstant(),
                            rows.getString(6),
                            rows.getLong(7),
                            rows.getLong(8),
                            rows.getLong(9)));
                }
            }
        }
        return workers;
    }

    void onStop(@Observes ShutdownEvent event) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        // stale rows of dead replicas go too; nobody else would remove them
                        "delete from dispatch.worker where name = ? or last_heartbeat < now() - interval '1 day'")) {
            delete.setString(1, worker.owner());
            delete.executeUpdate();
        } catch (SQLException e) {
            LOG.warnf("Could not remove this worker's entry: %s", e.getMessage());
        }
    }

    private static String hostname() {
        String fromEnv = System.getenv("HOSTNAME"); // the pod name in Kubernetes
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
