package org.sourceoftruth.dispatcher.tools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local receiver for troubleshooting webhooks, like NetBox's {@code manage.py webhook_receiver}:
 * prints each request (method, path, headers, body) and answers 200. Listens on 127.0.0.1 only.
 *
 * <pre>java -cp webhook-dispatcher/target/classes org.sourceoftruth.dispatcher.tools.WebhookListener [port]</pre>
 */
public final class WebhookListener {

    public static final int DEFAULT_PORT = 9000;

    private WebhookListener() {}

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_PORT;
        HttpServer server = start(port, System.out);
        System.out.println("Listening for webhooks on http://127.0.0.1:"
                + server.getAddress().getPort() + "/ (Ctrl+C to stop)");
    }

    /** Starts the listener; port 0 picks a free port. */
    public static HttpServer start(int port, PrintStream out) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        AtomicLong counter = new AtomicLong();
        server.createContext("/", exchange -> handle(exchange, out, counter.incrementAndGet()));
        server.start();
        return server;
    }

    private static void handle(HttpExchange exchange, PrintStream out, long number) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        StringBuilder text = new StringBuilder();
        text.append("[")
                .append(number)
                .append("] ")
                .append(LocalTime.now())
                .append(' ')
                .append(exchange.getRequestMethod())
                .append(' ')
                .append(exchange.getRequestURI())
                .append('\n');
        for (Map.Entry<String, List<String>> header :
                exchange.getRequestHeaders().entrySet()) {
            for (String value : header.getValue()) {
                text.append(header.getKey()).append(": ").append(value).append('\n');
            }
        }
        text.append('\n').append(new String(body, StandardCharsets.UTF_8)).append("\n------------\n");
        synchronized (out) {
            out.print(text);
            out.flush();
        }
        byte[] answer = "Webhook received!\n".getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }
}
