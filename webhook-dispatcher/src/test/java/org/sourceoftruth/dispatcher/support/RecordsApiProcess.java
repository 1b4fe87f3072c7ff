package org.sourceoftruth.dispatcher.support;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged records-api (records-api/target/quarkus-app) as a child process on 127.0.0.1,
 * against the test database, broker and topic, with a superuser of the given name, password and
 * API token. Tests are skipped (not failed) when records-api has not been packaged.
 */
public final class RecordsApiProcess implements AutoCloseable {

    private final Process process;
    private final String url;
    private final Path log;

    private RecordsApiProcess(Process process, String url, Path log) {
        this.process = process;
        this.url = url;
        this.log = log;
    }

    public static RecordsApiProcess start(String superuser, String password, String token) throws IOException {
        Path jar = Path.of("..", "records-api", "target", "quarkus-app", "quarkus-run.jar").toAbsolutePath().normalize();
        Assumptions.assumeTrue(Files.exists(jar), "records-api is not packaged (" + jar + "): run the whole build");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        Path log = Files.createTempFile("records-api-test", ".log");
        ProcessBuilder pb = new ProcessBuilder(javaBin(), "-Xmx256m", "-jar", jar.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.put("HTTP_HOST", "127.0.0.1");
        env.put("HTTP_PORT", String.valueOf(port));
        env.put("DB_NAME", TestDatabase.URL.substring(TestDatabase.URL.lastIndexOf('/') + 1));
        env.put("KAFKA_BOOTSTRAP_SERVERS", TestInfrastructure.BOOTSTRAP);
        env.put("CHANGES_TOPIC", TestInfrastructure.TOPIC);
        env.put("SUPERUSER_NAME", superuser);
        env.put("SUPERUSER_PASSWORD", password);
        env.put("SUPERUSER_API_TOKEN", token);
        RecordsApiProcess started = new RecordsApiProcess(pb.start(), url, log);
        started.awaitReady();
        return started;
    }

    /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
    public String url() {
        return url;
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newHttpClient();
        // generous: the machine running the build may be busy with other builds
        await("records-api ready (log: " + log + ")").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    assertTrue(process.isAlive(), "records-api exited; see " + log);
                    try {
                        return http.send(HttpRequest.newBuilder(URI.create(url + "/q/health/ready")).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    } catch (IOException e) {
                        return false;
                    }
                });
    }

    private static String javaBin() {
        return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }

    @Override
    public void close() {
        process.destroy();
    }
}
