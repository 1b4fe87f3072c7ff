package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/build/StoreJars.java, run as the services' build runs it (the JDK's source launcher):
 * every jar of a fast-jar directory comes out with stored entries and the same content.
 */
class StoreJarsTest {
    private static final Path TOOL =
            SotChart.DIRECTORY.resolve("../../build/StoreJars.java").normalize();

    @TempDir
    Path app;

    @Test
    void rewritesEveryJarWithStoredEntriesAndTheSameContent() throws Exception {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put(
                "META-INF/MANIFEST.MF",
                "Manifest-Version: 1.0\nMain-Class: a.Main\n\n".getBytes(StandardCharsets.UTF_8));
        entries.put("a/", new byte[0]);
        entries.put("a/Main.class", "x".repeat(5000).getBytes(StandardCharsets.UTF_8));
        entries.put("a/empty.txt", new byte[0]);
        Path runner = deflatedJar(app.resolve("quarkus-run.jar"), entries);
        Path dependency =
                deflatedJar(Files.createDirectories(app.resolve("lib/main")).resolve("dep.jar"), entries);
        Files.writeString(app.resolve("lib/main/not-a-jar.txt"), "left alone");

        assertEquals(0, run(app), "the tool succeeds");

        for (Path jar : List.of(runner, dependency)) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                List<String> names = new ArrayList<>();
                zip.stream().forEach(e -> {
                    names.add(e.getName());
                    assertEquals(ZipEntry.STORED, e.getMethod(), jar + " " + e.getName() + " is stored");
                });
                assertEquals(List.copyOf(entries.keySet()), names, "the same entries in the same order");
                assertEquals("a class", zip.getEntry("a/Main.class").getComment(), "an entry keeps its comment");
                assertEquals("the jar's comment", zip.getComment(), "the jar keeps its comment");
                for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                    assertArrayEquals(
                            e.getValue(),
                            zip.getInputStream(zip.getEntry(e.getKey())).readAllBytes(),
                            e.getKey());
                }
            }
        }
        assertEquals("left alone", Files.readString(app.resolve("lib/main/not-a-jar.txt")));
        long size = Files.size(dependency);
        assertTrue(size > 5000, "stored, the class takes its full size: " + size);
        try (Stream<Path> files = Files.list(app.resolve("lib/main"))) {
            assertTrue(files.noneMatch(p -> p.toString().endsWith(".storing")), "no temporary file left");
        }

        long modified = Files.getLastModifiedTime(dependency).toMillis();
        Thread.sleep(20);
        assertEquals(0, run(app), "a second run succeeds");
        assertEquals(modified, Files.getLastModifiedTime(dependency).toMillis(), "a stored jar is not rewritten again");
    }

    @Test
    void aMissingDirectoryIsLeftAloneAndNoArgumentIsAnError() throws Exception {
        assertEquals(0, run(app.resolve("quarkus-app")), "a native build makes no fast-jar directory");
        assertEquals(2, run(), "the directory is required");
    }

    private static Path deflatedJar(Path jar, Map<String, byte[]> entries) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar);
                ZipOutputStream out = new ZipOutputStream(file)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                ZipEntry entry = new ZipEntry(e.getKey());
                entry.setComment(e.getKey().endsWith(".class") ? "a class" : null);
                out.putNextEntry(entry);
                out.write(e.getValue());
                out.closeEntry();
            }
            out.setComment("the jar's comment");
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            assertEquals(ZipEntry.DEFLATED, zip.getEntry("a/Main.class").getMethod(), "the input is deflated");
        }
        return jar;
    }

    private static int run(Path... directory) throws Exception {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), TOOL.toString()));
        for (Path d : directory) {
            command.add(d.toString());
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the tool ends: " + output);
        return process.exitValue();
    }
}
