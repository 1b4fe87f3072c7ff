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
     * Renders on the calling thread, bounded in time and output size only.
     *
     * @param context  top-level names; values must be {@link PlainValues plain values}
     * @param timeLimit rendering stops with an exception when it runs longer
     * @param maxChars rendering stops with an exception when the output grows past this
     * @throws TemplateRenderException on a type error in an expression, or when a limit is hit
     */
    public String render(Map<String, Object> context, Duration timeLimit, int maxChars) {
        return render(context, RenderLimits.of(timeLimit, maxChars));
    }

    /**
     * Renders on the calling thread within {@code limits}.
     *
     * @param context top-level names; values must be {@link PlainValues plain values}
     * @throws TemplateRenderException on a type error in an expression, or when a limit is hit
     */
    public String render(Map<String, Object> context, RenderLimits limits) {
        int maxChars = limits.maxChars();
        StringBuilder out = new StringBuilder();
        RenderGuard.start(limits);
        try {
            template.data(context)
                    .consume(chunk -> {
                        // checked before appending, so the buffer itself never grows past the bound
                        if (chunk.length() > maxChars - out.length()) {
                            throw new TemplateRenderException(
                                    "rendered output is longer than " + maxChars + " characters");
                        }
                        out.append(chunk);
                    })
                    .toCompletableFuture()
                    .join();
            return out.toString();
        } catch (CompletionException | io.quarkus.qute.TemplateException e) {
            throw asRenderException(e);
        } catch (StackOverflowError e) {
            // Nesting is bounded when templates are compiled; this is the last line of defence.
            throw new TemplateRenderException("template is nested too deeply to render");
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
