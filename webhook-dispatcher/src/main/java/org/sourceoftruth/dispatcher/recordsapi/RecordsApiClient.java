package org.sourceoftruth.dispatcher.recordsapi;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.model.Json;

/**
 * The dispatcher's calls to records-api's REST API, with the dispatcher's own API token
 * (RECORDS_API_TOKEN). This is the only way the dispatcher learns about webhooks, event rules
 * and who its callers are: it has no access to records-api's tables.
 *
 * <p>RECORDS_API_SERVICE_URL may name several replicas (comma-separated), for where no load
 * balancer stands in front of them: a call goes to the replica that answered last, and to the
 * next one when that one cannot be reached (connection refused or timed out), so one replica's
 * death holds up neither the rules nor the dispatcher's readiness. An answer, even an error, is
 * never retried elsewhere.
 */
@ApplicationScoped
public class RecordsApiClient {

    @Inject
    DispatcherConfig config;

    private volatile HttpClient http;
    /** Index in {@link #bases()} of the replica that answered last. */
    private volatile int current;

    /** Every object of a list endpoint (e.g. {@code /api/extras/webhooks/}), page after page. */
    public List<JsonNode> list(String path) throws RecordsApiException {
        List<JsonNode> all = new ArrayList<>();
        String next = path + (path.contains("?") ? "&" : "?") + "limit=1000";
        while (next != null) {
            JsonNode page = send(HttpRequest.newBuilder().GET(), next)
                    .orElseThrow(() -> new RecordsApiException("records-api has no " + path));
            JsonNode results = page.get("results");
            if (results == null || !results.isArray()) {
                throw new RecordsApiException("records-api answered " + path + " without a results list");
            }
            results.forEach(all::add);
            JsonNode link = page.get("next");
            next = link == null || link.isNull() ? null : pathAndQuery(link.asText());
        }
        return all;
    }

    /** A next link names records-api as it saw the request (a proxy's host, perhaps): only its path and query count. */
    private static String pathAndQuery(String link) throws RecordsApiException {
        try {
            URI uri = URI.create(link);
            return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        } catch (IllegalArgumentException e) {
            throw new RecordsApiException("records-api answered a next link that is not a URL: " + link, e);
        }
    }

    /** One object, e.g. {@code /api/extras/webhooks/3/}; empty when records-api has none (404). */
    public Optional<JsonNode> get(String path) throws RecordsApiException {
        return send(HttpRequest.newBuilder().GET(), path);
    }

    /** A POST whose answer is a JSON object. */
    public JsonNode post(String path, JsonNode body) throws RecordsApiException {
        HttpRequest.Builder request = HttpRequest.newBuilder()
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.toBytes(body)));
        return send(request, path).orElseThrow(() -> new RecordsApiException("records-api has no " + path));
    }

    private Optional<JsonNode> send(HttpRequest.Builder request, String path) throws RecordsApiException {
        String token = config.recordsApi()
                .token()
                .filter(t -> !t.isBlank())
                .orElseThrow(() -> new RecordsApiException(
                        "RECORDS_API_TOKEN is not set: the dispatcher cannot call records-api"));
        request.timeout(config.recordsApi().timeout())
                .header("Authorization", "Token " + token)
                .header("Accept", "application/json");
        List<String> bases = bases();
        int first = current % bases.size();
        HttpResponse<byte[]> response = null;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < bases.size() && response == null; i++) {
            int replica = (first + i) % bases.size();
            try {
                response = client().send(
                                request.uri(uri(bases.get(replica), path)).build(),
                                HttpResponse.BodyHandlers.ofByteArray());
                current = replica;
            } catch (IOException e) {
                failures.add("records-api at " + bases.get(replica) + " does not answer: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RecordsApiException("interrupted while calling records-api", e);
            }
        }
        if (response == null) {
            throw new RecordsApiException(String.join("; ", failures));
        }
        int status = response.statusCode();
        if (status == 404) {
            return Optional.empty();
        }
        if (status != 200) {
            throw new RecordsApiException(
                    "records-api answered " + status + " to " + path + ": " + excerpt(response.body()));
        }
        try {
            return Optional.of(Json.MAPPER.readTree(response.body()));
        } catch (IOException e) {
            throw new RecordsApiException("records-api answered " + path + " with something that is not JSON", e);
        }
    }

    private static URI uri(String base, String path) throws RecordsApiException {
        try {
            return URI.create(base + path);
        } catch (IllegalArgumentException e) {
            throw new RecordsApiException("RECORDS_API_SERVICE_URL holds something that is not a URL: " + base, e);
        }
    }

    /** The replicas' base URLs, without trailing slashes. */
    private List<String> bases() throws RecordsApiException {
        List<String> bases = new ArrayList<>();
        for (String url : config.recordsApi().url().split(",")) {
            if (!url.isBlank()) {
                bases.add(url.strip().replaceAll("/+$", ""));
            }
        }
        if (bases.isEmpty()) {
            throw new RecordsApiException("RECORDS_API_SERVICE_URL is empty");
        }
        return bases;
    }

    private HttpClient client() {
        HttpClient current = http;
        if (current == null) {
            synchronized (this) {
                if (http == null) {
                    http = HttpClient.newBuilder()
                            .connectTimeout(config.recordsApi().timeout())
                            .followRedirects(HttpClient.Redirect.NEVER)
                            .build();
                }
                current = http;
            }
        }
        return current;
    }

    private static String excerpt(byte[] body) {
        String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }
}
