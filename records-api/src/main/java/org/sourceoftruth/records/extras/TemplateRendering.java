package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.model.template.CompiledTemplate;
import org.sourceoftruth.model.template.PlainValues;
import org.sourceoftruth.model.template.RenderLimits;
import org.sourceoftruth.model.template.TemplateRenderException;
import org.sourceoftruth.model.template.TemplateSyntaxException;
import org.sourceoftruth.model.template.WebhookTemplates;
import org.sourceoftruth.model.template.Whitespace;
import org.sourceoftruth.records.web.ApiException;

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

    /** Renders {@code code} over {@code context} with Jinja's default environment. */
    public String render(String code, Map<String, Object> context) {
        return render(code, null, context);
    }

    /**
     * Renders {@code code} over {@code context} under the template's {@code environment_params}
     * ({@link #environment}); CRLF line ends become LF, as NetBox's RenderTemplateMixin.
     */
    public String render(String code, JsonNode environmentParams, Map<String, Object> context) {
        Whitespace whitespace = environment(environmentParams);
        CompiledTemplate template;
        try {
            template = WebhookTemplates.compile(code, whitespace);
        } catch (TemplateSyntaxException e) {
            throw failed(e.getMessage());
        }
        RenderLimits limits =
                new RenderLimits(config.timeout(), config.maxSteps(), config.maxChars(), config.maxMemoryBytes());
        try {
            return template.render(context, limits).replace("\r\n", "\n");
        } catch (TemplateRenderException e) {
            throw failed(e.getMessage());
        }
    }

    /** The Jinja environment parameters this engine applies. */
    static final List<String> SUPPORTED =
            List.of("trim_blocks", "lstrip_blocks", "keep_trailing_newline", "autoescape");

    /**
     * NetBox passes {@code environment_params} to Jinja's Environment. This engine applies the
     * whitespace ones ({@code trim_blocks}, {@code lstrip_blocks}, {@code keep_trailing_newline})
     * and {@code autoescape: false} (its only mode); any other parameter, or another value, would
     * change the output in a way it cannot honour, so rendering is refused naming it rather than
     * silently producing different text.
     */
    static Whitespace environment(JsonNode params) {
        if (params == null || params.isNull() || (params.isObject() && params.isEmpty())) {
            return Whitespace.DEFAULT;
        }
        if (!params.isObject()) {
            throw failed("environment_params must be a JSON object.");
        }
        boolean trim = false;
        boolean lstrip = false;
        boolean keep = false;
        for (var it = params.fields(); it.hasNext(); ) {
            var e = it.next();
            String key = e.getKey();
            if (!SUPPORTED.contains(key)) {
                throw failed("environment parameter \"" + key + "\" is not supported here (supported: "
                        + String.join(", ", SUPPORTED) + ").");
            }
            if (!e.getValue().isBoolean()) {
                throw failed("environment parameter \"" + key + "\" must be true or false.");
            }
            boolean on = e.getValue().booleanValue();
            switch (key) {
                case "trim_blocks" -> trim = on;
                case "lstrip_blocks" -> lstrip = on;
                case "keep_trailing_newline" -> keep = on;
                default -> {
                    if (on) {
                        throw failed("environment parameter \"autoescape\": only false is supported here.");
                    }
                }
            }
        }
        return new Whitespace(trim, lstrip, keep);
    }

    private static ApiException failed(String reason) {
        return ApiException.detail(400, "An error occurred while rendering the template: " + reason);
    }
}
