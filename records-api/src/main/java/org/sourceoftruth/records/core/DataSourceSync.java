package org.sourceoftruth.records.core;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;

/**
 * Synchronises a data source into data files (NetBox's DataSource.sync() with its LocalBackend):
 * every regular file under the source's directory, hidden files and directories and files
 * matching an ignore rule (one glob per line, on the file name) left out, becomes a data file
 * with its relative path, size, SHA-256 and content; files that changed are updated, vanished
 * ones deleted. Each run is a job (core/jobs, "Synchronization") with its outcome.
 *
 * <p>It runs in the request that asks for it and is bounded ({@link #MAX_FILES} files of at most
 * {@link #MAX_FILE_BYTES} each): no job queue exists here to defer it to. As in NetBox, data
 * files and the source's status are system bookkeeping, written without change records.
 */
@ApplicationScoped
public class DataSourceSync {
    static final int MAX_FILES = 10_000;
    static final long MAX_FILE_BYTES = 10L * 1024 * 1024;

    @Inject
    AgroalDataSource dataSource;

    /** What a sync did: the job's status and error. */
    public record Outcome(String status, String error) {}

    @Transactional
    public Outcome sync(long sourceId, Long userId) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            Row source = db.query("select * from core_datasource where id = ? for update", sourceId)
                    .get(0);
            UUID jobId = UUID.randomUUID();
            db.update(
                    "insert into core_job (object_type, object_id, name, status, started, user_id, job_id)"
                            + " values ('core.datasource', ?, 'Synchronization', 'running', now(), ?, ?)",
                    sourceId,
                    userId,
                    jobId);
            Outcome outcome;
            try {
                int files = syncFiles(db, source);
                outcome = new Outcome("completed", "");
                db.update(
                        "update core_datasource set status = 'completed', last_synced = now() where id = ?", sourceId);
                db.update("update core_job set data = ?::jsonb where job_id = ?", "{\"files\": " + files + "}", jobId);
            } catch (SyncFailure e) {
                outcome = new Outcome("errored", e.getMessage());
                db.update("update core_datasource set status = 'failed' where id = ?", sourceId);
            }
            db.update(
                    "update core_job set status = ?, error = ?, completed = now() where job_id = ?",
                    outcome.status(),
                    outcome.error(),
                    jobId);
            return outcome;
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private int syncFiles(Db db, Row source) throws SyncFailure {
        if (!"local".equals(source.str("type"))) {
            throw new SyncFailure("Synchronising " + source.str("type") + " data sources is not supported here; only"
                    + " local ones are.");
        }
        Path root = localPath(source.str("source_url"));
        Map<String, String> known = new HashMap<>();
        for (Row r : db.query("select path, hash from core_datafile where source_id = ?", source.id())) {
            known.put(r.str("path"), r.str("hash"));
        }
        List<PathMatcher> ignored = ignoreRules(source.str("ignore_rules"));
        List<Path> files = files(root, ignored);
        for (Path file : files) {
            String relative = root.relativize(file).toString().replace('\\', '/');
            byte[] data = read(file);
            String hash = sha256(data);
            if (hash.equals(known.remove(relative))) {
                continue;
            }
            db.update(
                    "insert into core_datafile (source_id, path, size, hash, data) values (?, ?, ?, ?, ?)"
                            + " on conflict (source_id, path) do update set size = excluded.size, hash = excluded.hash,"
                            + " data = excluded.data, last_updated = now()",
                    source.id(),
                    relative,
                    data.length,
                    hash,
                    data);
        }
        if (!known.isEmpty()) {
            db.update(
                    "delete from core_datafile where source_id = ? and path = any(?)",
                    source.id(),
                    new Db.SqlArray("text", known.keySet()));
        }
        return files.size();
    }

    /** A local source's directory: a plain path or a file:// URL naming an existing directory. */
    private static Path localPath(String url) throws SyncFailure {
        Path path;
        try {
            path = url.startsWith("file:") ? Path.of(URI.create(url)) : Path.of(url);
        } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            throw new SyncFailure("Invalid source URL: " + url);
        }
        if (!Files.isDirectory(path)) {
            throw new SyncFailure("Source directory not found: " + path);
        }
        return path;
    }

    private static List<PathMatcher> ignoreRules(String rules) {
        List<PathMatcher> out = new ArrayList<>();
        if (rules == null) {
            return out;
        }
        for (String line : rules.split("\\R")) {
            String rule = line.trim();
            if (!rule.isEmpty() && !rule.startsWith("#")) {
                try {
                    out.add(FileSystems.getDefault().getPathMatcher("glob:" + rule));
                } catch (IllegalArgumentException e) {
                    // a rule that is no valid glob matches nothing
                }
            }
        }
        return out;
    }

    /** Regular files below root (no symbolic links followed), hidden and ignored ones left out. */
    private static List<Path> files(Path root, List<PathMatcher> ignored) throws SyncFailure {
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> out = walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> !hidden(root, p))
                    .filter(p -> ignored.stream().noneMatch(m -> m.matches(p.getFileName())))
                    .sorted()
                    .limit(MAX_FILES + 1L)
                    .toList();
            if (out.size() > MAX_FILES) {
                throw new SyncFailure("The source holds more than " + MAX_FILES + " files.");
            }
            return out;
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new SyncFailure("Cannot read the source directory: " + e.getMessage());
        }
    }

    private static boolean hidden(Path root, Path file) {
        for (Path part : root.relativize(file)) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static byte[] read(Path file) throws SyncFailure {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] data = in.readNBytes((int) MAX_FILE_BYTES + 1);
            if (data.length > MAX_FILE_BYTES) {
                throw new SyncFailure("File too large (more than " + MAX_FILE_BYTES + " bytes): " + file.getFileName());
            }
            return data;
        } catch (IOException e) {
            throw new SyncFailure("Cannot read " + file.getFileName() + ": " + e.getMessage());
        }
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Why a sync failed; recorded on its job. */
    static final class SyncFailure extends Exception {
        SyncFailure(String message) {
            super(message);
        }
    }
}
