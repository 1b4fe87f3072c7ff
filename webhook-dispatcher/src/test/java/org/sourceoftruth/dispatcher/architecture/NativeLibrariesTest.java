package org.sourceoftruth.dispatcher.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.testsupport.JniLibraries;
import org.sourceoftruth.records.testsupport.NativeLibraryHandling;

/** Every JNI-backed library on this service's runtime class path works in the native executable. */
class NativeLibrariesTest {

    @Test
    void everyJniLibraryIsRegisteredOrFallsBackToJava() throws IOException {
        Map<String, JniLibraries.Library> libraries = JniLibraries.in(JniLibraries.runtimeClassPath());
        assertTrue(
                libraries.keySet().stream().anyMatch(jar -> jar.contains("zstd-jni-")),
                "the scan finds the Kafka client's zstd-jni: " + libraries.keySet());
        // both native builds: with a local GraalVM (profile native) and in a container (native-container)
        for (String profile : List.of("native", "native-container")) {
            Properties settings = NativeLibraryHandling.nativeBuildSettings(
                    Path.of("../pom.xml"), profile, Path.of("src/main/resources/application.properties"));
            List<String> problems = NativeLibraryHandling.problems(libraries.values(), settings);
            assertTrue(problems.isEmpty(), () -> "profile " + profile + ":\n" + String.join("\n", problems));
        }
    }
}
