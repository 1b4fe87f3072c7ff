package org.sourceoftruth.records.testsupport;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the native image would freeze at build time. Quarkus has native-image initialise classes
 * while the executable is built, as far as it can, so whatever a static initializer makes ends up
 * in the image heap, made on the build machine:
 * <ul>
 *   <li>a seeded random source (SecureRandom, Random, SplittableRandom, a UUID generator holding
 *       one): native-image refuses the build, and if it did not, every executable would draw the
 *       same numbers;</li>
 *   <li>threads, timers and executors, open files and channels: they cannot be stored at all;</li>
 *   <li>facts of the build machine read into a static: the time, the environment, system
 *       properties, the host name, the process id, the processor count, a random UUID, a direct
 *       buffer.</li>
 * </ul>
 * Two checks over a service's main classes: no static field whose declared type can hold a
 * hazard (the types of its instance fields, followed through library classes, up to the JDK's;
 * {@code ThreadLocal} values are per thread and never in the image heap), and no static
 * initializer (nor a project method it calls) that creates one or reads such a fact. A value
 * behind a field declared as {@code Object} or an interface is not seen; what a CDI bean holds in
 * its instance fields is made at run time and is fine. {@code ThreadLocalRandom.current()} at the
 * point of use is fine.
 */
public final class BuildTimeInitialisation {
    private static final String PROJECT = "org.sourceoftruth.";

    /** Types whose instances must not be made at build time, and what is wrong with them. */
    private static final Map<String, String> HAZARD_TYPES = Map.ofEntries(
            Map.entry("java.util.Random", "a seeded random source"),
            Map.entry("java.util.SplittableRandom", "a seeded random source"),
            Map.entry("java.util.random.RandomGenerator", "a seeded random source"),
            Map.entry("com.fasterxml.uuid.UUIDGenerator", "a UUID generator (holds a seeded random source)"),
            Map.entry("java.lang.Thread", "a thread"),
            Map.entry("java.util.Timer", "a timer thread"),
            Map.entry("java.util.concurrent.Executor", "an executor (threads)"),
            Map.entry("java.io.FileDescriptor", "an open file"),
            Map.entry("java.io.FileInputStream", "an open file"),
            Map.entry("java.io.FileOutputStream", "an open file"),
            Map.entry("java.io.RandomAccessFile", "an open file"),
            Map.entry("java.nio.channels.Channel", "an open channel"),
            Map.entry("java.nio.MappedByteBuffer", "a mapped buffer"));

    /** Calls that read a fact of the machine they run on (owner and method name). */
    private static final Map<String, Set<String>> MACHINE_FACTS = Map.ofEntries(
            Map.entry("java.util.UUID", Set.of("randomUUID")),
            Map.entry("java.lang.System", Set.of("currentTimeMillis", "nanoTime", "getenv", "getProperty")),
            Map.entry("java.lang.Runtime", Set.of("availableProcessors", "maxMemory", "totalMemory")),
            Map.entry("java.lang.ProcessHandle", Set.of("current")),
            Map.entry("java.net.InetAddress", Set.of("getLocalHost")),
            Map.entry("java.time.Instant", Set.of("now")),
            Map.entry("java.time.LocalDate", Set.of("now")),
            Map.entry("java.time.LocalDateTime", Set.of("now")),
            Map.entry("java.time.OffsetDateTime", Set.of("now")),
            Map.entry("java.time.ZonedDateTime", Set.of("now")),
            Map.entry("java.time.Clock", Set.of("systemUTC", "systemDefaultZone")),
            Map.entry("java.util.concurrent.ThreadLocalRandom", Set.of("current")),
            Map.entry("java.nio.ByteBuffer", Set.of("allocateDirect")),
            Map.entry(
                    "java.util.concurrent.Executors",
                    Set.of(
                            "newFixedThreadPool",
                            "newCachedThreadPool",
                            "newSingleThreadExecutor",
                            "newScheduledThreadPool",
                            "newSingleThreadScheduledExecutor",
                            "newVirtualThreadPerTaskExecutor",
                            "newWorkStealingPool")));

    private BuildTimeInitialisation() {}

    /** The main classes of {@code packages} (no tests, no shared test jar). */
    public static JavaClasses mainClasses(String... packages) {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages(packages);
    }

    /** One line per hazard found in {@code classes}: where it is and what it would freeze. */
    public static List<String> hazards(JavaClasses classes) {
        List<String> found = new ArrayList<>();
        for (JavaClass c : classes) {
            for (JavaField f : c.getFields()) {
                if (f.getModifiers().contains(JavaModifier.STATIC)) {
                    held(reflected(c, f))
                            .ifPresent(what -> found.add("static field " + c.getName() + "." + f.getName() + " ("
                                    + f.getRawType().getName() + ") can hold " + what));
                }
            }
            c.getStaticInitializer().ifPresent(init -> found.addAll(madeAtInitialisation(c, init)));
        }
        return found;
    }

