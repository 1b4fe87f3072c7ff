package org.sourceoftruth.records.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The classes a Kafka client instantiates by name from its configuration (serializers,
 * deserializers, partitioner, assignors, interceptors, metrics reporters, login and callback
 * handlers), defaults included, and whether the native image registers each for reflection.
 * Quarkus's Kafka extension registers the implementations of the client's plugin interfaces that
 * it finds in kafka-clients and in the application (KafkaProcessor); a class configured by name
 * that implements none of them, or comes from a jar Quarkus does not index, is loaded by name in
 * the executable and not found.
 */
public final class KafkaClientClasses {
    /** The plugin interfaces whose implementations Quarkus's Kafka extension registers. */
    private static final List<String> REGISTERED_BY_QUARKUS = List.of(
            "org.apache.kafka.common.serialization.Serializer",
            "org.apache.kafka.common.serialization.Deserializer",
            "org.apache.kafka.clients.producer.Partitioner",
            "org.apache.kafka.clients.consumer.ConsumerPartitionAssignor",
            "org.apache.kafka.clients.consumer.ConsumerInterceptor",
            "org.apache.kafka.clients.producer.ProducerInterceptor",
            "org.apache.kafka.common.metrics.MetricsReporter",
            "org.apache.kafka.common.security.auth.AuthenticateCallbackHandler",
            "org.apache.kafka.common.security.oauthbearer.JwtRetriever",
            "org.apache.kafka.common.security.oauthbearer.JwtValidator");

    private KafkaClientClasses() {}

    /** The class names {@code config} (parsed by the client's own definition) makes the client load. */
    public static Set<String> loadedByName(ConfigDef definition, Map<String, Object> config) {
        AbstractConfig parsed = new AbstractConfig(definition, config, false);
        Set<String> names = new TreeSet<>();
        for (ConfigDef.ConfigKey key : definition.configKeys().values()) {
            if (key.type == ConfigDef.Type.CLASS) {
                Class<?> c = parsed.getClass(key.name);
                if (c != null) {
                    names.add(c.getName());
                }
            } else if (key.type == ConfigDef.Type.LIST && parsed.values().get(key.name) instanceof List<?> values) {
                // a list of classes may hold Class objects (defaults) or names
                for (Object value : values) {
                    String name = value instanceof Class<?> c ? c.getName() : String.valueOf(value);
                    if (name.matches("([a-z_][\\w]*\\.)+[A-Z][\\w$]*") && JniLibraries.load(name) != null) {
                        names.add(name);
                    }
                }
            }
        }
        return names;
    }

    /** The classes among {@code names} that the native image would not find by name. */
    public static List<String> unregistered(Set<String> names, Set<String> registeredByTheService) {
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            Class<?> c = JniLibraries.load(name);
            boolean quarkus = c != null
                    && !c.isInterface()
                    && !java.lang.reflect.Modifier.isAbstract(c.getModifiers())
                    && (name.startsWith("org.apache.kafka.") || name.startsWith("org.sourceoftruth."))
                    && REGISTERED_BY_QUARKUS.stream().anyMatch(i -> implementsInterface(c, i));
            if (!quarkus && !registeredByTheService.contains(name)) {
                missing.add(name);
            }
        }
        return missing;
    }

    private static boolean implementsInterface(Class<?> c, String interfaceName) {
        Class<?> i = JniLibraries.load(interfaceName);
        return i != null && i.isAssignableFrom(c);
    }
}
