package org.sourceoftruth.dispatcher.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.consume.NativeReflection;
import org.sourceoftruth.records.testsupport.JacksonBoundTypes;
import org.sourceoftruth.records.testsupport.KafkaClientClasses;

/**
 * The native image's reflection registration covers what the change consumer's Kafka client loads
 * by name from its configuration: the channel's consumer settings of application.properties,
 * with the client's defaults for the rest (the codecs' classes are NativeLibrariesTest's).
 */
class KafkaNativeReflectionTest {
    private static final String CHANNEL = "mp.messaging.incoming.object-changes.";

    @Test
    void everyClassTheConsumerLoadsByNameIsRegistered() throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        Map<String, Object> config = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            String key = name.startsWith(CHANNEL) ? name.substring(CHANNEL.length()) : null;
            if (key != null
                    && ConsumerConfig.configNames().contains(key)
                    && !properties.getProperty(name).contains("${")) {
                config.put(key, properties.getProperty(name));
            }
        }
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
        Set<String> loaded = KafkaClientClasses.loadedByName(ConsumerConfig.configDef(), config);
        assertTrue(
                loaded.contains(ByteArrayDeserializer.class.getName()),
                "the check finds the value deserializer: " + loaded);
        List<String> missing =
                KafkaClientClasses.unregistered(loaded, JacksonBoundTypes.registeredBy(NativeReflection.class));
        assertEquals(List.of(), missing, "loaded by name, not registered for reflection");
    }
}
