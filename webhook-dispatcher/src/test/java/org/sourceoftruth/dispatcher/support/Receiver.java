package org.sourceoftruth.dispatcher.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/** A real HTTP receiver on 127.0.0.1 that records requests and answers as told. */
public final class Receiver implements AutoCloseable {

    /** One received request; header names lower-cased. */
    public record Received(String method, String path, Map<String, String> headers, byte[] body, Instant at) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final HttpServer server;
    private final String scheme;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile long delayMillis;
    /** When set, decides each answer's status (and delay) from the request instead. */
    private volatile java.util.function.ToIntFunction<Received> statusOf;

    private volatile java.util.function.ToLongFunction<Received> delayOf;
    private volatile String answerBody;
    private volatile String location;

    private Receiver(SSLContext tls) throws IOException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls == null) {
            server = HttpServer.create(address, 0);
        } else {
            HttpsServer https = HttpsServer.create(address, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        }
        this.scheme = tls == null ? "http" : "https";
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static Receiver start() throws IOException {
        return new Receiver(null);
    }

    /** An HTTPS receiver presenting the certificate of the given context. */
    public static Receiver startTls(SSLContext tls) throws IOException {
        return new Receiver(tls);
    }

    public Receiver answering(int status) {
        this.status = status;
        return this;
    }

    /** Answers with this body instead of "answer <status>". */
    public Receiver answeringBody(String body) {
        this.answerBody = body;
        return this;
    }

    /** Answers every request with a redirect to {@code location}. */
    public Receiver redirecting(int status, String location) {
        this.status = status;
        this.location = location;
        return this;
    }

    /** Answers each request with the status the function gives for it. */
    public Receiver answering(java.util.function.ToIntFunction<Received> statusOf) {
        this.statusOf = statusOf;
        return this;
    }

    /** Delays each answer by the milliseconds the function gives for the request. */
    public Receiver delaying(java.util.function.ToLongFunction<Received> delayOf) {
        this.delayOf = delayOf;
        return this;
    }

    public Receiver delaying(long millis) {
        this.delayMillis = millis;
        return this;
    }

    public String url(String path) {
        return scheme + "://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    private void handle(HttpExchange exchange) throws IOException {
        Instant arrived = Instant.now();
        byte[] body = exchange.getRequestBody().readAllBytes();
        Map<String, String> headers = new TreeMap<>();
        exchange.getRequestHeaders()
                .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
        Received request = new Received(
                exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers, body, arrived);
        java.util.function.ToLongFunction<Received> delayFunction = delayOf;
        long delay = delayFunction != null ? delayFunction.applyAsLong(request) : delayMillis;
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        received.add(request);
        java.util.function.ToIntFunction<Received> statusFunction = statusOf;
        int code = statusFunction != null ? statusFunction.applyAsInt(request) : status;
        byte[] answer = (answerBody != null ? answerBody : "answer " + code).getBytes(StandardCharsets.UTF_8);
        if (location != null) {
            exchange.getResponseHeaders().set("Location", location);
        }
        if (code == 204) {
            exchange.sendResponseHeaders(204, -1);
        } else {
            exchange.sendResponseHeaders(code, answer.length);
            exchange.getResponseBody().write(answer);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
