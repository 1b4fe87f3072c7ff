package org.sourceoftruth.dispatcher.memory;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.model.memory.ByteBudget;

/**
 * The heap that large change events and webhook bodies may take at once in this process
 * ({@code dispatcher.memory.heap-budget-percent} of -Xmx): records-api publishes events of up to
 * 8 MB, and each becomes parsed trees and one body per webhook that fires for it. The consumer
 * reserves for the events of a poll before it parses them, a rendering thread for its event, the
 * sender for a large body from the moment it is read until its answer is in; when the budget is
 * spent they wait, in arrival order, instead of the heap running out.
 *
 * <p>On /q/metrics: {@code dispatcher_memory_budget_bytes} and
 * {@code dispatcher_memory_budget_available_bytes}.
 */
@ApplicationScoped
public class HeapBudget {
    private final ByteBudget bytes;

    @Inject
    HeapBudget(DispatcherConfig config, MeterRegistry registry) {
        bytes = ByteBudget.ofHeapPercent(config.memory().heapBudgetPercent());
        Gauge.builder("dispatcher.memory.budget", bytes, ByteBudget::bytes)
                .baseUnit("bytes")
                .description("Heap that large events and webhook bodies may hold at once")
                .register(registry);
        Gauge.builder("dispatcher.memory.budget.available", bytes, ByteBudget::available)
                .baseUnit("bytes")
                .description("Heap budget not reserved at the moment")
                .register(registry);
    }

    /** Reserves about {@code bytes} of heap, waiting (in arrival order) until that much is free. */
    public ByteBudget.Reservation reserve(long bytes) {
        return this.bytes.reserve(bytes);
    }
}
