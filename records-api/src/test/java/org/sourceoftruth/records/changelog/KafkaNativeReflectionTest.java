package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.testsupport.JacksonBoundTypes;
import org.sourceoftruth.records.testsupport.KafkaClientClasses;

/**
 * The native image's reflection registration covers what the relay's Kafka producer loads by
 * name from its configuration (the codec's classes are NativeLibrariesTest's).
 */
class KafkaNativeReflectionTest {

    @Test
    void everyClassTheProducerLoadsByNameIsRegistered() {
        Map<String, Object> config = ChangePublisher.effectiveConfig(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092"), 1024);
        Set<String> loaded = KafkaClientClasses.loadedByName(ProducerConfig.configDef(), config);
        assertTrue(loaded.contains(StringSerializer.class.getName()), "the check finds the key serializer: " + loaded);
        List<String> missing =
                KafkaClientClasses.unregistered(loaded, JacksonBoundTypes.registeredBy(NativeReflection.class));
        assertEquals(List.of(), missing, "loaded by name, not registered for reflection");
    }
}
