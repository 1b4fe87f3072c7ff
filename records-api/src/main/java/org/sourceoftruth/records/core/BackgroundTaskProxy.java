package org.sourceoftruth.records.core;

import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;
import org.sourceoftruth.records.web.HttpFilters;

/**
 * NetBox's background-task API (/api/core/background-queues/, background-workers/,
 * background-tasks/) at records-api's URL: forwarded to the webhook dispatcher, which owns the
 * deliveries and answers these paths itself (authentication included). Method, path, query, body
 * and the caller's credentials go through; status, body and content type come back, with the
 * dispatcher's links rewritten to this server's URL. A dispatcher that does not answer gives a
 * 503, never a 500.
 */
@ApplicationScoped
public class BackgroundTaskProxy {

    private static final Logger LOG = Logger.getLogger(BackgroundTaskProxy.class);
    private static final String PATHS = "/api/core/background-(queues|workers|tasks)/.*";
    /** Request headers the dispatcher needs: credentials, CSRF, correlation, client address, body type. */
    private static final List<String> FORWARDED =
            List.of("Authorization", "Cookie", "X-CSRFToken", "X-Real-IP", "Content-Type", "Accept");
    /** The tasks' bodies are small JSON (actions take none); anything larger is not ours. */
    private static final long MAX_BODY_BYTES = 1024 * 1024;

    private static final String UNAVAILABLE =
            "{\"detail\":\"Background tasks are unavailable: the webhook dispatcher does not answer.\"}";

    @Inject
    DispatcherLinkConfig config;

    /**
     * Built on the first forwarded request: building it initialises the JDK's default TLS
     * context, ~4 % of start-up, for an API most deployments call rarely.
     */
    private volatile HttpClient client;

    private HttpClient client() {
        HttpClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = HttpClient.newBuilder()
                            .connectTimeout(Duration.ofSeconds(5))
                            .followRedirects(HttpClient.Redirect.NEVER)
                            .build();
                }
                c = client;
            }
        }
        return c;
    }

    void install(@Observes Router router) {
        // after HttpFilters (-1000: request id, trailing slash) and MalformedRequests (-999)
        router.routeWithRegex(PATHS)
                .order(-900)
                .handler(BodyHandler.create().setBodyLimit(MAX_BODY_BYTES))
                .handler(this::forward);
    }

    private void forward(RoutingContext ctx) {
        try {
            send(ctx);
        } catch (RuntimeException e) { // a DISPATCHER_URL that is no HTTP URL
            unavailable(ctx, e);
        }
    }

    private void send(RoutingContext ctx) {
        HttpServerRequest incoming = ctx.request();
        String origin = origin(config.dispatcherUrl());
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(origin + incoming.uri())).timeout(config.dispatcherTimeout());
        for (String name : FORWARDED) {
            String value = incoming.getHeader(name);
            if (value != null) {
                request.header(name, value);
            }
        }
        String requestId = incoming.getHeader("X-Request-ID");
        request.header(
                "X-Request-ID",
                requestId != null ? requestId : String.valueOf(ctx.<Object>get(HttpFilters.REQUEST_ID)));
        // the caller's address, last in the chain (the dispatcher checks tokens' allowed IPs against the first)
        String forwardedFor = incoming.getHeader("X-Forwarded-For");
        String peer = incoming.remoteAddress() == null
                ? null
                : incoming.remoteAddress().hostAddress();
        if (forwardedFor != null || peer != null) {
            request.header(
                    "X-Forwarded-For",
                    forwardedFor == null ? peer : peer == null ? forwardedFor : forwardedFor + ", " + peer);
        }
        Buffer body = ctx.body() == null ? null : ctx.body().buffer();
        request.method(
                incoming.method().name(),
                body == null || body.length() == 0
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body.getBytes()));
        Context context = ctx.vertx().getOrCreateContext();
        String publicBase = publicBase(incoming);
        client().sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
                .whenComplete((response, failure) -> context.runOnContext(v -> {
                    if (failure != null) {
                        unavailable(ctx, failure);
                        return;
                    }
                    respond(ctx, response, origin, publicBase);
                }));
    }

    private void unavailable(RoutingContext ctx, Throwable failure) {
        LOG.warnf("The webhook dispatcher at %s does not answer: %s", config.dispatcherUrl(), failure.toString());
        ctx.response()
                .setStatusCode(503)
                .putHeader("Content-Type", "application/json")
                .end(UNAVAILABLE);
    }

    private static void respond(RoutingContext ctx, HttpResponse<byte[]> response, String origin, String publicBase) {
        MultiMap headers = ctx.response().headers();
        response.headers().firstValue("Content-Type").ifPresent(type -> headers.set("Content-Type", type));
        response.headers()
                .firstValue("Location")
                .ifPresent(location -> headers.set("Location", location.replace(origin, publicBase)));
        byte[] body = response.body();
        ctx.response().setStatusCode(response.statusCode());
        if (body.length == 0) {
            ctx.response().end();
            return;
        }
        // links in the dispatcher's answers name the dispatcher's address; callers know only ours
        String text = new String(body, StandardCharsets.UTF_8).replace(origin + "/api/", publicBase + "/api/");
        ctx.response().end(text);
    }

    /** The URL callers used, as records-api's links name it (X-Forwarded-Proto/-Host, else Host). */
    private static String publicBase(HttpServerRequest request) {
        String proto = firstOf(request.getHeader("X-Forwarded-Proto"));
        String host = firstOf(request.getHeader("X-Forwarded-Host"));
        if (proto == null || proto.isEmpty()) {
            proto = request.scheme();
        }
        if (host == null || host.isEmpty()) {
            host = request.getHeader("Host");
        }
        return proto + "://" + host;
    }

    private static String firstOf(String header) {
        if (header == null) {
            return null;
        }
        int comma = header.indexOf(',');
        return (comma < 0 ? header : header.substring(0, comma)).trim();
    }

    /** scheme://host:port of the dispatcher, without a trailing slash. */
    private static String origin(URI url) {
        String text = url.toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }
}
