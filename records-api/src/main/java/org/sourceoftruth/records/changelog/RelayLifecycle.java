package org.sourceoftruth.records.changelog;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.sourceoftruth.model.memory.ByteBudget;
import org.sourceoftruth.records.memory.HeapBudget;

/**
 * Runs this replica's {@link OutboxRelay} from startup to shutdown. Every replica runs one; the
 * leader lease decides which of them publishes.
 */
@Singleton
public class RelayLifecycle {

    private final boolean enabled;
    private final OutboxSettings settings;
    private final OutboxRelay relay;
    private volatile boolean stopping;

    @Inject
    public RelayLifecycle(
            ChangeLogConfig config,
            // Quarkus's own datasource settings: the relay holds a connection of its own (LISTEN and the lease)
            @ConfigProperty(name = "quarkus.datasource.jdbc.url") String jdbcUrl,
            @ConfigProperty(name = "quarkus.datasource.username") String dbUser,
            @ConfigProperty(name = "quarkus.datasource.password", defaultValue = "") String dbPassword,
            // kafka.* of application.properties (bootstrap servers, security), prefix removed
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
            @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers,
            HeapBudget heapBudget) {
        ChangeLogConfig.Outbox outbox = config.outbox();
        boolean enabled = outbox.enabled();
        this.enabled = enabled;
        // The default-kafka-broker map folds kafka.* properties and KAFKA_* environment variables
        // into one key each, in no defined order: with KAFKA_BOOTSTRAP_SERVERS in the environment
        // and kafka.bootstrap.servers set elsewhere (a test profile, a system property), either
        // could win, and the relay published to the wrong broker. The resolved property decides.
        Map<String, Object> producerConfig = new java.util.HashMap<>(kafkaConfig);
        producerConfig.put("bootstrap.servers", bootstrapServers);
        this.settings = new OutboxSettings(
                jdbcUrl,
                dbUser,
                dbPassword,
                producerConfig,
                config.changesTopic(),
                outbox.batchSize(),
                outbox.batchBytes(),
                outbox.maxEventBytes(),
                outbox.pollInterval(),
                outbox.fullReadInterval(),
                outbox.standbyRetry(),
                outbox.maxBackoff(),
                outbox.cloudEvents() ? outbox.cloudEventsSource() : null);
        this.relay = new OutboxRelay(settings, new OutboxRelay.HeapReservations() {
            @Override
            public Runnable reserve(long bytes) {
                return heapBudget.reserve(bytes)::close;
            }

            @Override
            public Runnable tryReserve(long bytes) {
                ByteBudget.Reservation now = heapBudget.tryReserve(bytes);
                return now == null ? null : now::close;
            }
        });
    }

    void onStart(@Observes StartupEvent event) {
        if (enabled) {
            relay.start();
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
        relay.stop(Duration.ofSeconds(5));
    }

    /** Whether the process is shutting down (the relay is stopped on purpose). */
    public boolean stopping() {
        return stopping;
    }

    public boolean enabled() {
        return enabled;
    }

    public OutboxRelay relay() {
        return relay;
    }

    public OutboxSettings settings() {
        return settings;
    }
}
