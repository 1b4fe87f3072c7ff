package org.sourceoftruth.records.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.sourceoftruth.records.testsupport.JniLibraries.Library;

/**
 * How each JNI-backed library on a service's runtime class path works in the native executable,
 * checked against the library itself and against the metadata that makes it work. A library that
 * is not named here fails the check: the next one must get its native support before it ships.
 */
public final class NativeLibraryHandling {

    private NativeLibraryHandling() {}

    /**
     * Everything wrong with the native support of the JNI libraries in {@code libraries}, for a
     * native build with the settings {@code nativeBuild} (application.properties and the Maven
     * profile's quarkus.* properties); empty when all is well.
     */
    public static List<String> problems(Collection<Library> libraries, Properties nativeBuild) {
        List<String> problems = new ArrayList<>();
        for (Library library : libraries) {
            String jar = library.fileName();
            if (jar.contains("zstd-jni-")) {
                registered(library, "com.github.luben.zstd", problems);
            } else if (jar.contains("lz4-java-")) {
                pureJavaFallback(library, problems);
            } else if (jar.contains("snappy-java-")) {
                // Quarkus's Kafka extension bundles libsnappyjava and loads it at start, when told to
                if (!"true".equals(nativeBuild.getProperty("quarkus.kafka.snappy.enabled"))) {
                    problems.add(jar + ": snappy-java needs quarkus.kafka.snappy.enabled=true in the native build"
                            + " (Quarkus then bundles and loads its library in the native executable)");
                }
                requirePresent("io.quarkus.kafka.client.runtime.graal.SnappyFeature", jar, problems);
            } else if (library.jar().toString().contains("brotli4j")) {
                // HTTP compression's Brotli: Quarkus's HTTP extension bundles and loads it (Brotli4jFeature)
                requirePresent("io.quarkus.vertx.http.runtime.graal.Brotli4jFeature", jar, problems);
            } else if (jar.contains("netty-tcnative-classes-")) {
                binaryAbsent(libraries, "netty_tcnative", jar, "the JDK's TLS", problems);
            } else if (jar.contains("netty-transport-native-unix-common-")) {
                binaryAbsent(libraries, "netty_transport_native", jar, "the NIO transport", problems);
            } else {
                problems.add(jar + " is JNI-backed (binaries " + library.binaries() + ", native methods in "
                        + library.nativeClasses() + ") and nothing makes it work in the native executable:"
                        + " register it in kafka-codecs' native-image metadata, use a pure-Java fallback,"
                        + " or name Quarkus's support for it in " + NativeLibraryHandling.class.getSimpleName());
            }
        }
        return problems;
    }

    /**
     * Its Linux binaries are included as resources, the classes with native methods are
     * initialised at run time (their static initializers load the library), and every member its
     * C code looks up is registered for JNI.
     */
    private static void registered(Library library, String packageName, List<String> problems) {
        String jar = library.fileName();
        List<Pattern> included = JniLibraries.includedResources();
        String amd64 = library.linuxBinary("amd64", "x86_64");
        for (String binary : new String[] {amd64, library.linuxBinary("aarch64")}) {
            if (binary == null) {
                problems.add(jar + " has no Linux binary for amd64 or aarch64");
            } else if (included.stream().noneMatch(p -> p.matcher(binary).matches())) {
                problems.add(
                        jar + ": its binary " + binary + " is not included in the executable (resource-config.json)");
            }
        }
        Map<String, JsonNode> jni = JniLibraries.byName("jni-config.json");
        for (String nativeClass : library.nativeClasses()) {
            if (!JniLibraries.isInitialisedAtRunTime(nativeClass)) {
                problems.add(jar + ": " + nativeClass + " loads the library in its static initializer and must be"
                        + " initialised at run time (native-image.properties)");
            }
            if (amd64 != null) {
                Set<String> looked = JniLibraries.fieldsNamedByBinary(library, amd64, nativeClass);
                Set<String> missing = new java.util.TreeSet<>(looked);
                missing.removeAll(JniLibraries.registeredFields(jni.get(nativeClass)));
                if (!missing.isEmpty()) {
                    problems.add(jar + ": the native code reads the fields " + missing + " of " + nativeClass
                            + ", not registered for JNI (jni-config.json)");
                }
            }
        }
        if (amd64 != null) {
            for (String named : JniLibraries.classesNamedByBinary(library, amd64, packageName)) {
                Class<?> c = JniLibraries.load(named);
                if (c == null) {
                    continue;
                }
                Set<List<String>> registered = JniLibraries.registeredConstructors(jni.get(named));
                for (Constructor<?> constructor : c.getDeclaredConstructors()) {
                    List<String> types = Arrays.stream(constructor.getParameterTypes())
                            .map(Class::getName)
                            .toList();
                    if (!registered.contains(types)) {
                        problems.add(jar + ": the native code creates " + named + " (FindClass), whose constructor "
                                + types + " is not registered for JNI (jni-config.json)");
                    }
                }
            }
        }
    }

