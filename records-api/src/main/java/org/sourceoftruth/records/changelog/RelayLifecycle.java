package org.sourceoftruth.records.changelog;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.sourceoftruth.model.Topics;

import java.time.Duration;
import java.util.Map;

/**
 * Runs this replica's {@link OutboxRelay} from startup to shutdown. Every replica runs one; the
 * leader lease decides which of them publishes.
 */
@Singleton
public class RelayLifecycle {

    private final boolean enabled;
    private final OutboxSettings settings;
    private final OutboxRelay relay;

    @Inject
    public RelayLifecycle(
            @ConfigProperty(name = "sot.outbox.enabled", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "quarkus.datasource.jdbc.url") String jdbcUrl,
            @ConfigProperty(name = "quarkus.datasource.username") String dbUser,
            @ConfigProperty(name = "quarkus.datasource.password", defaultValue = "") String dbPassword,
            // kafka.* of application.properties (bootstrap servers, security), prefix removed
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
            @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers,
            @ConfigProperty(name = "sot.changes-topic", defaultValue = Topics.OBJECT_CHANGES) String topic,
            @ConfigProperty(name = "sot.outbox.batch-size", defaultValue = "500") int batchSize,
            @ConfigProperty(name = "sot.outbox.batch-bytes", defaultValue = "16777216") long batchBytes,
            @ConfigProperty(name = "sot.outbox.max-event-bytes", defaultValue = "8388608") int maxEventBytes,
            @ConfigProperty(name = "sot.outbox.poll-interval", defaultValue = "1s") Duration pollInterval,
            @ConfigProperty(name = "sot.outbox.standby-retry", defaultValue = "5s") Duration standbyRetry,
            @ConfigProperty(name = "sot.outbox.max-backoff", defaultValue = "30s") Duration maxBackoff) {
        this.enabled = enabled;
        // The default-kafka-broker map folds kafka.* properties and KAFKA_* environment variables
        // into one key each, in no defined order: with KAFKA_BOOTSTRAP_SERVERS in the environment
        // and kafka.bootstrap.servers set elsewhere (a test profile, a system property), either
        // could win, and the relay published to the wrong broker. The resolved property decides.
        Map<String, Object> producerConfig = new java.util.HashMap<>(kafkaConfig);
        producerConfig.put("bootstrap.servers", bootstrapServers);
        this.settings = new OutboxSettings(jdbcUrl, dbUser, dbPassword, producerConfig, topic, batchSize,
                batchBytes, maxEventBytes, pollInterval, standbyRetry, maxBackoff);
        this.relay = new OutboxRelay(settings);
    }

    void onStart(@Observes StartupEvent event) {
        if (enabled) {
            relay.start();
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        relay.stop(Duration.ofSeconds(5));
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
