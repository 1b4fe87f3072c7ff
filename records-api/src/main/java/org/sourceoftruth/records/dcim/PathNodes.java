package org.sourceoftruth.records.dcim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Row;

/**
 * The objects of stored paths, rendered in nested form for a whole set of paths at once: one
 * query (and one render) per content type, however many hops the paths have.
 */
final class PathNodes {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final Map<String, JsonNode> nested = new HashMap<>();
    private static final String WIRELESS = "wireless.wirelesslink";
    /** Cables and wireless links by node, as rows, for the trace's link slot. */
    private final Map<String, Row> links = new HashMap<>();

    /** Loads every node of {@code paths}; links as rows too, for NetBox's TracedCableSerializer. */
    PathNodes(Db db, ModelRegistry registry, Renderer renderer, String baseUrl, List<CablePath> paths) {
        Map<String, Set<Long>> byType = new HashMap<>();
        paths.forEach(p -> p.nodes().forEach(n -> {
            ObjectRef ref = ObjectRef.ofNode(n);
            byType.computeIfAbsent(ref.contentType(), k -> new LinkedHashSet<>())
                    .add(ref.id());
        }));
        Renderer.Options opts = new Renderer.Options(baseUrl, Renderer.Mode.NESTED, null, Set.of());
        byType.forEach((type, ids) -> registry.byContentType(type).ifPresent(model -> {
            List<Row> rows = db.query(Db.byIds(model.selectFrom(), ids));
            List<ObjectNode> rendered = renderer.render(db, model, rows, opts);
            for (int i = 0; i < rows.size(); i++) {
                nested.put(type + ":" + rows.get(i).id(), rendered.get(i));
                if (type.equals("dcim.cable") || type.equals(WIRELESS)) {
                    links.put(type + ":" + rows.get(i).id(), rows.get(i));
                }
            }
        }));
    }

    /** A step's objects, stale (deleted) ones left out as NetBox's CablePath._get_path does. */
    JsonNode list(List<String> step) {
        ArrayNode out = NODES.arrayNode();
        step.forEach(n -> {
            JsonNode node = nested.get(n);
            if (node != null) {
                out.add(node.deepCopy());
            }
        });
        return out;
    }

    /**
     * NetBox's TracedCableSerializer of the step's first link, or {@code []} when the step has none
     * (the trace view leaves an empty step as it is). A wireless link gets the same serializer in
     * NetBox, which leaves out the cable attributes it lacks (label, color) and renders the
     * nullable ones (type, length, length_unit) as null; its url here is its own, where NetBox's
     * would name a cable of the same id.
     */
    JsonNode cable(List<String> step, Model cableModel, Model wirelessModel, String baseUrl) {
        for (String n : step) {
            Row c = links.get(n);
            if (c == null) {
                continue;
            }
            boolean wireless = n.startsWith(WIRELESS + ":");
            ObjectNode out = NODES.objectNode();
            out.put("id", c.id());
            out.put("url", Renderer.url(baseUrl, wireless ? wirelessModel : cableModel, c.id()));
            out.put("display_url", Renderer.displayUrl(baseUrl, wireless ? wirelessModel : cableModel, c.id()));
            out.put("type", wireless ? null : c.str("type"));
            out.put("status", c.str("status"));
            if (!wireless) {
                out.put("label", c.str("label"));
                out.put("color", c.str("color"));
            }
            if (wireless || c.get("length") == null) {
                out.putNull("length");
            } else {
                out.put("length", c.decimal("length").doubleValue());
            }
            out.put("length_unit", wireless ? null : c.str("length_unit"));
            out.put("description", c.str("description"));
            return out;
        }
        return NODES.arrayNode();
    }

    /** NetBox's PathEndpoint.trace(): the path as [near ends, cable, far ends] segments. */
    static List<List<List<String>>> segments(CablePath path) {
        List<List<String>> steps = new ArrayList<>(path.steps());
        if (steps.size() % 3 == 1) {
            steps.add(List.of()); // ends at a pass-through port without a cable
            steps.add(List.of());
        } else if (steps.size() % 3 == 2) {
            steps.add(steps.size() - 1, List.of()); // ends at a site: no cable to it
        }
        List<List<List<String>>> out = new ArrayList<>();
        for (int i = 0; i + 2 < steps.size(); i += 3) {
            out.add(List.of(steps.get(i), steps.get(i + 1), steps.get(i + 2)));
        }
        return out;
    }
}
