package org.sourceoftruth.dispatcher.consume;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * The partitions this process consumes, as the consumer group hands them out, on /q/metrics and
 * in the log. The group uses cooperative rebalancing (application.properties): when a replica
 * joins or dies, only the partitions that move are revoked, so the others go on being consumed
 * through the rebalance; {@code dispatcher_kafka_partitions_revoked_total} counts what this
 * process gave up ({@code reason="revoked"}: handed to another replica; {@code "lost"}: taken
 * from it, e.g. after its session timed out).
 */
@ApplicationScoped
@Identifier(PartitionAssignments.NAME)
public class PartitionAssignments implements KafkaConsumerRebalanceListener {

    /** The name application.properties gives the consumer as its rebalance listener. */
    public static final String NAME = "object-changes-assignments";

    private static final Logger LOG = Logger.getLogger(PartitionAssignments.class);

    @Inject
    MeterRegistry registry;

    private final Set<TopicPartition> assigned = ConcurrentHashMap.newKeySet();
    private Counter revoked;
    private Counter lost;

    @PostConstruct
    void register() {
        Gauge.builder("dispatcher.kafka.partitions.assigned", assigned, Set::size)
                .description("Partitions of the change-event topic this process consumes now")
                .register(registry);
        revoked = Counter.builder("dispatcher.kafka.partitions.revoked")
                .tag("reason", "revoked")
                .description("Partitions this process gave up in a rebalance, or lost")
                .register(registry);
        lost = Counter.builder("dispatcher.kafka.partitions.revoked")
                .tag("reason", "lost")
                .description("Partitions this process gave up in a rebalance, or lost")
                .register(registry);
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            assigned.addAll(partitions);
            LOG.infof("Partitions assigned: %s; consuming %s", names(partitions), names(assigned));
        }
    }

    @Override
    public void onPartitionsRevoked(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            assigned.removeAll(partitions);
            revoked.increment(partitions.size());
            LOG.infof("Partitions revoked: %s; consuming %s", names(partitions), names(assigned));
        }
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            assigned.removeAll(partitions);
            lost.increment(partitions.size());
            LOG.warnf("Partitions lost: %s; consuming %s", names(partitions), names(assigned));
        }
    }

    private static Set<String> names(Collection<TopicPartition> partitions) {
        Set<String> names = new TreeSet<>();
        partitions.forEach(p -> names.add(p.topic() + "-" + p.partition()));
        return names;
    }
}
