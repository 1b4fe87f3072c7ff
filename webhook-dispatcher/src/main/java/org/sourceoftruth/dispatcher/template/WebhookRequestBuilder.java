package org.sourceoftruth.dispatcher.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.WebhookDefinition;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.template.PlainValues;
import org.sourceoftruth.model.template.PythonJson;
import org.sourceoftruth.model.template.TemplateRenderException;
import org.sourceoftruth.model.template.WebhookHeaders;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Builds the HTTP request of a delivery as NetBox's send_webhook does: URL, additional headers
 * and body rendered from the same context, Content-Type first, then the additional headers,
 * then the HMAC-SHA512 signature of the exact body bytes.
 */
@ApplicationScoped
public class WebhookRequestBuilder {

    /** {@code str(datetime)} in Python: date, space, time with microseconds, offset. */
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSxxx", Locale.ROOT);

    public static final String SIGNATURE_HEADER = "X-Hook-Signature";

    @Inject
    DispatcherConfig config;

    private final ExecutorService renderers = Executors.newFixedThreadPool(2, daemonThreads("template-render"));

    void onStop(@Observes ShutdownEvent event) {
        renderers.shutdownNow();
    }

    /**
     * What all the rules of one event share: the default body is the same for each, so it is
     * serialised once per event, not once per rule.
     */
    public static final class EventBodies {
        private final ChangeEvent event;
        private String defaultBody;

        public EventBodies(ChangeEvent event) {
            this.event = event;
        }

        String defaultBody() {
            if (defaultBody == null) {
                defaultBody = WebhookRequestBuilder.defaultBody(event);
            }
            return defaultBody;
        }
    }

    /** Builds the request; rendering is bounded by dispatcher.template.timeout. */
    public RenderedRequest build(ActiveRule rule, ChangeEvent event) throws RequestPreparationException {
        return build(rule, event, new EventBodies(event));
    }

    /** Builds the request of one of the event's rules, sharing {@code bodies} with the others. */
    public RenderedRequest build(ActiveRule rule, ChangeEvent event, EventBodies bodies)
            throws RequestPreparationException {
        WebhookDefinition webhook = rule.webhook();
        if (webhook.templateError() != null) {
            throw new RequestPreparationException(webhook.templateError());
        }
        RenderedFields rendered = constantFields(webhook);
        if (rendered == null) {
            rendered = renderAll(webhook, context(event, rule.actionData()));
        }
        URI url = parseUrl(rendered.url().trim());
        String body = rendered.body() == null ? bodies.defaultBody() : rendered.body();

        List<RenderedRequest.Header> headers = new ArrayList<>();
        headers.add(new RenderedRequest.Header("Content-Type", webhook.httpContentType()));
        for (RenderedRequest.Header header : parseHeaders(rendered.headers())) {
            // later headers replace earlier ones of the same name, as in a case-insensitive dict
            headers.removeIf(existing -> existing.name().equalsIgnoreCase(header.name()));
            headers.add(header);
        }
        if (webhook.secret() != null && !webhook.secret().isEmpty()) {
            headers.removeIf(existing -> existing.name().equalsIgnoreCase(SIGNATURE_HEADER));
            headers.add(new RenderedRequest.Header(SIGNATURE_HEADER, sign(webhook.secret(), body)));
        }
        return new RenderedRequest(webhook.httpMethod().toUpperCase(Locale.ROOT), url, List.copyOf(headers), body);
    }

    /** The three template fields as rendered; body is null when the webhook has no body template. */
    private record RenderedFields(String url, String headers, String body) {
    }

    /**
     * The fields of a webhook whose templates have no markup, rendered once when the rule cache
     * loaded them; null when they must be rendered for each delivery (or exceed the size bound,
     * whose error rendering reports).
     */
    private RenderedFields constantFields(WebhookDefinition webhook) {
        WebhookDefinition.Constants constants = webhook.constants();
        int maxChars = config.template().maxChars();
        if (constants == null || constants.url().length() > maxChars || constants.headers().length() > maxChars
                || (constants.body() != null && constants.body().length() > maxChars)) {
            return null;
        }
        return new RenderedFields(constants.url(), constants.headers(), constants.body());
    }