    /** What a static initializer, or a project method it calls, creates or reads that it must not. */
    private static List<String> madeAtInitialisation(JavaClass owner, JavaCodeUnit init) {
        List<String> found = new ArrayList<>();
        Deque<JavaCodeUnit> pending = new ArrayDeque<>(List.of(init));
        Set<String> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            JavaCodeUnit unit = pending.pop();
            if (!seen.add(unit.getFullName())) {
                continue;
            }
            List<JavaAccess<?>> calls = new ArrayList<>();
            calls.addAll(unit.getMethodCallsFromSelf());
            calls.addAll(unit.getConstructorCallsFromSelf());
            for (JavaAccess<?> call : calls) {
                String target = call.getTargetOwner().getName();
                String name = call.getName();
                String where = owner.getName() + " (static initialisation, line " + call.getLineNumber() + " of "
                        + unit.getOwner().getSimpleName() + "." + unit.getName() + ")";
                if (MACHINE_FACTS.getOrDefault(target, Set.of()).contains(name)) {
                    found.add(where + " reads " + target + "." + name + "() of the build machine");
                } else if (name.equals("<init>")) {
                    held(load(target)).ifPresent(what -> found.add(where + " creates " + what + ": new " + target));
                } else if (call instanceof com.tngtech.archunit.core.domain.JavaMethodCall method) {
                    method.getTarget().resolveMember().ifPresent(m -> {
                        if (!m.getRawReturnType().isPrimitive()) {
                            held(load(m.getRawReturnType().getName()))
                                    .ifPresent(what -> found.add(
                                            where + " obtains " + what + " from " + target + "." + name + "()"));
                        }
                    });
                }
                if (target.startsWith(PROJECT)) {
                    call.getTarget().resolveMember().ifPresent(member -> {
                        if (member instanceof JavaCodeUnit code
                                && code.getModifiers().contains(JavaModifier.STATIC)) {
                            pending.push(code);
                        }
                    });
                }
            }
        }
        return found;
    }

    /** The hazard an object of {@code type} can hold (itself or through its instance fields), if any. */
    static Optional<String> held(Type type) {
        if (type == null) {
            return Optional.empty();
        }
        Deque<Type> pending = new ArrayDeque<>(List.of(type));
        Set<Class<?>> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            Type t = pending.pop();
            if (t instanceof ParameterizedType p) {
                pending.push(p.getRawType());
                if (!p.getRawType().equals(ThreadLocal.class)) {
                    pending.addAll(List.of(p.getActualTypeArguments()));
                }
                continue;
            }
            if (t instanceof GenericArrayType a) {
                pending.push(a.getGenericComponentType());
                continue;
            }
            if (t instanceof WildcardType w) {
                pending.addAll(List.of(w.getUpperBounds()));
                continue;
            }
            if (!(t instanceof Class<?> c) || c.isPrimitive() || !seen.add(c)) {
                continue;
            }
            if (c.isArray()) {
                pending.push(c.getComponentType());
                continue;
            }
            Optional<String> hazard = hazardOf(c);
            if (hazard.isPresent()) {
                return Optional.of(hazard.get() + " (" + c.getName() + ")");
            }
            if (isJdk(c) || c.equals(ThreadLocal.class)) {
                continue; // the JDK's own classes are judged by their type only
            }
            for (Class<?> k = c; k != null && !isJdk(k); k = k.getSuperclass()) {
                Field[] fields;
                try {
                    fields = k.getDeclaredFields();
                } catch (LinkageError e) {
                    continue; // an optional dependency of a library that is not on the class path
                }
                for (Field f : fields) {
                    if (!Modifier.isStatic(f.getModifiers())) {
                        pending.push(f.getGenericType());
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> hazardOf(Class<?> c) {
        for (Map.Entry<String, String> hazard : HAZARD_TYPES.entrySet()) {
            Class<?> hazardType = load(hazard.getKey());
            if (hazardType != null && hazardType.isAssignableFrom(c)) {
                return Optional.of(hazard.getValue());
            }
        }
        return Optional.empty();
    }

    private static boolean isJdk(Class<?> c) {
        String name = c.getName();
        return name.startsWith("java.")
                || name.startsWith("javax.")
                || name.startsWith("jdk.")
                || name.startsWith("sun.")
                || name.startsWith("com.sun.");
    }

    private static Type reflected(JavaClass owner, JavaField field) {
        Class<?> c = load(owner.getName());
        if (c == null) {
            return field.getRawType().reflect();
        }
        try {
            return c.getDeclaredField(field.getName()).getGenericType();
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The class, not initialised (its own static initializer must not run in the check); null if absent. */
    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, BuildTimeInitialisation.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
