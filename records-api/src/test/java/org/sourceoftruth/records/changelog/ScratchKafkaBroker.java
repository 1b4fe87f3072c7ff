package org.sourceoftruth.records.changelog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft Kafka broker of the test's own, in a separate JVM, so that a test can kill
 * it (SIGKILL, no clean shutdown) and start it again on the same storage. It runs the Kafka
 * distribution's jars from {@link #libs()}; listens on 127.0.0.1 only.
 */
final class ScratchKafkaBroker implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final Path libs;
    private final Path directory;
    private final Path properties;
    private final int port;
    private final Thread reaper = new Thread(this::killQuietly, "scratch-kafka-reaper");
    private Process process;

    private ScratchKafkaBroker(Path libs, int port) throws IOException {
        this.libs = libs;
        this.port = port;
        this.directory = Files.createTempDirectory("scratch-kafka-");
        this.properties = directory.resolve("server.properties");
        Files.writeString(
                properties,
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@127.0.0.1:" + (port + 1),
                        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + (port + 1),
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                        "controller.listener.names=CONTROLLER",
                        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                        "log.dirs=" + directory.resolve("data"),
                        "num.partitions=3",
                        "offsets.topic.replication.factor=1",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "group.initial.rebalance.delay.ms=0",
                        ""));
        Runtime.getRuntime().addShutdownHook(reaper); // never outlive the test JVM
    }

    /**
     * The Kafka jars: KAFKA_LIBS (environment) or kafka.libs (system property), else
     * {@code <repository>/.local/kafka/libs}, where deploy/local/stack puts them.
     */
    static Path libs() {
        String configured = System.getenv("KAFKA_LIBS");
        if (configured == null || configured.isBlank()) {
            configured = System.getProperty("kafka.libs");
        }
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Path directory = Path.of("").toAbsolutePath();
        while (directory != null && !Files.isDirectory(directory.resolve("records-api"))) {
            directory = directory.getParent();
        }
        return (directory == null ? Path.of("") : directory).resolve(".local/kafka/libs");
    }

    /** System property holding the port picked for this test JVM (JVM-wide: Quarkus loads test
     * classes, profiles included, in more than one class loader, so no static field would do). */
    private static final String PICKED_PORT = "sot.scratch-kafka.port";

    /**
     * Broker port: SCRATCH_KAFKA_PORT, else a free pair picked once per test JVM (a fixed port
     * would let two test runs on one machine meet: one run's broker answering for the other's
     * while that one is "down"); the controller listens on the next port.
     */
    static int port() {
        synchronized (System.class) {
            String picked = System.getProperty(PICKED_PORT);
            if (picked == null) {
                try {
                    picked = String.valueOf(freePortPair());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                System.setProperty(PICKED_PORT, picked);
            }
            return Integer.parseInt(picked);
        }
    }

    static String bootstrapServers() {
        return "127.0.0.1:" + port();
    }

    /** SCRATCH_KAFKA_PORT if set, else a free port whose successor is free too (for the controller). */
    static int freePortPair() throws IOException {
        String configured = System.getenv("SCRATCH_KAFKA_PORT");
        if (configured != null && !configured.isBlank()) {
            return Integer.parseInt(configured);
        }
        // Below Linux's ephemeral range (32768-60999 by default): a port the kernel handed out as
        // free (ServerSocket(0)) could be taken by any outgoing connection of the test JVM before
        // the broker binds it, which happened in a full run ("Address already in use").
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 20_000 + 2 * random.nextInt(6_000);
            if (!listening(port) && !listening(port + 1)) {
                try (ServerSocket first = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress());
                        ServerSocket next = new ServerSocket(port + 1, 1, java.net.InetAddress.getLoopbackAddress())) {
                    return port;
                } catch (IOException taken) {
                    // try another
                }
            }
        }
        throw new IllegalStateException("no free pair of ports");
    }

    /** This broker's address, 127.0.0.1:port. */
    String address() {
        return "127.0.0.1:" + port;
    }

    /** Formats fresh storage and starts the broker on {@link #port()}; fails if its ports are taken. */
    static ScratchKafkaBroker start(Path libs) throws Exception {
        return start(libs, port());
    }

    /** Formats fresh storage and starts the broker on the given port (and the next one); fails if taken. */
    static ScratchKafkaBroker start(Path libs, int port) throws Exception {
        for (int used : List.of(port, port + 1)) {
            if (listening(used)) {
                throw new IllegalStateException("port " + used + " is in use; set SCRATCH_KAFKA_PORT to a free pair");
            }
        }
        ScratchKafkaBroker broker = new ScratchKafkaBroker(libs, port);
        broker.format();
        broker.launch();
        return broker;
    }

    /** SIGKILL: the broker gets no chance to flush or to close anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("broker did not die");
        }
    }

    /** Starts the broker again on the storage it had. */
    void restart() throws Exception {
        launch();
    }

    @Override
    public void close() {
        killQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or ran
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void format() throws Exception {
        Process format = java(
                        "kafka.tools.StorageTool",
                        "format",
                        "-t",
                        Uuid.randomUuid().toString(),
                        "-c",
                        properties.toString())
                .redirectOutput(directory.resolve("format.log").toFile())
                .redirectErrorStream(true)
                .start();
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("formatting Kafka storage failed: " + log("format.log"));
        }
    }

    private void launch() throws Exception {
        process = java("-Xmx256m", "kafka.Kafka", properties.toString())
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        directory.resolve("broker.log").toFile()))
                .redirectErrorStream(true)
                .start();
        awaitReady();
    }

    private ProcessBuilder java(String... arguments) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                libs.toAbsolutePath() + "/*"));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).directory(directory.toFile());
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                address(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                2_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                2_000))) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("broker exited: " + log("broker.log"));
                }
                try {
                    if (!admin.describeCluster()
                            .nodes()
                            .get(2, TimeUnit.SECONDS)
                            .isEmpty()) {
                        return;
                    }
                } catch (Exception notYet) {
                    // still starting
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broker not ready in " + READY_TIMEOUT + ": " + log("broker.log"));
                }
                Thread.sleep(200);
            }
        }
    }

    private void killQuietly() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private String log(String name) {
        try {
            String text = Files.readString(directory.resolve(name));
            return text.length() > 2_000 ? text.substring(text.length() - 2_000) : text;
        } catch (IOException e) {
            return "(no " + name + ")";
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
