package org.sourceoftruth.dispatcher.support;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * The packaged dispatcher (target/quarkus-app, set by failsafe) as a child process on 127.0.0.1,
 * for the ITs that kill or starve it: the test database as the dispatcher's own role, the given
 * topic and records-api, fast retries.
 */
public final class DispatcherProcess {

    /** The management port (health, metrics) of each started process, by its HTTP port. */
    private static final Map<Integer, Integer> MANAGEMENT_PORTS = new ConcurrentHashMap<>();

    private DispatcherProcess() {}

    /** Starts it; its output goes to target/&lt;logName&gt;.log. */
    public static Process start(int port, String topic, String recordsApiUrl, String logName) throws IOException {
        return start(port, topic, recordsApiUrl, logName, List.of("-Xmx256m"), Map.of());
    }

    /** As {@link #start(int, String, String, String)}, with these JVM options (the heap, the collector...). */
    public static Process start(int port, String topic, String recordsApiUrl, String logName, List<String> jvm)
            throws IOException {
        return start(port, topic, recordsApiUrl, logName, jvm, Map.of());
    }

    /** Starts it with more (or other) environment variables. */
    public static Process start(
            int port, String topic, String recordsApiUrl, String logName, Map<String, String> environment)
            throws IOException {
        return start(port, topic, recordsApiUrl, logName, List.of("-Xmx256m"), environment);
    }

    /** Starts it with these JVM options and more (or other) environment variables. */
    public static Process start(
            int port,
            String topic,
            String recordsApiUrl,
            String logName,
            List<String> jvm,
            Map<String, String> environment)
            throws IOException {
        Path jar = Path.of(System.getProperty("dispatcher.app.dir", "target/quarkus-app"))
                .resolve("quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException("package the application first: " + jar);
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new java.util.ArrayList<>();
        command.add(java);
        command.addAll(jvm);
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment()
                .putAll(Map.ofEntries(
                        Map.entry("HTTP_HOST", "127.0.0.1"),
                        Map.entry("HTTP_PORT", String.valueOf(port)),
                        Map.entry("MANAGEMENT_HOST", "127.0.0.1"),
                        Map.entry(
                                "MANAGEMENT_PORT",
                                String.valueOf(
                                        MANAGEMENT_PORTS.computeIfAbsent(port, p -> RecordsApiProcess.freePort()))),
                        Map.entry("DB_NAME", TestDatabase.NAME),
                        Map.entry("DB_USER", TestDatabase.DISPATCHER_USER),
                        Map.entry("DB_PASSWORD", TestDatabase.DISPATCHER_PASSWORD),
                        Map.entry("RECORDS_API_SERVICE_URL", recordsApiUrl),
                        Map.entry("RECORDS_API_TOKEN", TestInfrastructure.SERVICE_TOKEN),
                        Map.entry("KAFKA_BOOTSTRAP_SERVERS", TestInfrastructure.BOOTSTRAP),
                        Map.entry("CHANGES_TOPIC", topic),
                        Map.entry("KAFKA_CONSUMER_GROUP", topic + "-group"),
                        Map.entry("WEBHOOK_TIMEOUT_SECONDS", "2"),
                        Map.entry("WEBHOOK_LEASE_MARGIN_SECONDS", "2"),
                        Map.entry("WEBHOOK_RETRY_BASE_SECONDS", "0.2"),
                        Map.entry("WEBHOOK_POLL_INTERVAL", "200ms")));
        builder.environment().putAll(environment);
        builder.redirectErrorStream(true).redirectOutput(new File("target/" + logName + ".log"));
        return builder.start();
    }

    /**
     * The status and body of one of its health endpoints (on its management port); null while it
     * does not listen. port: its HTTP port, as given to start.
     */
    public static HttpResponse<String> health(int port, String path) {
        Integer management = MANAGEMENT_PORTS.get(port);
        if (management == null) {
            throw new IllegalStateException("no dispatcher was started on port " + port);
        }
        try {
            return HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + management + path))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    public static void awaitReady(int port) {
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    HttpResponse<String> ready = health(port, "/q/health/ready");
                    return ready != null && ready.statusCode() == 200;
                });
    }
}
