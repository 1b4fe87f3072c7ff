package org.sourceoftruth.records.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.testsupport.BuildTimeInitialisation;

/**
 * Nothing the native image initialises at build time makes a random source, a thread or an open
 * file, or reads a fact of the build machine (see {@link BuildTimeInitialisation}), in this
 * service's classes and the shared modules it runs.
 */
class BuildTimeInitialisationTest {

    @Test
    void staticStateHoldsNothingMadeOnTheBuildMachine() {
        JavaClasses classes = BuildTimeInitialisation.mainClasses(
                "org.sourceoftruth.records", "org.sourceoftruth.model", "org.sourceoftruth.observability");
        assertTrue(classes.size() > 100, "the main classes were imported (" + classes.size() + ")");
        List<String> hazards = BuildTimeInitialisation.hazards(classes);
        assertTrue(hazards.isEmpty(), () -> String.join("\n", hazards));
    }
}
