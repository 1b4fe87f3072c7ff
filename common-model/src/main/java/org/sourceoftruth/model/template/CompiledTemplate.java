package org.sourceoftruth.model.template;

import io.quarkus.qute.Template;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;

/** A compiled webhook template; thread-safe, render it as often as needed. */
public final class CompiledTemplate {

    private final Template template;

    CompiledTemplate(Template template) {
        this.template = template;
    }

    /**
     * Renders on the calling thread.
     *
     * @param context  top-level names; values must be {@link PlainValues plain values}
     * @param timeLimit rendering stops with an exception when it runs longer
     * @param maxChars rendering stops with an exception when the output grows past this
     * @throws TemplateRenderException on a type error in an expression, or when a limit is hit
     */
    public String render(Map<String, Object> context, Duration timeLimit, int maxChars) {
        StringBuilder out = new StringBuilder();
        RenderGuard.start(System.nanoTime() + timeLimit.toNanos());
        try {
            template.data(context).consume(chunk -> {
                out.append(chunk);
                if (out.length() > maxChars) {
                    throw new TemplateRenderException("rendered output is longer than " + maxChars + " characters");
                }
            }).toCompletableFuture().join();
            return out.toString();
        } catch (CompletionException | io.quarkus.qute.TemplateException e) {
            throw asRenderException(e);
        } finally {
            RenderGuard.stop();
        }
    }

    private static TemplateRenderException asRenderException(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TemplateRenderException render) {
                return render;
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new TemplateRenderException("template could not be rendered: " + root.getMessage(), failure);
    }
}
