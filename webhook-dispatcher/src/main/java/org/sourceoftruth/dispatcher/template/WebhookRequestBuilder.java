package org.sourceoftruth.dispatcher.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.WebhookDefinition;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.template.PlainValues;
import org.sourceoftruth.model.template.PythonJson;
import org.sourceoftruth.model.template.RenderLimits;
import org.sourceoftruth.model.template.TemplateRenderException;
import org.sourceoftruth.model.template.WebhookHeaders;

/**
 * Builds the HTTP request of a delivery as NetBox's send_webhook does: URL, additional headers
 * and body rendered from the same context, Content-Type first, then the additional headers,
 * then the HMAC-SHA512 signature of the exact body bytes.
 */
@ApplicationScoped
public class WebhookRequestBuilder {

    /** {@code str(datetime)} in Python: date, space, time with microseconds, offset. */
    static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSxxx", Locale.ROOT);

    public static final String SIGNATURE_HEADER = "X-Hook-Signature";

    @Inject
    DispatcherConfig config;

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

    /**
     * True when the rule's request must be rendered per event (its webhook has template markup
     * and compiled): that is done by {@link TemplateRenderer}, off the Kafka consumer, so a slow
     * template delays only its own delivery. Other requests are built at once.
     */
    public static boolean needsRendering(ActiveRule rule) {
        WebhookDefinition webhook = rule.webhook();
        return webhook.templateError() == null && webhook.constants() == null;
    }

    /** Builds the request, rendering on the calling thread within the dispatcher.template limits. */
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
    private record RenderedFields(String url, String headers, String body) {}

    /**
     * The fields of a webhook whose templates have no markup, rendered once when the rule cache
     * loaded them; null when they must be rendered for each delivery (or exceed the size bound,
     * whose error rendering reports).
     */
    private RenderedFields constantFields(WebhookDefinition webhook) {
        WebhookDefinition.Constants constants = webhook.constants();
        int maxChars = config.template().maxChars();
        if (constants == null
                || constants.url().length() > maxChars
                || constants.headers().length() > maxChars
                || (constants.body() != null && constants.body().length() > maxChars)) {
            return null;
        }
        return new RenderedFields(constants.url(), constants.headers(), constants.body());
    }

    /**
     * Renders the three fields on the calling thread, each within the render budget
     * (dispatcher.template.*): the budget is enforced inside rendering, so a runaway template
     * ends with an error here rather than holding the thread.
     */
    private RenderedFields renderAll(WebhookDefinition webhook, Map<String, Object> context)
            throws RequestPreparationException {
        RenderLimits limits = config.template().limits();
        String field = "payload_url";
        try {
            String url = webhook.url().render(context, limits);
            field = "additional_headers";
            String headers = webhook.headers().render(context, limits);
            field = "body_template";
            String body = webhook.body() == null ? null : webhook.body().render(context, limits);
            return new RenderedFields(url, headers, body);
        } catch (TemplateRenderException e) {
            throw new RequestPreparationException(field + ": " + e.getMessage());
        }
    }

    /**
     * The template context, with NetBox's names: {@code object_type} is the content type
     * ({@code dcim.site}, since NetBox 4.4) and {@code model} the model name alone ({@code site});
     * {@code request} (id, method, path, user) when a request made the change.
     */
    static Map<String, Object> context(ChangeEvent event, JsonNode actionData) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("event", event.event());
        context.put("timestamp", formatTimestamp(event.timestamp()));
        context.put("object_type", event.model());
        context.put("model", modelName(event));
        context.put("username", event.username());
        context.put("request_id", event.requestId());
        context.put("data", PlainValues.fromJson(mergeActionData(actionData, event.data())));
        if (event.request() != null) {
            context.put("request", request(event.request()));
        }
        Map<String, Object> snapshots = new LinkedHashMap<>();
        snapshots.put(
                "prechange",
                event.snapshots() == null
                        ? null
                        : PlainValues.fromJson(event.snapshots().prechange()));
        snapshots.put(
                "postchange",
                event.snapshots() == null
                        ? null
                        : PlainValues.fromJson(event.snapshots().postchange()));
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
        return timestamp == null
                ? null
                : timestamp.withOffsetSameInstant(ZoneOffset.UTC).format(TIMESTAMP);
    }

    /** {@code site} of {@code dcim.site}: NetBox's {@code model} key holds the model name only. */
    static String modelName(ChangeEvent event) {
        String type = event.model();
        return type == null ? null : type.substring(type.indexOf('.') + 1);
    }

    /** NetBox 4.6's {@code request}: the request's id, method, path and user. */
    private static Map<String, Object> request(ChangeEvent.Request request) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", request.id());
        out.put("method", request.method());
        out.put("path", request.path());
        out.put("user", request.user());
        return out;
    }

    /**
     * NetBox's body when body_template is empty, keys in NetBox 4.6's order (event, timestamp,
     * object_type, username, request_id, data, request, snapshots), with the product's
     * {@code model} (the model name) after object_type; {@code request} only for a change a
     * request made. The data's URLs are relative, as records-api renders them for events.
     */
    static String defaultBody(ChangeEvent event) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event", event.event());
        body.put("timestamp", formatTimestamp(event.timestamp()));
        body.put("object_type", event.model());
        body.put("model", modelName(event));
        body.put("username", event.username());
        body.put("request_id", event.requestId());
        body.put("data", PlainValues.fromJson(event.data()));
        if (event.request() != null) {
            body.put("request", request(event.request()));
        }
        Map<String, Object> snapshots = new LinkedHashMap<>();
        snapshots.put(
                "prechange",
                event.snapshots() == null
                        ? null
                        : PlainValues.fromJson(event.snapshots().prechange()));
        snapshots.put(
                "postchange",
                event.snapshots() == null
                        ? null
                        : PlainValues.fromJson(event.snapshots().postchange()));
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
            if (name.isEmpty()
                    || WebhookHeaders.isControlledByClient(name)
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
}
