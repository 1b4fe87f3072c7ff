package org.sourceoftruth.records.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The JNI-backed libraries on a service's runtime class path, and whether each works in a native
 * executable. A JNI library works on the JVM by unpacking its bundled binary and loading it; in a
 * native executable the binary is not there unless it was included as a resource, the Java
 * members its C code looks up must be registered for JNI, and the class that loads it must be
 * initialised at run time (else it loads it into the image builder). A library either has all of
 * that, or a pure-Java fallback that is registered for reflection, or Quarkus's own support.
 *
 * <p>A jar is JNI-backed when it bundles a native binary (.so, .dylib, .dll) or declares native
 * methods; a class that only stands in for GraalVM substitutions ({@code @TargetClass}) is not JNI.
 */
public final class JniLibraries {
    /** The kafka-codecs module's native-image metadata, on every service's class path. */
    public static final String METADATA = "META-INF/native-image/org.sourceoftruth/kafka-codecs/";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A jar with JNI: its native binaries (entry names) and the classes that declare native methods. */
    public record Library(Path jar, List<String> binaries, Set<String> nativeClasses) {
        public String fileName() {
            return jar.getFileName().toString();
        }

        /** The binary built for Linux on {@code arch} (amd64, aarch64), or null. */
        public String linuxBinary(String... archNames) {
            for (String binary : binaries) {
                String lower = binary.toLowerCase();
                for (String arch : archNames) {
                    if (lower.contains("linux") && lower.contains("/" + arch + "/") && lower.endsWith(".so")) {
                        return binary;
                    }
                }
            }
            return null;
        }
    }

    private JniLibraries() {}

    /**
     * The runtime class path of the module under test: written by maven-dependency-plugin
     * (build-classpath, runtime scope) to target/runtime-classpath.txt, so test-only jars do not count.
     */
    public static List<Path> runtimeClassPath() {
        Path file = Path.of("target", "runtime-classpath.txt");
        try {
            String text = Files.readString(file).strip();
            List<Path> jars = new ArrayList<>();
            for (String entry : text.split(java.io.File.pathSeparator)) {
                if (entry.endsWith(".jar")) {
                    jars.add(Path.of(entry));
                }
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "no " + file.toAbsolutePath() + " (the build writes it before the tests)", e);
        }
    }

    /** The JNI-backed jars among {@code jars}, by file name. */
    public static Map<String, Library> in(List<Path> jars) {
        Map<String, Library> found = new LinkedHashMap<>();
        for (Path jar : jars) {
            Library library = scan(jar);
            if (!library.binaries().isEmpty() || !library.nativeClasses().isEmpty()) {
                found.put(library.fileName(), library);
            }
        }
        return found;
    }

    private static Library scan(Path jar) {
        List<String> binaries = new ArrayList<>();
        Set<String> nativeClasses = new TreeSet<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                String name = entry.getName();
                if (name.matches(".*\\.(so|dylib|dll|jnilib)")) {
                    binaries.add(name);
                } else if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        String nativeClass = nativeClass(in.readAllBytes());
                        if (nativeClass != null) {
                            nativeClasses.add(nativeClass);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(jar.toString(), e);
        }
        return new Library(jar, binaries, nativeClasses);
    }

    /**
     * Annotations of code that exists only in a native image and is no JNI: substitutions and
     * GraalVM's direct C calls.
     */
    private static final Set<String> GRAALVM_ONLY = Set.of(
            "Lcom/oracle/svm/core/annotate/TargetClass;",
            "Lorg/graalvm/nativeimage/c/CContext;",
            "Lorg/graalvm/nativeimage/c/function/CFunction;");

