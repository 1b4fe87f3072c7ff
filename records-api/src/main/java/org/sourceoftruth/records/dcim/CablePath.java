package org.sourceoftruth.records.dcim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Row;

/**
 * A traced path as NetBox's CablePath keeps it: steps of nodes ({@code <content type>:<id>}),
 * alternating near-end terminations, cables and far-end terminations, and whether every cable is
 * connected (active), the path reaches an endpoint (complete) or fans out (split).
 */
record CablePath(List<List<String>> steps, boolean active, boolean complete, boolean split) {

    static CablePath of(Row row) {
        List<List<String>> steps = new ArrayList<>();
        for (JsonNode step : (JsonNode) row.get("path")) {
            List<String> nodes = new ArrayList<>();
            step.forEach(n -> nodes.add(n.asText()));
            steps.add(nodes);
        }
        return new CablePath(
                steps,
                Boolean.TRUE.equals(row.get("is_active")),
                Boolean.TRUE.equals(row.get("is_complete")),
                Boolean.TRUE.equals(row.get("is_split")));
    }

    List<String> origins() {
        return steps.isEmpty() ? List.of() : steps.get(0);
    }

    /** Every node of every step. */
    List<String> nodes() {
        List<String> out = new ArrayList<>();
        steps.forEach(out::addAll);
        return out;
    }

    /** The objects the path ends on, when it is complete (NetBox's destinations). */
    List<ObjectRef> destinations() {
        if (!complete || steps.isEmpty()) {
            return List.of();
        }
        return steps.get(steps.size() - 1).stream().map(ObjectRef::ofNode).toList();
    }
}
