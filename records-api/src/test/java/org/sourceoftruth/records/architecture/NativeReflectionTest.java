package org.sourceoftruth.records.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.changelog.NativeReflection;
import org.sourceoftruth.records.testsupport.JacksonBoundTypes;
import org.sourceoftruth.records.testsupport.TemplateData;

/**
 * What this service's code has loaded by reflection works in the native executable: the
 * registration is exactly the classes Jackson binds, and the Quarkus templates are handed only
 * data Qute reads without reflection. (The Kafka client's classes: KafkaNativeReflectionTest; the
 * codecs' JNI and fallbacks: NativeLibrariesTest.)
 */
class NativeReflectionTest {

    @Test
    void registrationListsEveryJacksonBoundClassAndNothingElse() {
        Set<String> bound = JacksonBoundTypes.in("org.sourceoftruth.records", "org.sourceoftruth.model");
        assertTrue(bound.contains("org.sourceoftruth.model.ChangeEvent"), "the check finds the event type: " + bound);
        assertEquals(bound, JacksonBoundTypes.registeredBy(NativeReflection.class));
    }

    @Test
    void templatesAreHandedOnlyDataQuteReadsWithoutReflection() {
        List<String> reflective = TemplateData.reflectiveValues(TemplateData.mainClasses());
        assertTrue(reflective.isEmpty(), () -> String.join("\n", reflective));
    }
}
