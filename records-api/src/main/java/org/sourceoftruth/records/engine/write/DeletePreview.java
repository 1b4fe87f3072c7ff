package org.sourceoftruth.records.engine.write;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.model.Model;

/**
 * What a DELETE of some objects would do, as its {@link DeletePlan} finds it, read without
 * locking or writing anything (for a confirmation page): the other objects it deletes with them
 * (the cascade), those that lose their reference to them, and those that protect them (then the
 * DELETE is refused with a 409). Each is grouped by model, with the count and the first few
 * objects.
 */
public record DeletePreview(List<Group> cascaded, List<Group> cleared, List<Group> protecting) {
    /** Objects of one model: how many and the first ones, in the order found (id order). */
    public record Group(Model model, int count, List<Item> first) {}

    /** One object: its id and its display text. */
    public record Item(long id, String display) {}

    public static final DeletePreview NOTHING = new DeletePreview(List.of(), List.of(), List.of());

    public boolean isRefused() {
        return !protecting.isEmpty();
    }

    /** The plan's touched rows, without the requested ones, keeping {@code names} items per model. */
    static DeletePreview of(DeletePlan plan, Model model, Set<Long> requested, int names) {
        List<DeletePlan.Touched> deleted = new ArrayList<>();
        for (DeletePlan.Touched t : plan.deletionsAsFound()) {
            if (t.model != model || !requested.contains(t.row.id())) {
                deleted.add(t);
            }
        }
        return new DeletePreview(
                groups(deleted, names),
                groups(plan.updatesAsFound(), names),
                groups(distinct(plan.protecting()), names));
    }

    private static List<DeletePlan.Touched> distinct(List<DeletePlan.Touched> touched) {
        Map<String, DeletePlan.Touched> out = new LinkedHashMap<>();
        touched.forEach(t -> out.putIfAbsent(t.model.contentType() + ":" + t.row.id(), t));
        return List.copyOf(out.values());
    }

    private static List<Group> groups(Collection<DeletePlan.Touched> touched, int names) {
        Map<Model, List<DeletePlan.Touched>> byModel = new LinkedHashMap<>();
        touched.forEach(
                t -> byModel.computeIfAbsent(t.model, m -> new ArrayList<>()).add(t));
        List<Group> out = new ArrayList<>();
        byModel.forEach((m, rows) -> {
            List<Item> first = new ArrayList<>();
            for (DeletePlan.Touched t : rows.subList(0, Math.min(names, rows.size()))) {
                first.add(new Item(t.row.id(), m.display(t.row)));
            }
            out.add(new Group(m, rows.size(), List.copyOf(first)));
        });
        return List.copyOf(out);
    }
}