    /** The class's name if it declares a native (JNI) method and is no GraalVM substitution; else null. */
    private static String nativeClass(byte[] classFile) {
        String[] name = new String[1];
        boolean[] hasNative = new boolean[1];
        boolean[] substitution = new boolean[1];
        new ClassReader(classFile)
                .accept(
                        new ClassVisitor(Opcodes.ASM9) {
                            @Override
                            public void visit(
                                    int version,
                                    int access,
                                    String className,
                                    String signature,
                                    String superName,
                                    String[] interfaces) {
                                name[0] = className.replace('/', '.');
                            }

                            @Override
                            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                                if (GRAALVM_ONLY.contains(descriptor)) {
                                    substitution[0] = true;
                                }
                                return null;
                            }

                            @Override
                            public MethodVisitor visitMethod(
                                    int access, String method, String descriptor, String signature, String[] ex) {
                                if ((access & Opcodes.ACC_NATIVE) == 0) {
                                    return null;
                                }
                                return new MethodVisitor(Opcodes.ASM9) {
                                    private boolean cFunction;

                                    @Override
                                    public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                                        cFunction |= GRAALVM_ONLY.contains(annotation);
                                        return null;
                                    }

                                    @Override
                                    public void visitEnd() {
                                        hasNative[0] |= !cFunction;
                                    }
                                };
                            }
                        },
                        ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return hasNative[0] && !substitution[0] ? name[0] : null;
    }

    /**
     * The names of {@code nativeClass}'s instance fields that its binary names: the fields the C
     * code looks up (GetFieldID takes the field's name as a string constant of the binary).
     */
    public static Set<String> fieldsNamedByBinary(Library library, String binary, String nativeClass) {
        Set<String> strings = strings(library, binary);
        Set<String> named = new TreeSet<>();
        for (Class<?> c = load(nativeClass); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && strings.contains(f.getName())) {
                    named.add(f.getName());
                }
            }
        }
        return named;
    }

    /** The classes of the library that its binary names in JNI form (FindClass: a/b/C). */
    public static Set<String> classesNamedByBinary(Library library, String binary, String packagePrefix) {
        Set<String> named = new TreeSet<>();
        String prefix = packagePrefix.replace('.', '/');
        for (String s : strings(library, binary)) {
            if (s.startsWith(prefix) && s.matches("[A-Za-z0-9_/$]+")) {
                named.add(s.replace('/', '.'));
            }
        }
        return named;
    }

    /** The NUL-terminated printable strings of a binary in the library's jar. */
    private static Set<String> strings(Library library, String binary) {
        byte[] bytes;
        try (ZipFile zip = new ZipFile(library.jar().toFile());
                InputStream in = zip.getInputStream(zip.getEntry(binary))) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> strings = new TreeSet<>();
        ByteArrayOutputStream current = new ByteArrayOutputStream();
        for (byte b : bytes) {
            if (b >= 0x20 && b < 0x7f) {
                current.write(b);
            } else {
                if (b == 0 && current.size() >= 3) {
                    strings.add(current.toString(StandardCharsets.US_ASCII));
                }
                current.reset();
            }
        }
        return strings;
    }

    /** One of the kafka-codecs metadata files, parsed; a missing node when it is not on the class path. */
    public static JsonNode metadata(String file) {
        try (InputStream in = JniLibraries.class.getClassLoader().getResourceAsStream(METADATA + file)) {
            if (in == null) {
                return JSON.missingNode(); // nothing registered: every library it should cover is reported
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The resource patterns the metadata includes in the executable. */
    public static List<Pattern> includedResources() {
        List<Pattern> patterns = new ArrayList<>();
        metadata("resource-config.json")
                .path("resources")
                .path("includes")
                .forEach(include ->
                        patterns.add(Pattern.compile(include.path("pattern").asText())));
        return patterns;
    }

    /** The packages and classes the metadata's native-image.properties initialises at run time. */
    public static List<String> initialisedAtRunTime() {
        Properties properties = new Properties();
        try (InputStream in =
                JniLibraries.class.getClassLoader().getResourceAsStream(METADATA + "native-image.properties")) {
            if (in == null) {
                return List.of();
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> names = new ArrayList<>();
        for (String arg : properties.getProperty("Args", "").split("\\s+")) {
            if (arg.startsWith("--initialize-at-run-time=")) {
                names.addAll(List.of(
                        arg.substring("--initialize-at-run-time=".length()).split(",")));
            }
        }
        return names;
    }

    /** Whether {@code className} falls under one of the run-time-initialised names (class or package). */
    public static boolean isInitialisedAtRunTime(String className) {
        return initialisedAtRunTime().stream()
                .anyMatch(name -> className.equals(name) || className.startsWith(name + "."));
    }

    /** The entries of a metadata file that is a list of {"name": ...} objects, by name. */
    public static Map<String, JsonNode> byName(String file) {
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        metadata(file).forEach(entry -> entries.put(entry.path("name").asText(), entry));
        return entries;
    }

    /** The field names an entry of reflect-config.json or jni-config.json registers. */
    public static Set<String> registeredFields(JsonNode entry) {
        Set<String> fields = new TreeSet<>();
        if (entry != null) {
            entry.path("fields").forEach(f -> fields.add(f.path("name").asText()));
        }
        return fields;
    }

    /** The constructors (parameter type lists) an entry registers. */
    public static Set<List<String>> registeredConstructors(JsonNode entry) {
        Set<List<String>> constructors = new java.util.HashSet<>();
        if (entry != null) {
            entry.path("methods").forEach(m -> {
                if (m.path("name").asText().equals("<init>")) {
                    List<String> types = new ArrayList<>();
                    m.path("parameterTypes").forEach(t -> types.add(t.asText()));
                    constructors.add(types);
                }
            });
        }
        return constructors;
    }

    /** The class, not initialised; null if absent. */
    public static Class<?> load(String name) {
        try {
            return Class.forName(name, false, JniLibraries.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** The classes in {@code jar} whose binary names match {@code regex} (a/b/C form, no .class). */
    public static List<String> classesMatching(Library library, String regex) {
        List<String> names = new ArrayList<>();
        try (ZipFile zip = new ZipFile(library.jar().toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    String className =
                            name.substring(0, name.length() - ".class".length()).replace('/', '.');
                    if (className.matches(regex)) {
                        names.add(className);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }
}
