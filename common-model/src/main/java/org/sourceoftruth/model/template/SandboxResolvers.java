package org.sourceoftruth.model.template;

import io.quarkus.qute.EvalContext;
import io.quarkus.qute.Mapper;
import io.quarkus.qute.ValueResolver;
import io.quarkus.qute.WithPriority;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The value resolvers of the sandboxed engine. Property access works on plain maps, lists and
 * strings only; every other base (null, numbers, Undefined) yields Undefined, the way Jinja
 * treats a missing attribute. No resolver reflects on Java objects, so a template cannot call
 * anything but the {@link TemplateFunctions}.
 */
final class SandboxResolvers {

    private SandboxResolvers() {}

    /** {@code data.name}, {@code data['name']}, {@code tags[0]} on plain values. */
    static ValueResolver plainData() {
        return new ValueResolver() {
            @Override
            public boolean appliesTo(EvalContext context) {
                Object base = context.getBase();
                return context.getParams().isEmpty()
                        && (base instanceof Map || base instanceof List || base instanceof String);
            }

            @Override
            public CompletionStage<Object> resolve(EvalContext context) {
                RenderGuard.check();
                return CompletableFuture.completedFuture(
                        SequenceFunctions.getItem(context.getBase(), context.getName()));
            }

            @Override
            public int getPriority() {
                return WithPriority.DEFAULT_PRIORITY;
            }
        };
    }

    /**
     * Anything else is Undefined. Qute's own binding objects (loop and let variables) are
     * {@link Mapper}s: they are left to Qute's mapper resolver, and when it does not know a name
     * Qute goes on to the enclosing scope.
     */
    static ValueResolver undefinedOtherwise() {
        return new ValueResolver() {
            @Override
            public boolean appliesTo(EvalContext context) {
                return !(context.getBase() instanceof Mapper);
            }

            @Override
            public CompletionStage<Object> resolve(EvalContext context) {
                RenderGuard.check();
                return CompletableFuture.completedFuture(Undefined.INSTANCE);
            }

            @Override
            public int getPriority() {
                return -100;
            }
        };
    }
}
