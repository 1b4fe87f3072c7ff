package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.CableLoaders.texts;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * Keeps the stored paths (dcim_cablepath) true to the cables, in the transaction of the change,
 * as NetBox's trace_paths and retrace signals do: every path through a changed node (a cable, an
 * object that gained or lost a cable end) is dropped, then traced again from its origins and
 * from the endpoints among the changed objects. Paths are derived data, not API objects: they
 * are written here directly.
 */
final class CablePaths {
    private CablePaths() {}

    /** Retraces the paths through {@code nodes} and from the path endpoints among {@code objects}. */
    static void retrace(Queries db, Collection<String> nodes, Collection<ObjectRef> objects) {
        Set<String> origins = new LinkedHashSet<>();
        if (!nodes.isEmpty()) {
            for (Row r : db.query(
                    "delete from dcim_cablepath where nodes && ?::text[] returning origins",
                    texts(List.copyOf(nodes)))) {
                origins.addAll(CableLoaders.textList(r.get("origins")));
            }
        }
        for (ObjectRef o : objects) {
            if (CableChoices.PATH_ENDPOINTS.contains(o.contentType())) {
                origins.add(o.node());
            }
        }
        if (origins.isEmpty()) {
            return;
        }
        db.query("delete from dcim_cablepath where origins && ?::text[] returning id", texts(List.copyOf(origins)));
        for (String origin : origins) {
            ObjectRef ref = ObjectRef.ofNode(origin);
            if (!exists(db, ref)) {
                continue; // deleted with the change
            }
            CablePath path = PathTracer.trace(db, ref.contentType(), List.of(ref.id()));
            if (path != null) {
                store(db, path);
            }
        }
    }

    private static boolean exists(Queries db, ObjectRef ref) {
        return !db.query("select 1 from " + ref.contentType().replace('.', '_') + " where id = ?", ref.id())
                .isEmpty();
    }

    private static void store(Queries db, CablePath path) {
        ArrayNode steps = JsonNodeFactory.instance.arrayNode();
        path.steps().forEach(step -> {
            ArrayNode s = steps.addArray();
            step.forEach(s::add);
        });
        db.query(
                "insert into dcim_cablepath (path, origins, nodes, is_active, is_complete, is_split)"
                        + " values (?, ?::text[], ?::text[], ?, ?, ?) returning id",
                steps,
                texts(path.origins()),
                texts(new ArrayList<>(path.nodes())),
                path.active(),
                path.complete(),
                path.split());
    }
}
