package org.sourceoftruth.records.testsupport;

import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.ReferencedClassObject;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The project classes Jackson binds by reflection, found in the compiled code, for the check
 * that a service's native-image registration is complete (a class Jackson reaches by reflection
 * and nobody registered works on the JVM and fails only in the native executable):
 * <ul>
 *   <li>classes carrying a Jackson annotation (on the class, a field, a method or a constructor);</li>
 *   <li>class literals in a method that calls an ObjectMapper/ObjectReader read or convert method
 *       or the shared {@code Json.fromBytes} ({@code readValue(bytes, ChangeEvent.class)});</li>
 *   <li>project types in the type arguments of a {@code TypeReference};</li>
 *   <li>and, transitively, the project types of the instance fields of all of these.</li>
 * </ul>
 * JSON trees ({@code JsonNode}) need no registration and are not project classes.
 */
public final class JacksonBoundTypes {
    private static final String PROJECT = "org.sourceoftruth.";
    private static final Set<String> READERS = Set.of(
            "com.fasterxml.jackson.databind.ObjectMapper",
            "com.fasterxml.jackson.databind.ObjectReader",
            "org.sourceoftruth.model.Json");

    private JacksonBoundTypes() {}

    /** Names of the Jackson-bound project classes in {@code packages} (main code only). */
    public static Set<String> in(String... packages) {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages(packages);
        Deque<JavaClass> found = new ArrayDeque<>();
        for (JavaClass c : classes) {
            if (annotatedForJackson(c)) {
                found.add(c);
            }
            c.getSuperclass()
                    .filter(s -> s.toErasure().getName().equals("com.fasterxml.jackson.core.type.TypeReference"))
                    .ifPresent(s -> s.getAllInvolvedRawTypes().forEach(found::add));
            for (JavaCodeUnit unit : c.getCodeUnits()) {
                if (readsWithJackson(unit)) {
                    unit.getReferencedClassObjects().stream()
                            .map(ReferencedClassObject::getRawType)
                            .forEach(found::add);
                }
            }
        }
        Set<String> bound = new TreeSet<>();
        while (!found.isEmpty()) {
            JavaClass c = found.pop();
            if (!c.getName().startsWith(PROJECT) || !bound.add(c.getName())) {
                continue;
            }
            for (JavaField f : c.getFields()) {
                if (!f.getModifiers().contains(JavaModifier.STATIC)) {
                    f.getType().getAllInvolvedRawTypes().forEach(found::add);
                }
            }
        }
        return bound;
    }

    /** The class names a {@code @RegisterForReflection(targets = ...)} class registers. */
    public static Set<String> registeredBy(Class<?> registration) {
        RegisterForReflection r = registration.getAnnotation(RegisterForReflection.class);
        Set<String> names = new TreeSet<>();
        Arrays.stream(r.targets()).map(Class::getName).forEach(names::add);
        return names;
    }

    private static boolean annotatedForJackson(JavaClass c) {
        Stream<JavaAnnotation<?>> annotations = Stream.of(
                        c.getAnnotations().stream(),
                        c.getFields().stream().flatMap(f -> f.getAnnotations().stream()),
                        c.getCodeUnits().stream().flatMap(u -> u.getAnnotations().stream()),
                        c.getCodeUnits().stream()
                                .flatMap(u -> u.getParameterAnnotations().stream())
                                .flatMap(Set::stream))
                .flatMap(s -> s.map(a -> (JavaAnnotation<?>) a));
        return annotations.anyMatch(a -> a.getRawType().getPackageName().equals("com.fasterxml.jackson.annotation")
                || a.getRawType().getPackageName().equals("com.fasterxml.jackson.databind.annotation"));
    }

    private static boolean readsWithJackson(JavaCodeUnit unit) {
        for (JavaMethodCall call : unit.getMethodCallsFromSelf()) {
            String owner = call.getTargetOwner().getName();
            String name = call.getName();
            if (READERS.contains(owner)
                    && (name.startsWith("read")
                            || name.startsWith("convert")
                            || name.equals("treeToValue")
                            || name.equals("fromBytes"))) {
                return true;
            }
        }
        return false;
    }
}
