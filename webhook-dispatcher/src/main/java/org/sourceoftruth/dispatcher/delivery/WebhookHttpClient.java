package org.sourceoftruth.dispatcher.delivery;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.template.RenderedRequest;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends webhook requests with java.net.http: asynchronous, with pooled keep-alive connections
 * per TLS setting, one end-to-end time limit per request, redirects followed (as requests does),
 * and only the first KiB of each response body kept.
 */
@ApplicationScoped
public class WebhookHttpClient {

    /** Bytes of the response body kept for the delivery record. */
    public static final int RESPONSE_EXCERPT_BYTES = 1024;

    @Inject
    DispatcherConfig config;

    private HttpClient verifying;
    private HttpClient notVerifying;
    /** One client per CA bundle file, rebuilt when the file changes. */
    private final Map<Path, BundleClient> bundleClients = new ConcurrentHashMap<>();

    private record BundleClient(long modified, HttpClient client) {
    }

    @PostConstruct
    void init() throws GeneralSecurityException {
        verifying = newClient(null);
        notVerifying = newClient(TlsContexts.trustingAnything());
    }

    private HttpClient newClient(SSLContext sslContext) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                // HTTP/1.1 only: no h2c upgrade headers in front of simple receivers
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(config.delivery().timeout());
        if (sslContext != null) {
            builder.sslContext(sslContext);
        }
        return builder.build();
    }

    /** Sends the request; the future always completes normally, with the outcome. */
    public CompletableFuture<AttemptOutcome> send(RenderedRequest request, boolean sslVerification, String caFilePath) {
        Instant started = Instant.now();
        long startNanos = System.nanoTime();
        Duration timeout = config.delivery().timeout();
        HttpClient client;
        HttpRequest httpRequest;
        try {
            client = clientFor(sslVerification, caFilePath);
            HttpRequest.Builder builder = HttpRequest.newBuilder(request.url())
                    .timeout(timeout)
                    // a body is sent even with GET, as NetBox does
                    .method(request.method(), HttpRequest.BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8));
            for (RenderedRequest.Header header : request.headers()) {
                builder.header(header.name(), header.value());
            }
            httpRequest = builder.build();
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new AttemptOutcome(started, 0, null,
                    "request could not be prepared: " + e.getMessage(), null));
        }
        return client.sendAsync(httpRequest, responseInfo -> HttpResponse.BodySubscribers.fromSubscriber(
                        new ExcerptSubscriber(), ExcerptSubscriber::excerpt))
                // covers a body that trickles in after the headers, which the request timeout does not
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((response, failure) -> {
                    long durationMs = (System.nanoTime() - startNanos) / 1_000_000;
                    if (failure != null) {
                        return new AttemptOutcome(started, durationMs, null, describe(failure, request, timeout), null);
                    }
                    int status = response.statusCode();
                    String error = status >= 200 && status < 300 ? null
                            : "receiver answered HTTP " + status;
                    return new AttemptOutcome(started, durationMs, status, error, response.body());
                });
    }

    private HttpClient clientFor(boolean sslVerification, String caFilePath)
            throws IOException, GeneralSecurityException {
        if (!sslVerification) {
            return notVerifying;
        }
        if (caFilePath == null || caFilePath.isBlank()) {
            return verifying;
        }
        Path path = Path.of(caFilePath);
        long modified = Files.getLastModifiedTime(path).toMillis();
        BundleClient cached = bundleClients.get(path);
        if (cached == null || cached.modified() != modified) {
            cached = new BundleClient(modified, newClient(TlsContexts.trustingBundle(path)));
            bundleClients.put(path, cached);
        }
        return cached.client();
    }

    private static String describe(Throwable failure, RenderedRequest request, Duration timeout) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof HttpConnectTimeoutException) {
            return "connection timed out after " + timeout.toMillis() + " ms";
        }
        if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
            return "no complete response within " + timeout.toMillis() + " ms";
        }
        if (cause instanceof ConnectException) {
            return "could not connect to " + request.targetHost()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        }
        if (cause instanceof SSLException) {
            return "TLS error: " + cause.getMessage();
        }
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    /** Keeps the first {@value #RESPONSE_EXCERPT_BYTES} bytes of a body and drains the rest. */
    private static final class ExcerptSubscriber implements Flow.Subscriber<List<ByteBuffer>> {
        private final ByteBuffer kept = ByteBuffer.allocate(RESPONSE_EXCERPT_BYTES);

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                if (kept.hasRemaining()) {
                    ByteBuffer slice = buffer.slice();
                    slice.limit(Math.min(slice.remaining(), kept.remaining()));
                    kept.put(slice);
                }
            }
        }

        @Override
        public void onError(Throwable throwable) {
        }

        @Override
        public void onComplete() {
        }

        String excerpt() {
            ByteBuffer bytes = kept.duplicate().flip();
            try {
                // a multi-byte character cut at the 1 KiB boundary is dropped, not garbled
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.IGNORE)
                        .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(bytes).toString().replace("\u0000", "");
            } catch (java.nio.charset.CharacterCodingException e) {
                return "";
            }
        }
    }
}
