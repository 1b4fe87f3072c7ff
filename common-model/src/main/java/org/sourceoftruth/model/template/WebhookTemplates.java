package org.sourceoftruth.model.template;

import io.quarkus.qute.Engine;
import io.quarkus.qute.EvalContext;
import io.quarkus.qute.Expression;
import io.quarkus.qute.IfSectionHelper;
import io.quarkus.qute.LoopSectionHelper;
import io.quarkus.qute.NamespaceResolver;
import io.quarkus.qute.SetSectionHelper;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateException;
import io.quarkus.qute.ValueResolvers;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Entry point for webhook templates (payload URL, additional headers, body template): NetBox's
 * Jinja syntax, translated by {@link JinjaToQute} and rendered by a Qute engine that can only
 * read plain maps, lists, strings, numbers and booleans (see {@link PlainValues}).
 *
 * <p>Uses only Qute's core library, no Quarkus runtime, so records-api can validate templates at
 * save time with exactly the rules the dispatcher renders with.
 */
public final class WebhookTemplates {

    private static final Engine ENGINE = Engine.builder()
            .addSectionHelper(new IfSectionHelper.Factory())
            .addSectionHelper(new LoopSectionHelper.Factory())
            .addSectionHelper(new SetSectionHelper.Factory())
            // binds loop and let variables; applies to Qute's own binding objects only
            .addValueResolver(ValueResolvers.mapperResolver())
            .addValueResolver(SandboxResolvers.plainData())
            .addValueResolver(SandboxResolvers.undefinedOtherwise())
            .addNamespaceResolver(NamespaceResolver.builder("fn")
                    .resolveAsync(WebhookTemplates::callFunction)
                    .build())
            // Jinja keeps the newline after a block tag (trim_blocks is off)
            .removeStandaloneLines(false)
            .strictRendering(true)
            .build();

    private WebhookTemplates() {}

    /**
     * Save-time check of a template field.
     *
     * @return the problem, e.g. {@code "line 3: no filter named 'foo'"}, or empty when the
     *         template compiles
     */
    public static Optional<String> validate(String jinja) {
        try {
            compile(jinja);
            return Optional.empty();
        } catch (TemplateSyntaxException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Compiles a body or URL template. */
    public static CompiledTemplate compile(String jinja) throws TemplateSyntaxException {
        return compile(jinja, JinjaToQute.Output.TEXT);
    }

    /** Compiles an export or config template under its environment's whitespace settings. */
    public static CompiledTemplate compile(String jinja, Whitespace whitespace) throws TemplateSyntaxException {
        return compile(jinja, JinjaToQute.Output.TEXT, whitespace);
    }

    /** Compiles an additional-headers template: printed values lose CR, LF and control characters. */
    public static CompiledTemplate compileHeaders(String jinja) throws TemplateSyntaxException {
        return compile(jinja, JinjaToQute.Output.HEADER_SAFE);
    }

    private static CompiledTemplate compile(String jinja, JinjaToQute.Output output) throws TemplateSyntaxException {
        return compile(jinja, output, Whitespace.DEFAULT);
    }

    private static CompiledTemplate compile(String jinja, JinjaToQute.Output output, Whitespace whitespace)
            throws TemplateSyntaxException {
        String qute = JinjaToQute.translate(jinja == null ? "" : jinja, output, whitespace);
        try {
            Template template = ENGINE.parse(qute);
            return new CompiledTemplate(template);
        } catch (TemplateException e) {
            // The translator only emits valid Qute, so this is a translator defect; still report it
            // as a template error rather than failing the caller.
            throw new TemplateSyntaxException(1, "template could not be compiled: " + e.getMessage());
        }
    }

    private static CompletionStage<Object> callFunction(EvalContext context) {
        List<Expression> params = context.getParams();
        CompletableFuture<List<Object>> evaluated = CompletableFuture.completedFuture(new ArrayList<>(params.size()));
        for (Expression param : params) {
            evaluated = evaluated.thenCompose(values -> context.evaluate(param).thenApply(value -> {
                values.add(value);
                return values;
            }));
        }
        return evaluated.thenApply(values -> TemplateFunctions.apply(context.getName(), values));
    }
}
