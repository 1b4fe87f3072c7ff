package org.sourceoftruth.records.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;

/**
 * Which package names which table in its SQL text, read from the compiled classes: every string
 * constant of a class (its literals, the recipes of its string concatenations) is searched for
 * the tables the model declarations declare. A table belongs to the package whose {@code *Models}
 * class declares it, or, when a holder class ({@code *Tables}) names it, to the holder's package
 * (the declaration then takes the name from the holder). Any other package must name the table
 * through the owner's holder, a reference ArchUnit sees, and never as text.
 */
final class TableReferences {
    private static final String ROOT = "org.sourceoftruth.records.";
    private static final Pattern WORD = Pattern.compile("[a-z][a-z0-9_]*");

    /** A table named as text by a class of a package that does not own it. */
    record Violation(String pkg, String table, String owner, String className) {
        /** The form the list of references still to move uses: {@code dcim -> ipam_vlan}. */
        String pair() {
            return pkg + " -> " + table;
        }

        @Override
        public String toString() {
            return className + " (" + pkg + ") names " + table + ", owned by " + owner;
        }
    }

    /** Table → top-level package of the {@code *Models} class declaring it (its own table, its join tables). */
    static Map<String, String> declaredTables(Iterable<JavaClass> classes) {
        Map<String, String> out = new TreeMap<>();
        Map<String, String> joins = new TreeMap<>();
        for (JavaClass c : classes) {
            if (!c.isAssignableTo(ModelDefinition.class)
                    || c.isInterface()
                    || c.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.ABSTRACT)) {
                continue;
            }
            String pkg = packageOf(c.getName());
            for (Model m : instantiate(c).models()) {
                out.put(m.table(), pkg);
                for (Field f : m.fields()) {
                    if (f.kind == Kind.M2M && f.joinTable() != null) {
                        joins.putIfAbsent(f.joinTable(), pkg);
                    }
                }
            }
        }
        // A join table belongs to the model declaring the relation, unless it is a model's own table.
        joins.forEach(out::putIfAbsent);
        return out;
    }

    /**
     * The owner of each declared table: the holder class's package when a {@code *Tables} class
     * names it, else the declaring package.
     */
    static Map<String, String> owners(Iterable<JavaClass> classes, Map<String, String> declared) {
        Map<String, String> owners = new TreeMap<>(declared);
        Map<String, Set<String>> holders = new HashMap<>();
        for (JavaClass c : classes) {
            if (c.getSimpleName().endsWith("Tables")) {
                for (String table : tablesNamedBy(c, declared.keySet())) {
                    holders.computeIfAbsent(table, k -> new TreeSet<>()).add(packageOf(c.getName()));
                }
            }
        }
        holders.forEach((table, pkgs) -> {
            if (pkgs.size() > 1) {
                throw new AssertionError(table + " is named by holders of several packages: " + pkgs);
            }
            owners.put(table, pkgs.iterator().next());
        });
        return owners;
    }

    /** Every class of {@code scanned} naming, as text, a table another package owns. */
    static List<Violation> violations(Iterable<JavaClass> scanned, Map<String, String> owners) {
        List<Violation> out = new ArrayList<>();
        for (JavaClass c : scanned) {
            String pkg = packageOf(c.getName());
            for (String table : tablesNamedBy(c, owners.keySet())) {
                String owner = owners.get(table);
                if (!owner.equals(pkg)) {
                    out.add(new Violation(pkg, table, owner, c.getName()));
                }
            }
        }
        return out;
    }

    /** The declared tables that occur as words in the class's string constants. */
    static Set<String> tablesNamedBy(JavaClass c, Set<String> tables) {
        Set<String> out = new TreeSet<>();
        for (String s : stringConstants(c)) {
            Matcher m = WORD.matcher(s);
            while (m.find()) {
                if (tables.contains(m.group())) {
                    out.add(m.group());
                }
            }
        }
        return out;
    }

    static String packageOf(String className) {
        String rest = className.substring(ROOT.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? "" : rest.substring(0, dot);
    }

    /**
     * The definition made outside CDI, its injected beans made the same way, so that
     * {@code models()} can build declarations whose hooks close over them (none is called).
     */
    private static ModelDefinition instantiate(JavaClass c) {
        try {
            return (ModelDefinition) withInjectedFields(Class.forName(c.getName()), 0);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot declare the models of " + c.getName(), e);
        }
    }

    private static Object withInjectedFields(Class<?> type, int depth) throws ReflectiveOperationException {
        var constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        Object bean = constructor.newInstance();
        for (Class<?> k = type; k != null && k != Object.class; k = k.getSuperclass()) {
            for (java.lang.reflect.Field f : k.getDeclaredFields()) {
                Class<?> t = f.getType();
                if (f.isAnnotationPresent(jakarta.inject.Inject.class) && depth < 3) {
                    f.setAccessible(true);
                    try {
                        f.set(bean, t.isInterface() ? defaults(t) : withInjectedFields(t, depth + 1));
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        // a bean that cannot be made outside CDI stays null
                    }
                }
            }
        }
        return bean;
    }

    /** An interface (a configuration mapping) answering every call with a default value. */
    private static Object defaults(Class<?> type) {
        return java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, args) -> {
            Class<?> r = m.getReturnType();
            if (r == boolean.class) {
                return false;
            } else if (r == int.class || r == long.class) {
                return r == int.class ? (Object) 0 : (Object) 0L;
            } else if (r == java.util.Optional.class) {
                return java.util.Optional.empty();
            } else if (r == List.class) {
                return List.of();
            }
            return null;
        });
    }

    /** The CONSTANT_String entries of the class file's constant pool (JVMS 4.4). */
    static List<String> stringConstants(JavaClass c) {
        String resource = "/" + c.getName().replace('.', '/') + ".class";
        try (InputStream raw = TableReferences.class.getResourceAsStream(resource)) {
            if (raw == null) {
                throw new AssertionError("no class file for " + c.getName());
            }
            DataInputStream in = new DataInputStream(raw);
            in.readInt();
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> strings = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 8 -> strings.add(in.readUnsignedShort());
                    case 7, 16, 19, 20 -> in.readUnsignedShort();
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++;
                    }
                    default -> throw new AssertionError("constant pool tag " + tag + " in " + c.getName());
                }
            }
            return strings.stream().map(i -> utf8[i]).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private TableReferences() {}
}
