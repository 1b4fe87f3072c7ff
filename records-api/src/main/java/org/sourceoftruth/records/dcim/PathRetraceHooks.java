package org.sourceoftruth.records.dcim;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

/**
 * Writes besides cables and their terminations that change where a path goes, each retracing the
 * stored paths through what it changed in the write's transaction (as NetBox's signals do, and
 * where NetBox misses a case, more):
 * <ul>
 * <li>a pass-through port's number of positions, and its delete (a change of its port
 *     mappings retraces in {@link PortMappings});</li>
 * <li>a circuit termination's circuit, side or place (circuits' rebuild_cablepaths: the peer's
 *     paths; here its own and its old peer's too, which NetBox leaves stale);</li>
 * <li>a wireless link (wireless' update_connected_interfaces / nullify_connected_interfaces):
 *     its interfaces are traced again and saved again, so their change records and events show
 *     the link coming and going.</li>
 * </ul>
 * Paths are derived data: retracing writes no change record of its own, as for cables.
 */
public final class PathRetraceHooks {
    private PathRetraceHooks() {}

    /**
     * On dcim.frontport and dcim.rearport: a change of positions decides whether paths through
     * the port follow a position; a deleted port leaves the paths that reached it (the paths
     * through its port mappings are retraced with them, see {@link PortMappings}).
     */
    public static WriteHook passThroughPort(String contentType) {
        return new WriteHook() {
            @Override
            public List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
                if (existing != null && !same(existing, written, "positions")) {
                    CablePaths.retrace(db, List.of(contentType + ":" + written.id()), List.of());
                }
                return List.of();
            }

            @Override
            public List<FollowUp> afterDelete(Queries db, List<Row> deleted) {
                CablePaths.retrace(
                        db,
                        deleted.stream().map(r -> contentType + ":" + r.id()).toList(),
                        List.of());
                return List.of();
            }
        };
    }

    /** On circuits.circuittermination: paths through it and through the other ends of its old and new circuit. */
    public static WriteHook circuitTermination() {
        return new WriteHook() {
            @Override
            public List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
                if (existing != null
                        && same(existing, written, "circuit_id", "term_side", "termination_type", "termination_id")) {
                    return List.of();
                }
                List<Row> states = existing == null ? List.of(written) : List.of(existing, written);
                if (existing != null && !same(existing, written, "termination_type", "termination_id")) {
                    // the cable end's cached place (site, location) follows the termination's new place
                    db.query(
                            "update dcim_cabletermination set termination_id = termination_id where termination_type"
                                    + " = 'circuits.circuittermination' and termination_id = ? returning id",
                            written.id());
                }
                CablePaths.retrace(db, throughCircuits(db, written.id(), states), List.of());
                return List.of();
            }

            @Override
            public List<FollowUp> afterDelete(Queries db, List<Row> deleted) {
                Set<String> nodes = new LinkedHashSet<>();
                for (Row r : deleted) {
                    nodes.addAll(throughCircuits(db, r.id(), List.of(r)));
                }
                CablePaths.retrace(db, nodes, List.of());
                return List.of();
            }
        };
    }

    /** The termination and every termination of the circuits it was or is on. */
    private static Set<String> throughCircuits(Queries db, long termination, List<Row> states) {
        Set<String> nodes = new LinkedHashSet<>();
        nodes.add("circuits.circuittermination:" + termination);
        List<Long> circuits = states.stream()
                .map(r -> r.longValue("circuit_id"))
                .filter(Objects::nonNull)
                .distinct()
                .toList();
        for (Row peer : db.query(
                "select id from circuits_circuittermination where circuit_id = any(?)", CableLoaders.ids(circuits))) {
            nodes.add("circuits.circuittermination:" + peer.id());
        }
        return nodes;
    }

    /** On wireless.wirelesslink: its interfaces traced again and saved again. */
    public static WriteHook wirelessLink() {
        return new WriteHook() {
            @Override
            public List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
                if (existing != null && same(existing, written, "interface_a_id", "interface_b_id", "status")) {
                    return List.of();
                }
                List<ObjectRef> ends = new ArrayList<>();
                for (Row r : existing == null ? List.of(written) : List.of(existing, written)) {
                    addEnds(ends, r);
                }
                CablePaths.retrace(db, nodes(written.id(), ends), ends);
                if (existing == null) {
                    return touches(db, ends);
                }
                // an interface's wireless_link changes only when it joins or leaves the link
                List<ObjectRef> before = new ArrayList<>();
                addEnds(before, existing);
                return touches(
                        db,
                        ends.stream()
                                .filter(e -> before.contains(e) != isEnd(written, e))
                                .toList());
            }

            @Override
            public List<FollowUp> afterDelete(Queries db, List<Row> deleted) {
                List<ObjectRef> ends = new ArrayList<>();
                Set<String> nodes = new LinkedHashSet<>();
                for (Row r : deleted) {
                    List<ObjectRef> own = new ArrayList<>();
                    addEnds(own, r);
                    ends.addAll(own);
                    nodes.addAll(nodes(r.id(), own));
                }
                CablePaths.retrace(db, nodes, ends);
                return touches(db, ends);
            }
        };
    }

    private static boolean isEnd(Row link, ObjectRef iface) {
        return iface.id() == Objects.requireNonNullElse(link.longValue("interface_a_id"), -1L)
                || iface.id() == Objects.requireNonNullElse(link.longValue("interface_b_id"), -1L);
    }

    private static void addEnds(List<ObjectRef> ends, Row link) {
        for (String end : List.of("interface_a_id", "interface_b_id")) {
            Long id = link.longValue(end);
            ObjectRef ref = id == null ? null : new ObjectRef("dcim.interface", id);
            if (ref != null && !ends.contains(ref)) {
                ends.add(ref);
            }
        }
    }

    private static List<String> nodes(long link, List<ObjectRef> ends) {
        List<String> out = new ArrayList<>();
        out.add("wireless.wirelesslink:" + link);
        ends.forEach(e -> out.add(e.node()));
        return out;
    }

    /** The interfaces that still exist, saved again: a change record and an event each. */
    private static List<WriteHook.FollowUp> touches(Queries db, List<ObjectRef> ends) {
        if (ends.isEmpty()) {
            return List.of();
        }
        List<WriteHook.FollowUp> out = new ArrayList<>();
        for (Row r : db.query(
                "select id from dcim_interface where id = any(?) order by id",
                CableLoaders.ids(ends.stream().map(ObjectRef::id).toList()))) {
            out.add(WriteHook.FollowUp.touch("dcim.interface", r.id()));
        }
        return out;
    }

    private static boolean same(Row before, Row after, String... columns) {
        for (String c : columns) {
            if (!Objects.equals(String.valueOf(before.get(c)), String.valueOf(after.get(c)))) {
                return false;
            }
        }
        return true;
    }
}