    /**
     * lz4-java's factories try its JNI binding first and fall back to its pure-Java classes,
     * which they load by name: those must be registered for reflection, the JNI classes must not
     * be (so the attempt ends at once, with no library to load), and its binaries stay out.
     */
    private static void pureJavaFallback(Library library, List<String> problems) {
        String jar = library.fileName();
        Map<String, JsonNode> reflect = JniLibraries.byName("reflect-config.json");
        List<String> fallback =
                JniLibraries.classesMatching(library, "net\\.jpountz\\..*JavaSafe[A-Za-z]*(\\$Factory)?");
        int found = 0;
        for (String name : fallback) {
            Class<?> c = JniLibraries.load(name);
            if (c == null || !hasStaticInstance(c)) {
                continue; // not looked up by name
            }
            found++;
            JsonNode entry = reflect.get(name);
            if (!JniLibraries.registeredFields(entry).contains("INSTANCE")) {
                problems.add(jar + ": the pure-Java fallback " + name + " is loaded by name and its INSTANCE field"
                        + " is not registered for reflection (reflect-config.json)");
            }
            for (Constructor<?> constructor : c.getDeclaredConstructors()) {
                List<String> types = Arrays.stream(constructor.getParameterTypes())
                        .map(Class::getName)
                        .toList();
                if (Modifier.isPublic(constructor.getModifiers())
                        && !types.isEmpty()
                        && !JniLibraries.registeredConstructors(entry).contains(types)) {
                    problems.add(jar + ": the factory makes " + name + types + " by reflection; not registered");
                }
            }
        }
        if (found == 0) {
            problems.add(jar + ": no pure-Java fallback classes found (the library changed: look again)");
        }
        for (String chooser : List.of(
                "net.jpountz.lz4.LZ4Factory",
                "net.jpountz.xxhash.XXHashFactory",
                "org.apache.kafka.common.compress.Lz4BlockInputStream")) {
            if (!JniLibraries.isInitialisedAtRunTime(chooser)) {
                problems.add(jar + ": " + chooser + " picks JNI or Java code when initialised; at build time it would"
                        + " pick in the builder: initialise it at run time (native-image.properties)");
            }
        }
        for (String name : reflect.keySet()) {
            if (name.startsWith("net.jpountz.") && name.contains("JNI")) {
                problems.add(jar + ": " + name + " is registered for reflection: its binary is not in the executable");
            }
        }
        List<Pattern> included = JniLibraries.includedResources();
        for (String binary : library.binaries()) {
            if (included.stream().anyMatch(p -> p.matcher(binary).matches())) {
                problems.add(
                        jar + ": its binary " + binary + " is included, but the pure-Java fallback is the one used");
            }
        }
    }

    private static boolean hasStaticInstance(Class<?> c) {
        try {
            return Modifier.isStatic(c.getField("INSTANCE").getModifiers());
        } catch (NoSuchFieldException e) {
            return false;
        }
    }

    private static void binaryAbsent(
            Collection<Library> libraries, String binaryName, String jar, String fallback, List<String> problems) {
        for (Library other : libraries) {
            for (String binary : other.binaries()) {
                if (binary.contains(binaryName)) {
                    problems.add(jar + ": " + other.fileName() + " brings its binary " + binary + "; it was expected"
                            + " absent (Netty then uses " + fallback + ") and needs native support now");
                }
            }
        }
    }

    private static void requirePresent(String className, String jar, List<String> problems) {
        if (JniLibraries.load(className) == null) {
            problems.add(jar + ": relies on Quarkus's " + className + ", which is not on the class path");
        }
    }

    /**
     * The quarkus.* settings of a native build with {@code profile} of the root pom: the
     * service's application.properties, then the profile's Maven properties (Quarkus reads both).
     */
    public static Properties nativeBuildSettings(Path rootPom, String profile, Path applicationProperties) {
        Properties settings = new Properties();
        try (java.io.Reader in = java.nio.file.Files.newBufferedReader(applicationProperties)) {
            settings.load(in);
            var pom = javax.xml.parsers.DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(rootPom.toFile());
            var profiles = pom.getElementsByTagName("profile");
            boolean found = false;
            for (int i = 0; i < profiles.getLength(); i++) {
                var element = (org.w3c.dom.Element) profiles.item(i);
                if (!profile.equals(element.getElementsByTagName("id").item(0).getTextContent())) {
                    continue;
                }
                found = true;
                var properties = element.getElementsByTagName("properties");
                for (int j = 0; j < properties.getLength(); j++) {
                    var children = properties.item(j).getChildNodes();
                    for (int k = 0; k < children.getLength(); k++) {
                        if (children.item(k) instanceof org.w3c.dom.Element property) {
                            settings.setProperty(
                                    property.getTagName(),
                                    property.getTextContent().strip());
                        }
                    }
                }
            }
            if (!found) {
                throw new AssertionError("no profile " + profile + " in " + rootPom);
            }
        } catch (java.io.IOException | javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            throw new IllegalStateException(e);
        }
        return settings;
    }
}
