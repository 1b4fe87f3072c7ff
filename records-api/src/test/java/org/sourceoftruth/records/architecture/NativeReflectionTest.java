package org.sourceoftruth.records.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.changelog.NativeReflection;
import org.sourceoftruth.records.testsupport.JacksonBoundTypes;

/** The native image's reflection registration is exactly the classes Jackson binds in this service's code. */
class NativeReflectionTest {

    @Test
    void registrationListsEveryJacksonBoundClassAndNothingElse() {
        Set<String> bound = JacksonBoundTypes.in("org.sourceoftruth.records", "org.sourceoftruth.model");
        assertTrue(bound.contains("org.sourceoftruth.model.ChangeEvent"), "the check finds the event type: " + bound);
        assertEquals(bound, JacksonBoundTypes.registeredBy(NativeReflection.class));
    }
}
