package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.extras.ConfigContexts.Dimension;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * The active config contexts with their assignments, in merge order, and the parent links of
 * the trees their assignments need: everything matching needs except the facts of the objects
 * themselves. Immutable; {@link ConfigContextCache} replaces it when something it was built
 * from changes.
 */
final class ConfigContextSnapshot {
    static final ConfigContextSnapshot EMPTY = new ConfigContextSnapshot(List.of(), Map.of());

    /** Guards the ancestor walk against a cycle that a concurrent move could show for a moment. */
    private static final int MAX_TREE_DEPTH = 1000;

    /** One active context: its data and, per dimension, the assigned ids (none: matches all). */
    record Context(long id, JsonNode data, Map<Dimension, Set<Long>> assigned, Set<Long> tags) {
        Set<Long> assigned(Dimension d) {
            return assigned.getOrDefault(d, Set.of());
        }
    }

    /** What matching needs to know of one device or VM (see {@link ConfigContexts#factsQuery}). */
    record Facts(Map<Dimension, Long> values, Set<Long> tags) {}

    private final List<Context> contexts;
    /** Per tree table, child id to parent id. */
    private final Map<String, Map<Long, Long>> parents;

    private ConfigContextSnapshot(List<Context> contexts, Map<String, Map<Long, Long>> parents) {
        this.contexts = contexts;
        this.parents = parents;
    }

    boolean isEmpty() {
        return contexts.isEmpty();
    }

    /** Whether any context is assigned by tags (then the objects' tags are needed). */
    boolean usesTags() {
        return contexts.stream().anyMatch(c -> !c.tags().isEmpty());
    }

    int size() {
        return contexts.size();
    }

    /**
     * Reads the snapshot: one query for the active contexts and, when there are any, one for all
     * their assignments and one for the parent links of the trees those assignments use.
     */
    static ConfigContextSnapshot load(Queries db) {
        // The database orders by name (its collation), as the query this replaced did.
        List<Row> rows =
                db.query("select id, data from extras_configcontext where is_active order by weight, name, id");
        if (rows.isEmpty()) {
            return EMPTY;
        }
        Map<Long, Map<Dimension, Set<Long>>> assigned = new HashMap<>();
        Map<Long, Set<Long>> tags = new HashMap<>();
        for (Row a : db.query(assignmentsQuery())) {
            long context = a.longValue("context");
            long target = a.longValue("target");
            String dimension = a.str("dimension");
            if (dimension.equals("tags")) {
                tags.computeIfAbsent(context, k -> new HashSet<>()).add(target);
            } else {
                assigned.computeIfAbsent(context, k -> new EnumMap<>(Dimension.class))
                        .computeIfAbsent(Dimension.byField(dimension), k -> new HashSet<>())
                        .add(target);
            }
        }
        List<Context> contexts = new ArrayList<>(rows.size());
        Set<String> trees = new HashSet<>();
        for (Row r : rows) {
            Map<Dimension, Set<Long>> own = assigned.getOrDefault(r.id(), Map.of());
            own.keySet().stream().filter(d -> d.tree != null).forEach(d -> trees.add(d.tree));
            contexts.add(new Context(r.id(), (JsonNode) r.get("data"), own, tags.getOrDefault(r.id(), Set.of())));
        }
        return new ConfigContextSnapshot(List.copyOf(contexts), loadTrees(db, trees));
    }

    private static String assignmentsQuery() {
        StringBuilder sql = new StringBuilder();
        for (Dimension d : Dimension.values()) {
            sql.append("select '")
                    .append(d.field)
                    .append("' as dimension, configcontext_id as context, ")
                    .append(d.column)
                    .append(" as target from ")
                    .append(d.joinTable())
                    .append(" union all ");
        }
        return sql.append("select 'tags', object_id, tag_id from " + SystemTables.EXTRAS_TAGGEDITEM
                        + " where object_type = 'extras.configcontext'")
                .toString();
    }

    private static Map<String, Map<Long, Long>> loadTrees(Queries db, Collection<String> trees) {
        Map<String, Map<Long, Long>> parents = new HashMap<>();
        if (trees.isEmpty()) {
            return parents;
        }
        List<String> parts = trees.stream()
                .sorted()
                .map(t -> "select '" + t + "' as tree, id, parent_id from " + t + " where parent_id is not null")
                .toList();
        for (Row r : db.query(String.join(" union all ", parts))) {
            parents.computeIfAbsent(r.str("tree"), k -> new HashMap<>()).put(r.id(), r.longValue("parent_id"));
        }
        return parents;
    }

    /** The data of the contexts that apply to the object, in merge order. */
    List<JsonNode> matching(Facts facts, boolean device) {
        List<JsonNode> out = new ArrayList<>();
        for (Context c : contexts) {
            if (matches(c, facts, device)) {
                out.add(c.data());
            }
        }
        return out;
    }

    /**
     * NetBox's rule: every dimension is either unassigned or assigned something the object has
     * (in a tree, the object's node or one of its ancestors); a VM has no location or device type,
     * so a context assigned either never applies to one. Tags: the object carries one of them.
     */
    private boolean matches(Context c, Facts facts, boolean device) {
        for (Dimension d : Dimension.values()) {
            Set<Long> assigned = c.assigned(d);
            if (assigned.isEmpty()) {
                continue;
            }
            Long value = d.appliesTo(device) ? facts.values().get(d) : null;
            if (value == null || !reaches(d.tree, value, assigned)) {
                return false;
            }
        }
        return c.tags().isEmpty() || facts.tags().stream().anyMatch(c.tags()::contains);
    }

    /** Whether the node, or (in a tree) one of its ancestors, is in the set. */
    private boolean reaches(String tree, long node, Set<Long> set) {
        Map<Long, Long> up = tree == null ? Map.of() : parents.getOrDefault(tree, Map.of());
        Long current = node;
        for (int depth = 0; current != null && depth < MAX_TREE_DEPTH; depth++) {
            if (set.contains(current)) {
                return true;
            }
            current = up.get(current);
        }
        return false;
    }
}
