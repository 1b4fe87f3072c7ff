package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.model.template.CompiledTemplate;
import org.sourceoftruth.model.template.PlainValues;
import org.sourceoftruth.model.template.RenderLimits;
import org.sourceoftruth.model.template.TemplateRenderException;
import org.sourceoftruth.model.template.TemplateSyntaxException;
import org.sourceoftruth.model.template.WebhookTemplates;
import org.sourceoftruth.records.web.ApiException;

import java.util.Map;

/**
 * Renders export and config templates with the webhooks' engine (common-model's template
 * package: NetBox's Jinja syntax compiled to Qute, sandboxed: a template sees only the plain
 * maps, lists, strings, numbers and booleans of its context, never a Java object), within
 * {@link TemplateConfig}'s budget. A template that does not compile or fails while rendering
 * answers 400 with the reason; nothing was written, so nothing else is affected.
 */
@ApplicationScoped
public class TemplateRendering {
    @Inject
    TemplateConfig config;

    /** The JSON value as the plain values a template may see. */
    public static Object plain(JsonNode node) {
        return PlainValues.fromJson(node);
    }

    /** Renders {@code code} over {@code context}; CRLF line ends become LF, as NetBox's RenderTemplateMixin. */
    public String render(String code, Map<String, Object> context) {
        CompiledTemplate template;
        try {
            template = WebhookTemplates.compile(code);
        } catch (TemplateSyntaxException e) {
            throw failed(e.getMessage());
        }
        RenderLimits limits = new RenderLimits(config.timeout(), config.maxSteps(), config.maxChars(),
                config.maxMemoryBytes());
        try {
            return template.render(context, limits).replace("\r\n", "\n");
        } catch (TemplateRenderException e) {
            throw failed(e.getMessage());
        }
    }

    private static ApiException failed(String reason) {
        return ApiException.detail(400, "An error occurred while rendering the template: " + reason);
    }
}
