import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites every jar of a Quarkus fast-jar directory (target/quarkus-app) with its entries stored
 * rather than deflated: {@code java deploy/build/StoreJars.java <quarkus-app directory>}.
 *
 * <p>Why: a service's start-up on 2 cores is CPU-bound, and Quarkus's class loader reads the bytes
 * of each of the ~14,000 classes it loads from these jars at every start, class-data sharing or
 * not; inflating them cost ~0.1 s of the main thread's CPU (libz in an async-profiler record of
 * records-api's start). Stored, records-api started in ~1.6 s instead of ~1.8 s (alternated
 * starts of both builds on one database, 2 vCPU machine); the directory grows from ~70 to ~180 MB.
 * Quarkus's own {@code quarkus.package.jar.compress=false} stores only the jars it generates,
 * which alone changed nothing measurable.
 *
 * <p>Entries keep their order, names, times, comments and extra fields, and the jar its comment;
 * a signed jar's signatures stay valid (they sign the entries' content, not their compression).
 * A directory that does not exist (a native build makes none) is left alone.
 */
public class StoreJars {
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java StoreJars.java <quarkus-app directory>");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        if (!Files.isDirectory(dir)) {
            System.out.println("StoreJars: no " + dir + ", nothing to do");
            return;
        }
        List<Path> jars;
        try (Stream<Path> files = Files.walk(dir)) {
            jars = files.filter(p -> p.toString().endsWith(".jar") && Files.isRegularFile(p))
                    .collect(Collectors.toList());
        }
        int rewritten = 0;
        for (Path jar : jars) {
            if (store(jar)) {
                rewritten++;
            }
        }
        System.out.printf(
                "StoreJars: %d of %d jars in %s rewritten with stored entries%n", rewritten, jars.size(), dir);
    }

    /** Rewrites one jar with stored entries; false when all of them were stored already. */
    private static boolean store(Path jar) throws IOException {
        Path tmp = jar.resolveSibling(jar.getFileName() + ".storing");
        // ZipFile reads the central directory: the entries' order, comments and the jar's comment,
        // which a ZipInputStream (local headers only) would not see.
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            if (zip.stream().allMatch(e -> e.getMethod() == ZipEntry.STORED)) {
                return false;
            }
            try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(tmp))) {
                out.setMethod(ZipOutputStream.STORED);
                out.setComment(zip.getComment());
                for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                    ZipEntry e = entries.nextElement();
                    byte[] data;
                    try (InputStream in = zip.getInputStream(e)) {
                        data = in.readAllBytes();
                    }
                    out.putNextEntry(stored(e, data));
                    out.write(data);
                    out.closeEntry();
                }
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw new IOException("could not rewrite " + jar + ": " + e.getMessage(), e);
        }
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return true;
    }

    /** The entry as stored: its name, time, comment and extra fields, the data's size and CRC. */
    private static ZipEntry stored(ZipEntry e, byte[] data) {
        ZipEntry copy = new ZipEntry(e.getName());
        copy.setMethod(ZipEntry.STORED);
        copy.setSize(data.length);
        copy.setCompressedSize(data.length);
        CRC32 crc = new CRC32();
        crc.update(data);
        copy.setCrc(crc.getValue());
        copy.setTime(e.getTime());
        copy.setComment(e.getComment());
        copy.setExtra(e.getExtra());
        return copy;
    }

    private StoreJars() {}
}
