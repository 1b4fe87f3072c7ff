package org.sourceoftruth.records.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The packaged records-api (records-api/target/quarkus-app/quarkus-run.jar) as a child process on
 * 127.0.0.1, for tests of records-api itself (failsafe ITs) and of webhook-dispatcher, which gets
 * this class through records-api's test-jar. A {@link Launcher} holds the settings (database,
 * broker, topic, superuser, port, extra JVM settings) and can start the same service again after a
 * test has killed it. Every process started here is killed when the test JVM exits, whatever
 * happens; tests are skipped (not failed) when records-api has not been packaged.
 */
public final class RecordsApiProcess implements AutoCloseable {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(() -> LIVE.forEach(Process::destroyForcibly), "records-api-process-reaper"));
    }

    private final Process process;
    private final String url;
    private final String managementUrl;
    private final Path log;

    private RecordsApiProcess(Process process, String url, String managementUrl, Path log) {
        this.process = process;
        this.url = url;
        this.managementUrl = managementUrl;
        this.log = log;
    }

    /** Settings of a records-api child process; {@link #start()} may be called again after a kill. */
    public static Launcher launcher() {
        return new Launcher();
    }

    /**
     * quarkus-run.jar: system property {@code records-api.app.dir} (records-api's failsafe sets
     * it), else records-api/target/quarkus-app next to the working directory (a module of this
     * repository), else target/quarkus-app.
     */
    public static Path packagedJar() {
        String configured = System.getProperty("records-api.app.dir");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured, "quarkus-run.jar").toAbsolutePath().normalize();
        }
        Path sibling = Path.of("..", "records-api", "target", "quarkus-app", "quarkus-run.jar")
                .toAbsolutePath()
                .normalize();
        return Files.exists(sibling)
                ? sibling
                : Path.of("target", "quarkus-app", "quarkus-run.jar")
                        .toAbsolutePath()
                        .normalize();
    }

    /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
    /** The management interface (/q/health/*, /q/metrics), on a port of its own. */
    public String managementUrl() {
        return managementUrl;
    }

    public String url() {
        return url;
    }

    public Path log() {
        return log;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hooks, no relay stop, connections simply drop. Waits for the exit. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("records-api (pid " + process.pid() + ") did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            LIVE.remove(process);
        }
    }

    /** SIGTERM (a clean shutdown), then SIGKILL if it has not ended within 30 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            LIVE.remove(process);
        }
    }

    /** What to start: the same launcher starts the same service (same port) each time. */
    public static final class Launcher {
        private final Map<String, String> env = new LinkedHashMap<>();
        private final Map<String, String> systemProperties = new LinkedHashMap<>();
        private int port;
        private int managementPort;
        private List<String> jvmOptions = List.of("-Xmx256m");
        private Duration readyTimeout = Duration.ofSeconds(180); // generous: the machine may be busy
        private String name = "records-api";

        private Launcher() {
            env.put("HTTP_HOST", "127.0.0.1");
            env.put("LOG_JSON", "false");
        }

        /** Database name on DB_HOST:DB_PORT (the environment's, else 127.0.0.1:5432). */
        public Launcher database(String name) {
            return env("DB_NAME", name);
        }

        public Launcher kafka(String bootstrapServers, String topic) {
            env("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
            return env("CHANGES_TOPIC", topic);
        }

        public Launcher superuser(String name, String password, String apiToken) {
            env("SUPERUSER_NAME", name);
            env("SUPERUSER_PASSWORD", password);
            return env("SUPERUSER_API_TOKEN", apiToken);
        }

        public Launcher env(String name, String value) {
            env.put(name, value);
            return this;
        }

        /** A configuration property given as -D (e.g. kafka.* producer settings, sot.outbox.*). */
        public Launcher property(String name, String value) {
            systemProperties.put(name, value);
            return this;
        }

        /** The HTTP port (default: a free one, chosen at the first start), e.g. to name it before it runs. */
        public Launcher port(int port) {
            this.port = port;
            return this;
        }

        /** Name of the log file's prefix, to tell several processes apart. */
        public Launcher name(String name) {
            this.name = name;
            return this;
        }

        /** The JVM's options (default -Xmx256m), e.g. the heap and collector the stack runs it with. */
        public Launcher jvm(String... options) {
            this.jvmOptions = List.of(options);
            return this;
        }

        public Launcher readyTimeout(Duration timeout) {
            this.readyTimeout = timeout;
            return this;
        }

        /** Starts the process and waits until /q/health/ready answers 200. */
        public RecordsApiProcess start() throws IOException {
            Path jar = packagedJar();
            Assumptions.assumeTrue(Files.exists(jar), "records-api is not packaged (" + jar + "): run the whole build");
            if (port == 0) {
                port = freePort();
            }
            if (managementPort == 0) {
                managementPort = freePort();
            }
            List<String> command = new ArrayList<>(List.of(javaBin()));
            command.addAll(jvmOptions);
            systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
            command.addAll(List.of("-jar", jar.toString()));
            Path log = Files.createTempFile(name + "-", ".log");
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(env);
            builder.environment().put("HTTP_PORT", String.valueOf(port));
            builder.environment().put("MANAGEMENT_PORT", String.valueOf(managementPort));
            builder.environment().put("MANAGEMENT_HOST", "127.0.0.1");
            Process process = builder.start();
            LIVE.add(process);
            RecordsApiProcess started = new RecordsApiProcess(
                    process, "http://127.0.0.1:" + port, "http://127.0.0.1:" + managementPort, log);
            try {
                started.awaitReady(readyTimeout);
            } catch (RuntimeException | Error e) {
                started.kill();
                throw e;
            }
            return started;
        }
    }

    private void awaitReady(Duration timeout) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(managementUrl + "/q/health/ready"))
                .timeout(Duration.ofSeconds(5))
                .build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("records-api exited (" + process.exitValue() + "): " + tail());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for records-api", e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("records-api not ready in " + timeout + ": " + tail());
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for records-api", e);
            }
        }
    }

    /** The end of the log, for failure messages. */
    public String tail() {
        try {
            String text = Files.readString(log);
            return "(" + log + ")\n" + (text.length() > 3_000 ? text.substring(text.length() - 3_000) : text);
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String javaBin() {
        return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }
}
