package org.sourceoftruth.dispatcher.rules;

import org.sourceoftruth.model.template.CompiledTemplate;
import org.sourceoftruth.model.template.TemplateSyntaxException;
import org.sourceoftruth.model.template.WebhookTemplates;

/**
 * A row of extras_webhook with its templates compiled once per cache load.
 *
 * @param templateError why a template does not compile (the templates are then null); such a
 *                      webhook yields failed deliveries carrying this message
 */
public record WebhookDefinition(long id, String name, String payloadUrl, String httpMethod, String httpContentType,
                                String additionalHeaders, String bodyTemplate, String secret, boolean sslVerification,
                                String caFilePath, CompiledTemplate url, CompiledTemplate headers,
                                CompiledTemplate body, String templateError) {

    /** Compiles the three template fields; an empty body template means NetBox's default body. */
    public static WebhookDefinition compile(long id, String name, String payloadUrl, String httpMethod,
                                            String httpContentType, String additionalHeaders, String bodyTemplate,
                                            String secret, boolean sslVerification, String caFilePath) {
        String field = "payload_url";
        try {
            CompiledTemplate url = WebhookTemplates.compile(payloadUrl);
            field = "additional_headers";
            CompiledTemplate headers = WebhookTemplates.compileHeaders(additionalHeaders);
            field = "body_template";
            CompiledTemplate body = bodyTemplate == null || bodyTemplate.isBlank() ? null : WebhookTemplates.compile(bodyTemplate);
            return new WebhookDefinition(id, name, payloadUrl, httpMethod, httpContentType, additionalHeaders,
                    bodyTemplate, secret, sslVerification, caFilePath, url, headers, body, null);
        } catch (TemplateSyntaxException e) {
            return new WebhookDefinition(id, name, payloadUrl, httpMethod, httpContentType, additionalHeaders,
                    bodyTemplate, secret, sslVerification, caFilePath, null, null, null,
                    "invalid " + field + " template: " + e.getMessage());
        }
    }
}
