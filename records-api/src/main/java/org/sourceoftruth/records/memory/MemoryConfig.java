package org.sourceoftruth.records.memory;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How much of the heap large values may hold at once (see {@link HeapBudget}; docs/memory.md). */
@ConfigMapping(prefix = "sot.memory")
public interface MemoryConfig {
    /**
     * The share of the maximum heap (-Xmx) that the large values being read, rendered and sent
     * may hold together, in percent. The rest is the service's own: its caches, and every
     * request's ordinary work, which is bounded per request.
     */
    @WithDefault("40")
    int heapBudgetPercent();

    /**
     * A text or JSON value of more than this many bytes is large: a read does not fetch it with
     * the rest of its page, but reads its row on its own, under the heap budget, when the row is
     * written to the response.
     */
    @WithDefault("16384")
    int largeValueBytes();
}
