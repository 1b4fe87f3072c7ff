package org.sourceoftruth.model.template;

/**
 * The budget of the rendering running on the current thread: a deadline, a number of steps
 * (lookups, function calls, loop iterations) and an amount of memory for the values a template
 * builds. Resolvers, template functions and loop iterators charge it on every step and before
 * every allocation whose size a template controls, so a template that loops forever or grows a
 * value without bound stops with a {@link TemplateRenderException} long before it could hold a
 * thread or exhaust the heap. Qute cannot be interrupted from outside, so these checks, made on
 * the rendering thread itself, are what bounds it; a watchdog elsewhere only reports.
 */
final class RenderGuard {

    /** Charged per character of a new string (UTF-16 in the worst case). */
    static final long BYTES_PER_CHAR = 2;
    /** Charged per element of a new list or map (a reference and its share of the backing array). */
    static final long BYTES_PER_ELEMENT = 16;
    /** Charged per new string object besides its characters (header and array header). */
    static final long BYTES_PER_STRING = 40;

    private static final ThreadLocal<RenderGuard> CURRENT = new ThreadLocal<>();

    private final long deadlineNanos;
    private final long maxSteps;
    private final long maxBytes;
    private long steps;
    private long bytes;
    /**
     * Why the budget ran out, once it has: every later step fails at once, so that a loop (which
     * Qute continues after a failed iteration) ends at its next element.
     */
    private String exhausted;

    private RenderGuard(RenderLimits limits) {
        this.deadlineNanos = System.nanoTime() + limits.timeout().toNanos();
        this.maxSteps = limits.maxSteps();
        this.maxBytes = limits.maxMemoryBytes();
    }

    static void start(RenderLimits limits) {
        CURRENT.set(new RenderGuard(limits));
    }

    static void stop() {
        CURRENT.remove();
    }

    /** One step of evaluation: checks the deadline, the step budget and cancellation. */
    static void check() {
        RenderGuard guard = CURRENT.get();
        if (guard != null) {
            guard.step();
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new TemplateRenderException("template rendering was cancelled");
        }
    }

    /** Charges a new string of {@code chars} characters, before it is built. */
    static void allocateChars(long chars) {
        allocate(BYTES_PER_STRING + BYTES_PER_CHAR * Math.max(0, chars));
    }

    /** Charges a new list or map of {@code elements} elements, before it is built. */
    static void allocateElements(long elements) {
        allocate(BYTES_PER_STRING + BYTES_PER_ELEMENT * Math.max(0, elements));
    }

    /** Charges {@code amount} bytes of values built by the template. */
    static void allocate(long amount) {
        RenderGuard guard = CURRENT.get();
        if (guard == null) {
            return;
        }
        if (guard.exhausted != null) {
            throw new TemplateRenderException(guard.exhausted);
        }
        // saturating: a size computed from huge operands must not wrap around to a small one
        guard.bytes = amount > Long.MAX_VALUE - guard.bytes ? Long.MAX_VALUE : guard.bytes + amount;
        if (guard.bytes > guard.maxBytes) {
            throw guard.exhaust("template rendering needs more than its memory limit of " + guard.maxBytes + " bytes");
        }
    }

    private void step() {
        if (exhausted != null) {
            throw new TemplateRenderException(exhausted);
        }
        if (++steps > maxSteps) {
            throw exhaust("template rendering took more than its limit of " + maxSteps + " steps");
        }
        if (System.nanoTime() - deadlineNanos > 0) {
            throw exhaust("template rendering took longer than its time limit");
        }
    }

    private TemplateRenderException exhaust(String reason) {
        exhausted = reason;
        return new TemplateRenderException(reason);
    }
}
