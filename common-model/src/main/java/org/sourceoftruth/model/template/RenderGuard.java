package org.sourceoftruth.model.template;

/**
 * The time bound of the rendering running on the current thread. Resolvers and template
 * functions check it on every step, so a template that loops over large data stops at its
 * deadline instead of holding a thread (Qute cannot be interrupted from outside).
 */
final class RenderGuard {

    private static final ThreadLocal<Long> DEADLINE = new ThreadLocal<>();

    private RenderGuard() {
    }

    static void start(long deadlineNanos) {
        DEADLINE.set(deadlineNanos);
    }

    static void stop() {
        DEADLINE.remove();
    }

    static void check() {
        Long deadline = DEADLINE.get();
        if (deadline != null && System.nanoTime() - deadline > 0) {
            throw new TemplateRenderException("template rendering took longer than its time limit");
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new TemplateRenderException("template rendering was cancelled");
        }
    }
}
