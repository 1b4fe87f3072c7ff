package org.sourceoftruth.records.changelog;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** Gives a test class's application its own change-event topic, plus any settings of its own. */
public abstract class UniqueTopicProfile implements QuarkusTestProfile {

    private final String topic = "sot-test." + testClassName() + "." + UUID.randomUUID();

    @Override
    public final Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(extraConfig());
        config.put("sot.changes-topic", topic);
        return config;
    }

    /** Profiles are nested in their test class; the topic name says which. */
    private String testClassName() {
        Class<?> test = getClass().getEnclosingClass();
        return (test == null ? getClass() : test).getSimpleName();
    }

    protected Map<String, String> extraConfig() {
        return Map.of();
    }
}
