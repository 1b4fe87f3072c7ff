package org.sourceoftruth.records.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SimpleVerifier;

/**
 * What a service hands to its Quarkus templates (Qute's {@code Template.data} and
 * {@code TemplateInstance.data}). Qute reads maps, lists, strings, numbers and booleans by itself;
 * any other object it reads by reflection (Quarkus's ReflectionValueResolver), which works on the
 * JVM and finds nothing in a native executable unless the class is registered or annotated
 * {@code @TemplateData}. The check takes each value's static type from the bytecode (ASM's
 * verifier): a JDK type or a {@code @TemplateData} class is fine; a value typed {@code Object} is
 * what a map or an {@code Optional} of plain data gave, and is taken as plain data.
 */
public final class TemplateData {
    private static final List<String> DATA_METHODS =
            List.of("io/quarkus/qute/Template", "io/quarkus/qute/TemplateInstance");

    private TemplateData() {}

    /** The template data calls in the compiled main classes under {@code classesDirectory} that need reflection. */
    public static List<String> reflectiveValues(Path classesDirectory) {
        List<String> found = new ArrayList<>();
        int calls = 0;
        try (Stream<Path> files = Files.walk(classesDirectory)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                ClassNode node = new ClassNode();
                try (InputStream in = Files.newInputStream(file)) {
                    new ClassReader(in).accept(node, ClassReader.SKIP_FRAMES);
                }
                for (MethodNode method : node.methods) {
                    calls += check(node, method, found);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (calls == 0) {
            found.add("no template data call found under " + classesDirectory + ": the check sees nothing");
        }
        return found;
    }

    /** The main classes directory of the module under test. */
    public static Path mainClasses() {
        return Path.of("target", "classes");
    }

    private static int check(ClassNode owner, MethodNode method, List<String> found) {
        List<Integer> callSites = new ArrayList<>();
        for (int i = 0; i < method.instructions.size(); i++) {
            AbstractInsnNode insn = method.instructions.get(i);
            if (insn instanceof MethodInsnNode call
                    && DATA_METHODS.contains(call.owner)
                    && call.name.equals("data")
                    && call.desc.equals("(Ljava/lang/String;Ljava/lang/Object;)Lio/quarkus/qute/TemplateInstance;")) {
                callSites.add(i);
            }
        }
        if (callSites.isEmpty()) {
            return 0;
        }
        SimpleVerifier verifier = new SimpleVerifier();
        verifier.setClassLoader(TemplateData.class.getClassLoader());
        Frame<BasicValue>[] frames;
        try {
            frames = new Analyzer<>(verifier).analyze(owner.name, method);
        } catch (AnalyzerException e) {
            throw new IllegalStateException(owner.name + "." + method.name + ": " + e.getMessage(), e);
        }
        for (int site : callSites) {
            Frame<BasicValue> frame = frames[site];
            if (frame == null) {
                continue; // unreachable code
            }
            Type type = frame.getStack(frame.getStackSize() - 1).getType();
            if (type == null || needsNoReflection(type)) {
                continue;
            }
            found.add(owner.name.replace('/', '.') + "." + method.name + " hands a " + type.getClassName()
                    + " to a template: Qute reads it by reflection, which a native executable cannot do"
                    + " (pass plain data, or annotate the class @TemplateData)");
        }
        return callSites.size();
    }

    private static boolean needsNoReflection(Type type) {
        if (type.getSort() != Type.OBJECT) {
            return type.getSort() != Type.ARRAY; // primitives (boxed on the way) and null
        }
        String name = type.getClassName();
        if (name.equals("null") || name.startsWith("java.")) {
            return true;
        }
        Class<?> c = JniLibraries.load(name);
        return c != null && c.isAnnotationPresent(io.quarkus.qute.TemplateData.class);
    }
}
