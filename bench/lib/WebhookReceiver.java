// Webhook receiver for the benchmark, on 127.0.0.1 only: the same protocol as webhook_receiver.py
// (which it replaces because Python's http.server costs a lot of CPU per request on a 2-core
// machine that also runs the services), in plain JDK Java, started as a single source file:
//
//     java bench/lib/WebhookReceiver.java --port 8190
//
// Answers every POST with 200 at once and records, per delivery: the arrival time, the latency
// (arrival minus the "timestamp" of the change in the NetBox webhook body, i.e. change committed
// -> delivery received), the request path and the object's "description" (the benchmark's tag of
// the change). GET /stats gives {"count": n}; GET /records?from=i gives the records from index i
// as [[arrival_epoch_s, latency_ms, path, description], ...].

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

public class WebhookReceiver {

    /** Python's str(datetime): "2025-01-31 12:00:00.123456+00:00" (fraction optional). */
    private static final DateTimeFormatter STAMP = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd[ ]['T']HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .appendPattern("xxx").toFormatter();

    private record Record(double arrival, Double latencyMs, String path, String description) {
    }

    private static final List<Record> RECORDS = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        int port = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--port")) {
                port = Integer.parseInt(args[++i]);
            }
        }
        if (port == 0) {
            System.err.println("usage: java WebhookReceiver.java --port N");
            System.exit(2);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 512);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", WebhookReceiver::handle);
        server.start();
        System.out.println("webhook receiver on http://127.0.0.1:" + port + "/");
    }

    private static void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (exchange.getRequestMethod().equals("GET")) {
                get(exchange);
                return;
            }
            double arrival = System.currentTimeMillis() / 1000.0;
            byte[] raw;
            try (InputStream in = exchange.getRequestBody()) {
                raw = in.readAllBytes();
            }
            exchange.sendResponseHeaders(200, -1);
            Record record;
            try {
                Object body = new Json(new String(raw, StandardCharsets.UTF_8)).value();
                Map<?, ?> map = (Map<?, ?>) body;
                Double latency = null;
                if (map.get("timestamp") instanceof String stamp && !stamp.isEmpty()) {
                    OffsetDateTime at = OffsetDateTime.parse(stamp, STAMP);
                    double committed = at.toEpochSecond() + at.getNano() / 1e9;
                    latency = (arrival - committed) * 1000;
                }
                String description = null;
                if (map.get("data") instanceof Map<?, ?> data && data.get("description") instanceof String d) {
                    description = d;
                }
                record = new Record(arrival, latency, exchange.getRequestURI().toString(), description);
            } catch (RuntimeException e) {
                record = new Record(arrival, null, exchange.getRequestURI().toString(), null);
            }
            synchronized (RECORDS) {
                RECORDS.add(record);
            }
        }
    }

    private static void get(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String answer;
        if (path.equals("/stats")) {
            synchronized (RECORDS) {
                answer = "{\"count\": " + RECORDS.size() + "}";
            }
        } else if (path.equals("/records")) {
            int from = 0;
            String query = exchange.getRequestURI().getQuery();
            if (query != null) {
                for (String pair : query.split("&")) {
                    if (pair.startsWith("from=")) {
                        from = Integer.parseInt(pair.substring(5));
                    }
                }
            }
            StringBuilder out = new StringBuilder("[");
            synchronized (RECORDS) {
                for (int i = Math.max(0, from); i < RECORDS.size(); i++) {
                    Record r = RECORDS.get(i);
                    if (out.length() > 1) {
                        out.append(", ");
                    }
                    out.append('[').append(r.arrival()).append(", ")
                            .append(r.latencyMs() == null ? "null" : r.latencyMs().toString()).append(", ");
                    quote(out, r.path());
                    out.append(", ");
                    quote(out, r.description());
                    out.append(']');
                }
            }
            answer = out.append(']').toString();
        } else {
            exchange.sendResponseHeaders(404, -1);
            return;
        }
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void quote(StringBuilder out, String s) {
        if (s == null) {
            out.append("null");
            return;
        }
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A minimal JSON reader: objects become maps, arrays lists, numbers doubles. */
    private static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> map = new LinkedHashMap<>();
                    skip();
                    if (s.charAt(i) == '}') {
                        i++;
                        return map;
                    }
                    while (true) {
                        skip();
                        String key = string();
                        skip();
                        expect(':');
                        map.put(key, value());
                        skip();
                        if (s.charAt(i) == ',') {
                            i++;
                        } else {
                            expect('}');
                            return map;
                        }
                    }
                }
                case '[': {
                    i++;
                    List<Object> list = new ArrayList<>();
                    skip();
                    if (s.charAt(i) == ']') {
                        i++;
                        return list;
                    }
                    while (true) {
                        list.add(value());
                        skip();
                        if (s.charAt(i) == ',') {
                            i++;
                        } else {
                            expect(']');
                            return list;
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    i += 4;
                    return Boolean.TRUE;
                case 'f':
                    i += 5;
                    return Boolean.FALSE;
                case 'n':
                    i += 4;
                    return null;
                default: {
                    int start = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    if (start == i) {
                        throw new IllegalArgumentException("unexpected " + c + " at " + i);
                    }
                    return Double.parseDouble(s.substring(start, i));
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> out.append(e);
                }
            }
        }

        private void expect(char c) {
            if (s.charAt(i) != c) {
                throw new IllegalArgumentException("expected " + c + " at " + i);
            }
            i++;
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
