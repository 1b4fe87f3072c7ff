package org.sourceoftruth.records.engine.render;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.model.memory.ByteBudget;
import org.sourceoftruth.records.memory.HeapBudget;

/**
 * The objects of a read response, in their order: some rendered already, others left to be read
 * and rendered when the response is written, a group at a time ({@link Later}). Rows that hold
 * large values ({@link org.sourceoftruth.records.engine.store.LargeValues}) are read that way
 * under a {@link HeapBudget} reservation, so that a response never holds more than one such group
 * in the heap, and responses together never more than the budget; so are the rows of pages too
 * long to render at once.
 */
public final class RenderedRows {
    /** Consecutive objects of the response. */
    public sealed interface Part permits Rendered, Later {
        int size();
    }

    /** Objects rendered with their page. */
    public record Rendered(List<ObjectNode> nodes) implements Part {
        @Override
        public int size() {
            return nodes.size();
        }
    }

    /**
     * Rows to read by id and render when written; {@code heap} is what they may take meanwhile
     * (reserved from the budget; 0 for rows of ordinary size).
     */
    public record Later(List<Long> ids, long heap) implements Part {
        @Override
        public int size() {
            return ids.size();
        }
    }

    /** Reads and renders rows by id, in the order of the ids; a row deleted since is left out. */
    @FunctionalInterface
    public interface Reader {
        List<ObjectNode> render(List<Long> ids);
    }

    private final List<Part> parts;
    private final Reader reader;

    public RenderedRows(List<Part> parts, Reader reader) {
        this.parts = List.copyOf(parts);
        this.reader = reader;
    }

    /** Objects that are all rendered already. */
    public static RenderedRows of(List<ObjectNode> nodes) {
        return new RenderedRows(List.of(new Rendered(nodes)), ids -> List.of());
    }

    /** How many objects the response holds (rows deleted before they are read are still counted). */
    public int size() {
        int n = 0;
        for (Part part : parts) {
            n += part.size();
        }
        return n;
    }

    /** Whether every object is rendered already (nothing is read when the response is written). */
    public boolean isRendered() {
        return parts.stream().allMatch(Rendered.class::isInstance);
    }

    public List<Part> parts() {
        return parts;
    }

    /**
     * The heap holding every object at once takes: the large rows' reserved estimate, and
     * {@code perObject} for each object.
     */
    public long heapEstimate(long perObject) {
        long bytes = 0;
        for (Part part : parts) {
            bytes += part.size() * perObject + (part instanceof Later later ? later.heap() : 0);
        }
        return bytes;
    }

    /**
     * Every object, rendered now: for callers that need them all at once (an export template, a
     * rack's elevation). Large rows are read outside the heap budget here.
     */
    public List<ObjectNode> all() {
        List<ObjectNode> out = new ArrayList<>(size());
        for (Part part : parts) {
            if (part instanceof Rendered rendered) {
                out.addAll(rendered.nodes());
            } else {
                out.addAll(reader.render(((Later) part).ids()));
            }
        }
        return out;
    }

    /**
     * Writes the objects as the elements of a JSON array (the generator is inside it): each
     * group left for later is read, rendered and written under a reservation of its heap, which is
     * given back before the next group is read.
     */
    public void write(JsonGenerator json, HeapBudget budget) throws IOException {
        for (Part part : parts) {
            if (part instanceof Rendered rendered) {
                for (ObjectNode node : rendered.nodes()) {
                    json.writeTree(node);
                }
                continue;
            }
            Later later = (Later) part;
            if (later.heap() <= 0) {
                writeAll(json, reader.render(later.ids()));
                continue;
            }
            try (ByteBudget.Reservation reserved = budget.reserve(later.heap())) {
                writeAll(json, reader.render(later.ids()));
            }
        }
    }

    /** The one object of a detail response, written as it is read under the heap budget; false when it was deleted meanwhile. */
    public boolean writeOne(JsonGenerator json, HeapBudget budget) throws IOException {
        List<ObjectNode> one;
        Part part = parts.get(0);
        if (part instanceof Rendered rendered) {
            one = rendered.nodes();
        } else {
            try (ByteBudget.Reservation reserved = budget.reserve(((Later) part).heap())) {
                one = reader.render(((Later) part).ids());
                if (!one.isEmpty()) {
                    json.writeTree(one.get(0));
                }
            }
            return !one.isEmpty();
        }
        if (!one.isEmpty()) {
            json.writeTree(one.get(0));
        }
        return !one.isEmpty();
    }

    private static void writeAll(JsonGenerator json, List<ObjectNode> nodes) throws IOException {
        for (ObjectNode node : nodes) {
            json.writeTree(node);
        }
    }
}
