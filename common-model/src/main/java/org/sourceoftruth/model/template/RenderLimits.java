package org.sourceoftruth.model.template;

import java.time.Duration;

/**
 * What one rendering of a template may use. Every bound is enforced on the rendering thread
 * itself (see {@link RenderGuard}), so exceeding one ends that rendering with a
 * {@link TemplateRenderException} and nothing else.
 *
 * @param timeout        wall-clock time of the rendering
 * @param maxSteps       lookups, function calls and loop iterations
 * @param maxChars       length of the rendered text
 * @param maxMemoryBytes approximate bytes of the strings, lists and maps the template builds
 *                       while rendering (garbage included), so no template can exhaust the heap
 */
public record RenderLimits(Duration timeout, long maxSteps, int maxChars, long maxMemoryBytes) {

    /** Memory budget when none is given: the rendered text a few times over, within [16 MiB, 256 MiB]. */
    static long defaultMemoryFor(int maxChars) {
        long fromOutput = 8L * maxChars;
        return Math.max(16L << 20, Math.min(256L << 20, fromOutput));
    }

    /** Bounds of time and size only: unlimited steps, memory derived from the output size. */
    public static RenderLimits of(Duration timeout, int maxChars) {
        return new RenderLimits(timeout, Long.MAX_VALUE, maxChars, defaultMemoryFor(maxChars));
    }
}
