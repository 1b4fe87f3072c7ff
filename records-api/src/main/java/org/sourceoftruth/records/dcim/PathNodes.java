package org.sourceoftruth.records.dcim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Row;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The objects of stored paths, rendered in nested form for a whole set of paths at once: one
 * query (and one render) per content type, however many hops the paths have.
 */
final class PathNodes {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final Map<String, JsonNode> nested = new HashMap<>();
    private final Map<String, Row> cables = new HashMap<>();

    /** Loads every node of {@code paths}; cables as rows too, for NetBox's TracedCableSerializer. */
    PathNodes(Db db, ModelRegistry registry, Renderer renderer, String baseUrl, List<CablePath> paths) {
        Map<String, Set<Long>> byType = new HashMap<>();
        paths.forEach(p -> p.nodes().forEach(n -> {
            ObjectRef ref = ObjectRef.ofNode(n);
            byType.computeIfAbsent(ref.contentType(), k -> new LinkedHashSet<>()).add(ref.id());
        }));
        Renderer.Options opts = new Renderer.Options(baseUrl, Renderer.Mode.NESTED, null, Set.of());
        byType.forEach((type, ids) -> registry.byContentType(type).ifPresent(model -> {
            List<Row> rows = db.query(model.selectFrom() + " where t.id = any(?)", new Db.SqlArray("bigint", ids));
            List<ObjectNode> rendered = renderer.render(db, model, rows, opts);
            for (int i = 0; i < rows.size(); i++) {
                nested.put(type + ":" + rows.get(i).id(), rendered.get(i));
                if (type.equals("dcim.cable")) {
                    cables.put(type + ":" + rows.get(i).id(), rows.get(i));
                }
            }
        }));
    }

    /** A step's objects (stale ones left out), or null when none is left, as NetBox shows a missing end. */
    JsonNode step(List<String> step) {
        ArrayNode out = NODES.arrayNode();
        step.forEach(n -> {
            JsonNode node = nested.get(n);
            if (node != null) {
                out.add(node.deepCopy());
            }
        });
        return out.isEmpty() ? NODES.nullNode() : out;
    }

    /** The step's objects as a list, empty when none (CablePathSerializer). */
    JsonNode list(List<String> step) {
        JsonNode s = step(step);
        return s.isNull() ? NODES.arrayNode() : s;
    }

    /** NetBox's TracedCableSerializer of the step's first cable, or null. */
    JsonNode cable(List<String> step, Model cableModel, String baseUrl) {
        for (String n : step) {
            Row c = cables.get(n);
            if (c != null) {
                ObjectNode out = NODES.objectNode();
                out.put("id", c.id());
                out.put("url", Renderer.url(baseUrl, cableModel, c.id()));
                out.put("type", c.str("type"));
                out.put("status", c.str("status"));
                out.put("label", c.str("label"));
                out.put("color", c.str("color"));
                if (c.get("length") == null) {
                    out.putNull("length");
                } else {
                    out.put("length", c.decimal("length").doubleValue());
                }
                out.put("length_unit", c.str("length_unit"));
                out.put("description", c.str("description"));
                return out;
            }
        }
        return NODES.nullNode();
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
