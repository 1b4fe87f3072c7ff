package org.sourceoftruth.records.memory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import org.sourceoftruth.model.memory.ByteBudget;

/**
 * The heap that large values may take at once, shared by every request of the process
 * ({@link ByteBudget}, {@code sot.memory.heap-budget-percent} of -Xmx): work that is about to bring
 * a large value into the heap (a row of several megabytes read, rendered and written to a response)
 * first reserves an estimate of what it will hold, and gives it back when done. When the budget is
 * spent, reservations wait in arrival order instead of the heap running out: 64 parallel reads of a
 * page of 10 MB objects are served a few at a time rather than failing with OutOfMemoryError.
 *
 * <p>On /q/metrics: {@code sot_memory_budget_bytes}, {@code sot_memory_budget_available_bytes},
 * {@code sot_memory_budget_waits_total} and the time spent waiting,
 * {@code sot_memory_budget_wait_seconds}.
 */
@ApplicationScoped
public class HeapBudget {
    private final ByteBudget bytes;
    private final Counter waits;
    private final Timer waiting;

    @Inject
    Instance<CurrentVertxRequest> currentRequest;

    @Inject
    HeapBudget(MemoryConfig config, MeterRegistry registry) {
        this(ByteBudget.ofHeapPercent(config.heapBudgetPercent()), registry);
    }

    HeapBudget(ByteBudget bytes, MeterRegistry registry) {
        this.bytes = bytes;
        Gauge.builder("sot.memory.budget", bytes, ByteBudget::bytes)
                .baseUnit("bytes")
                .description("Heap that large values being read, written and sent may hold at once")
                .register(registry);
        Gauge.builder("sot.memory.budget.available", bytes, ByteBudget::available)
                .baseUnit("bytes")
                .description("Heap budget not reserved at the moment")
                .register(registry);
        waits = Counter.builder("sot.memory.budget.waits")
                .description("Reservations that waited for the heap budget")
                .register(registry);
        waiting = Timer.builder("sot.memory.budget.wait")
                .description("Time reservations waited for the heap budget")
                .register(registry);
    }

    /** The whole budget, in bytes. */
    public long bytes() {
        return bytes.bytes();
    }

    /** Reserves about {@code bytes} of heap, waiting (in arrival order) until that much is free. */
    public ByteBudget.Reservation reserve(long bytes) {
        ByteBudget.Reservation now = this.bytes.tryReserve(bytes);
        if (now != null) {
            return now;
        }
        waits.increment();
        long start = System.nanoTime();
        ByteBudget.Reservation waited = this.bytes.reserve(bytes);
        waiting.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return waited;
    }

    /**
     * Reserves about {@code bytes} now if that much is free and nothing waits before it; null
     * otherwise. For work that must not wait where it stands (inside a transaction that holds
     * row locks: the holders it would wait for might wait for those locks).
     */
    public ByteBudget.Reservation tryReserve(long bytes) {
        return this.bytes.tryReserve(bytes);
    }

    /**
     * Keeps the reservation until the current HTTP request has ended (its response written, or
     * its connection gone): the response holds what was reserved for until it is sent. Outside an
     * HTTP request it is given back at once.
     */
    public void holdUntilResponseEnds(ByteBudget.Reservation reservation) {
        RoutingContext routing;
        try {
            routing = currentRequest != null && currentRequest.isResolvable()
                    ? currentRequest.get().getCurrent()
                    : null;
        } catch (ContextNotActiveException noRequest) {
            routing = null;
        }
        if (routing == null || routing.response().ended()) {
            reservation.close();
            return;
        }
        routing.addEndHandler(ended -> reservation.close());
    }
}
