package org.sourceoftruth.records.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Writes the packaged records-api's /api/schema/ (JSON) to a file: the build-time input of
 * openapi-client-test, which generates a client from it. Runs the packaged service (the reactor's
 * records-api/target/quarkus-app) on a free port against TEST_DB_NAME (default sot_test) on
 * DB_HOST, without its outbox relay, and stops it again.
 *
 * <p>Usage: {@code OpenApiDocumentFetch <output file>}.
 */
public final class OpenApiDocumentFetch {
    private OpenApiDocumentFetch() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: OpenApiDocumentFetch <output file>");
        }
        Path jar = RecordsApiProcess.packagedJar();
        if (!Files.exists(jar)) {
            throw new IllegalStateException("records-api is not packaged (" + jar + "): build it first"
                    + " (mvn verify or package from the repository root)");
        }
        String database = System.getenv().getOrDefault("TEST_DB_NAME", "sot_test");
        try (RecordsApiProcess api = RecordsApiProcess.launcher()
                .name("records-api-openapi")
                .database(database.isBlank() ? "sot_test" : database)
                .property("sot.outbox.enabled", "false") // nothing to publish: only the document is read
                .start()) {
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(api.url() + "/api/schema/?format=json"))
                            .timeout(Duration.ofSeconds(60))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("/api/schema/ answered " + response.statusCode() + ": " + api.tail());
            }
            Path out = Path.of(args[0]).toAbsolutePath();
            Files.createDirectories(out.getParent());
            Files.writeString(out, response.body());
            System.out.println("OpenAPI document of the packaged records-api written to " + out);
        }
    }
}