    /**
     * Renders on a separate thread so that even a runaway template cannot hold the consumer
     * (the templates also check the time bound themselves).
     */
    private RenderedFields renderAll(WebhookDefinition webhook, Map<String, Object> context)
            throws RequestPreparationException {
        Duration limit = config.template().timeout();
        int maxChars = config.template().maxChars();
        AtomicReference<String> field = new AtomicReference<>("payload_url");
        Future<RenderedFields> result = renderers.submit(() -> {
            String url = webhook.url().render(context, limit, maxChars);
            field.set("additional_headers");
            String headers = webhook.headers().render(context, limit, maxChars);
            field.set("body_template");
            String body = webhook.body() == null ? null : webhook.body().render(context, limit, maxChars);
            return new RenderedFields(url, headers, body);
        });
        try {
            return result.get(3 * limit.toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            result.cancel(true);
            throw new RequestPreparationException(field.get() + ": rendering took longer than " + limit.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String message = cause instanceof TemplateRenderException ? cause.getMessage() : String.valueOf(cause);
            throw new RequestPreparationException(field.get() + ": " + message);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestPreparationException(field.get() + ": rendering was interrupted");
        }
    }

    /** The template context: NetBox's names, plus model (the spec's name for object_type). */
    static Map<String, Object> context(ChangeEvent event, JsonNode actionData) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("event", event.event());
        context.put("timestamp", formatTimestamp(event.timestamp()));
        context.put("model", event.model());
        context.put("object_type", event.model());
        context.put("username", event.username());
        context.put("request_id", event.requestId());
        context.put("data", PlainValues.fromJson(mergeActionData(actionData, event.data())));
        Map<String, Object> snapshots = new LinkedHashMap<>();
        snapshots.put("prechange", event.snapshots() == null ? null : PlainValues.fromJson(event.snapshots().prechange()));
        snapshots.put("postchange", event.snapshots() == null ? null : PlainValues.fromJson(event.snapshots().postchange()));
        context.put("snapshots", snapshots);
        return context;
    }

    /** The rule's action_data sits under the event data; the event data wins on conflicts. */
    private static JsonNode mergeActionData(JsonNode actionData, JsonNode data) {
        if (actionData == null || !actionData.isObject() || actionData.isEmpty() || data == null || !data.isObject()) {
            return data;
        }
        ObjectNode merged = actionData.deepCopy();
        merged.setAll((ObjectNode) data);
        return merged;
    }

    static String formatTimestamp(OffsetDateTime timestamp) {
        return timestamp == null ? null : timestamp.withOffsetSameInstant(ZoneOffset.UTC).format(TIMESTAMP);
    }

    /** NetBox's body when body_template is empty, keys in the documented order. */
    static String defaultBody(ChangeEvent event) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event", event.event());
        body.put("timestamp", formatTimestamp(event.timestamp()));
        body.put("model", event.model());
        body.put("username", event.username());
        body.put("request_id", event.requestId());
        body.put("data", PlainValues.fromJson(event.data()));
        Map<String, Object> snapshots = new LinkedHashMap<>();
        snapshots.put("prechange", event.snapshots() == null ? null : PlainValues.fromJson(event.snapshots().prechange()));
        snapshots.put("postchange", event.snapshots() == null ? null : PlainValues.fromJson(event.snapshots().postchange()));
        body.put("snapshots", snapshots);
        return PythonJson.dumps(body);
    }

    private static URI parseUrl(String rawUrl) throws RequestPreparationException {
        try {
            URI url = new URI(rawUrl);
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new RequestPreparationException("payload_url: '" + rawUrl + "' is not an http or https URL");
            }
            if (url.getHost() == null || url.getHost().isEmpty()) {
                throw new RequestPreparationException("payload_url: '" + rawUrl + "' has no host");
            }
            return url;
        } catch (URISyntaxException e) {
            throw new RequestPreparationException("payload_url: '" + rawUrl + "' is not a valid URL: " + e.getReason());
        }
    }

    /** One "Name: Value" per line; lines without a colon are skipped, as in NetBox. */
    static List<RenderedRequest.Header> parseHeaders(String rendered) {
        List<RenderedRequest.Header> headers = new ArrayList<>();
        for (String line : rendered.split("\\r?\\n|\\r")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = stripControl(line.substring(0, colon)).strip();
            String value = stripControl(line.substring(colon + 1)).strip();
            // records-api refuses them at save; a templated name, or a row saved before, is dropped here
            if (name.isEmpty() || WebhookHeaders.isControlledByClient(name)
                    || !name.chars().allMatch(WebhookRequestBuilder::isTokenChar)) {
                continue;
            }
            headers.add(new RenderedRequest.Header(name, value));
        }
        return headers;
    }

    private static String stripControl(String s) {
        return s.replaceAll("\\p{Cntrl}", "");
    }

    /** RFC 9110 token characters, the only ones allowed in a header name. */
    private static boolean isTokenChar(int c) {
        return c > 32 && c < 127 && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }

    /** Hex HMAC-SHA512 of the body's UTF-8 bytes (the bytes that are sent). */
    public static String sign(String secret, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA512");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA512 is not available", e);
        }
    }

    static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
