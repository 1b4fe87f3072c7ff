package org.sourceoftruth.dispatcher.rules;

import java.time.Duration;
import java.util.Map;
import org.jboss.logging.Logger;
import org.sourceoftruth.model.template.CompiledTemplate;
import org.sourceoftruth.model.template.TemplateSyntaxException;
import org.sourceoftruth.model.template.WebhookTemplates;

/**
 * A webhook of records-api (extras.webhook) with its templates compiled once, when the
 * dispatcher learns of it (see {@link RuleCache}).
 *
 * @param templateError why a template does not compile (the templates are then null); such a
 *                      webhook yields failed deliveries carrying this message
 * @param constants     the three fields' output when none of them contains template markup
 *                      (no '{' at all, so the output cannot depend on the event): rendered
 *                      once here instead of once per delivery; null otherwise
 */
public record WebhookDefinition(
        long id,
        String name,
        String payloadUrl,
        String httpMethod,
        String httpContentType,
        String additionalHeaders,
        String bodyTemplate,
        String secret,
        boolean sslVerification,
        String caFilePath,
        CompiledTemplate url,
        CompiledTemplate headers,
        CompiledTemplate body,
        String templateError,
        Constants constants) {

    private static final Logger LOG = Logger.getLogger(WebhookDefinition.class);

    /** Output of templates without markup; body is null when the default body applies. */
    public record Constants(String url, String headers, String body) {}

    /** Reads records-api's representation of a webhook. */
    static WebhookDefinition from(Representation webhook) throws Representation.Incomplete {
        WebhookDefinition definition = compile(
                webhook.id(),
                webhook.text("name"),
                webhook.text("payload_url"),
                webhook.choice("http_method"),
                webhook.text("http_content_type"),
                webhook.text("additional_headers"),
                webhook.text("body_template"),
                webhook.text("secret"),
                webhook.bool("ssl_verification"),
                webhook.text("ca_file_path"));
        if (definition.templateError() != null) {
            LOG.warnf("Webhook %d (%s): %s", definition.id(), definition.name(), definition.templateError());
        }
        return definition;
    }

    /** Compiles the three template fields; an empty body template means NetBox's default body. */
    public static WebhookDefinition compile(
            long id,
            String name,
            String payloadUrl,
            String httpMethod,
            String httpContentType,
            String additionalHeaders,
            String bodyTemplate,
            String secret,
            boolean sslVerification,
            String caFilePath) {
        String field = "payload_url";
        try {
            CompiledTemplate url = WebhookTemplates.compile(payloadUrl);
            field = "additional_headers";
            CompiledTemplate headers = WebhookTemplates.compileHeaders(additionalHeaders);
            field = "body_template";
            CompiledTemplate body =
                    bodyTemplate == null || bodyTemplate.isBlank() ? null : WebhookTemplates.compile(bodyTemplate);
            return new WebhookDefinition(
                    id,
                    name,
                    payloadUrl,
                    httpMethod,
                    httpContentType,
                    additionalHeaders,
                    bodyTemplate,
                    secret,
                    sslVerification,
                    caFilePath,
                    url,
                    headers,
                    body,
                    null,
                    constants(payloadUrl, url, additionalHeaders, headers, bodyTemplate, body));
        } catch (TemplateSyntaxException e) {
            return new WebhookDefinition(
                    id,
                    name,
                    payloadUrl,
                    httpMethod,
                    httpContentType,
                    additionalHeaders,
                    bodyTemplate,
                    secret,
                    sslVerification,
                    caFilePath,
                    null,
                    null,
                    null,
                    "invalid " + field + " template: " + e.getMessage(),
                    null);
        }
    }

    private static Constants constants(
            String urlSource,
            CompiledTemplate url,
            String headersSource,
            CompiledTemplate headers,
            String bodySource,
            CompiledTemplate body) {
        if (hasMarkup(urlSource) || hasMarkup(headersSource) || (body != null && hasMarkup(bodySource))) {
            return null;
        }
        try {
            Duration limit = Duration.ofSeconds(2);
            return new Constants(
                    url.render(Map.of(), limit, Integer.MAX_VALUE),
                    headers.render(Map.of(), limit, Integer.MAX_VALUE),
                    body == null ? null : body.render(Map.of(), limit, Integer.MAX_VALUE));
        } catch (RuntimeException e) { // TemplateRenderException included
            return null; // rendered per delivery, which reports the problem
        }
    }

    private static boolean hasMarkup(String source) {
        return source != null && source.indexOf('{') >= 0;
    }
}
