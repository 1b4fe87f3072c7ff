package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.CableLoaders.ids;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * Traces a cable path from its origin as NetBox 4.6's CablePath.from_origin does: across each
 * cable to its far end (along the lanes of the cable's profile when it has one), from front ports
 * through their port mappings to rear ports and back, remembering positions on a stack, from a
 * circuit termination to the circuit's other termination (a termination on a site without a
 * cable ends the path there, one in a provider network completes it), from an uncabled interface
 * across its wireless link to the other interface, until an endpoint or an end without a link.
 * Two queries per cable crossed.
 *
 * <p>The position stack: an endpoint on a profiled cable pushes its lanes; a profiled cable pops
 * the lanes it is entered on and pushes those it reaches on the far end; a pass-through port with
 * more than one position pops the positions it is entered on and follows only the mappings of
 * those positions, pushing the positions of the ports it reaches when they have several. A port
 * of several positions reached with no position to follow splits the path.
 */
final class PathTracer {
    private static final String FRONT = "dcim.frontport";
    private static final String REAR = "dcim.rearport";
    private static final String CIRCUIT = "circuits.circuittermination";
    private static final String INTERFACE = "dcim.interface";
    private static final String WIRELESS_LINK = "wireless.wirelesslink";
    private static final String PROVIDER_NETWORK = "circuits.providernetwork";
    /** Longer than any real path; stops a loop of patch panels cabled into a ring. */
    private static final int MAX_STEPS = 3 * 256;

    private PathTracer() {}

    /** A termination's cable end: its cable, end, connector and lanes, and the cable's status and profile. */
    private record End(
            long cable, String end, Integer connector, List<Integer> positions, String status, String profile) {}

    /** An object on the far end of a cable, with its connector and lanes there. */
    private record Peer(String type, long id, Integer connector, List<Integer> positions) {}

    /** The path from {@code origins} (objects of one type), or null when the first has no cable. */
    static CablePath trace(Queries db, String type, List<Long> origins) {
        List<List<String>> path = new ArrayList<>();
        Deque<List<Integer>> positions = new ArrayDeque<>();
        boolean complete = false;
        boolean active = true;
        boolean split = false;
        List<Long> terminations = origins;
        while (!terminations.isEmpty() && path.size() < MAX_STEPS) {
            Map<Long, End> ends = new HashMap<>();
            Map<Long, List<Peer>> peersByCable = new LinkedHashMap<>();
            for (Row l : db.query(
                    "select me.termination_id as near, me.cable_id, me.cable_end, me.connector, me.positions,"
                            + " c.status, c.profile, peer.termination_type, peer.termination_id,"
                            + " peer.connector as peer_connector, peer.positions as peer_positions"
                            + " from dcim_cabletermination me join dcim_cable c on c.id = me.cable_id"
                            + " left join dcim_cabletermination peer on peer.cable_id = me.cable_id and peer.cable_end <> me.cable_end"
                            + " where me.termination_type = ? and me.termination_id = any(?) order by me.id, peer.id",
                    type,
                    ids(terminations))) {
                long cable = l.longValue("cable_id");
                ends.putIfAbsent(
                        l.longValue("near"),
                        new End(
                                cable,
                                l.str("cable_end"),
                                integerOrNull(l.get("connector")),
                                integers(l.get("positions")),
                                l.str("status"),
                                l.str("profile")));
                List<Peer> peers = peersByCable.computeIfAbsent(cable, k -> new ArrayList<>());
                if (l.get("termination_type") != null) {
                    Peer p = new Peer(
                            l.str("termination_type"),
                            l.longValue("termination_id"),
                            integerOrNull(l.get("peer_connector")),
                            integers(l.get("peer_positions")));
                    if (peers.stream().noneMatch(q -> q.type().equals(p.type()) && q.id() == p.id())) {
                        peers.add(p);
                    }
                }
            }
            // a rear port fanning out to front ports on different cables, more than the positions followed
            Set<Long> linksOfTerminations = new LinkedHashSet<>();
            terminations.forEach(t ->
                    linksOfTerminations.add(ends.containsKey(t) ? ends.get(t).cable() : null));
            if (linksOfTerminations.size() > 1
                    && !positions.isEmpty()
                    && terminations.size() != positions.peek().size()) {
                split = true;
                break;
            }
            path.add(nodes(type, terminations));
            End first = ends.get(terminations.get(0));
            if (CableChoices.PATH_ENDPOINTS.contains(type)
                    && first != null
                    && !first.positions().isEmpty()) {
                positions.push(first.positions());
            }
            if (ends.isEmpty() && type.equals(INTERFACE)) {
                // an interface without a cable may have a wireless link (Interface.link): it reaches
                // the link's other interface, an endpoint
                List<Row> wireless = db.query(
                        "select id, status, case when interface_a_id = any(?) then interface_b_id"
                                + " else interface_a_id end as far from wireless_wirelesslink where interface_a_id = any(?)"
                                + " or interface_b_id = any(?) order by id",
                        ids(terminations),
                        ids(terminations),
                        ids(terminations));
                if (!wireless.isEmpty()) {
                    if (wireless.size() < terminations.size()) {
                        split = true;
                    }
                    path.add(wireless.stream()
                            .map(w -> WIRELESS_LINK + ":" + w.id())
                            .toList());
                    if (wireless.stream().anyMatch(w -> !"connected".equals(w.str("status")))) {
                        active = false;
                    }
                    path.add(nodes(
                            INTERFACE,
                            wireless.stream()
                                    .map(w -> w.longValue("far"))
                                    .distinct()
                                    .toList()));
                    complete = true;
                    break;
                }
            }
            if (ends.isEmpty()) {
                if (path.size() == 1) {
                    return null;
                }
                break;
            }
            if (ends.size() < terminations.size()) {
                split = true; // asymmetric: some near ends have no cable
            }
            Set<String> cables = new LinkedHashSet<>();
            for (Long t : terminations) {
                End e = ends.get(t);
                if (e != null) {
                    cables.add("dcim.cable:" + e.cable());
                    if (!"connected".equals(e.status())) {
                        active = false;
                    }
                }
            }
            path.add(new ArrayList<>(cables));
            String profileName = ends.get(terminations.stream()
                            .filter(ends::containsKey)
                            .findFirst()
                            .orElseThrow())
                    .profile();
            CableProfiles.Profile profile = CableProfiles.of(profileName);
            // the far ends (a null: a lane that reaches no termination)
            List<ObjectRef> remote = profile != null
                    ? alongLanes(profile, terminations, ends, peersByCable, positions)
                    : acrossCables(terminations, ends, peersByCable);
            if (!remote.isEmpty() && remote.stream().allMatch(Objects::isNull)) {
                remote = List.of();
            }
            if (remote.stream()
                            .map(r -> r == null ? null : r.contentType())
                            .distinct()
                            .count()
                    > 1) {
                split = true; // far ends of different types (or lanes that reach nothing beside others)
                break;
            }
            if (remote.isEmpty()) {
                path.add(List.of());
                break;
            }
            type = remote.get(0).contentType();
            List<Long> far = remote.stream().map(ObjectRef::id).toList();
            path.add(nodes(type, far));
            switch (type) {
                case FRONT, REAR -> {
                    Mapped next = throughMappings(db, type, far, positions);
                    if (next == null) {
                        split = true; // several positions and none to follow: the path fans out here
                        terminations = List.of();
                        break;
                    }
                    type = type.equals(FRONT) ? REAR : FRONT;
                    terminations = next.ports();
                    if (next.positions() != null) {
                        positions.push(next.positions());
                    }
                }
                case CIRCUIT -> {
                    if (far.size() > 1) {
                        split = true;
                        terminations = List.of();
                        break;
                    }
                    List<Row> peer = db.query(
                            "select p.id, p.termination_type, p.termination_id, p.cable_id"
                                    + " from circuits_circuittermination me join circuits_circuittermination p"
                                    + " on p.circuit_id = me.circuit_id and p.term_side <> me.term_side where me.id = ?",
                            far.get(0));
                    if (peer.isEmpty()) {
                        terminations = List.of();
                        break;
                    }
                    Row ct = peer.get(0);
                    if (PROVIDER_NETWORK.equals(ct.str("termination_type"))) {
                        // the circuit ends in a provider's network: the path is complete there
                        path.add(List.of(CIRCUIT + ":" + ct.id()));
                        path.add(List.of(PROVIDER_NETWORK + ":" + ct.longValue("termination_id")));
                        complete = true;
                        terminations = List.of();
                        break;
                    }
                    if (ct.get("cable_id") == null && ct.get("termination_type") != null) {
                        // the circuit ends at a site (or another place) without a cable
                        path.add(List.of(CIRCUIT + ":" + ct.id()));
                        path.add(List.of(ct.str("termination_type") + ":" + ct.longValue("termination_id")));
                        terminations = List.of();
                        break;
                    }
                    terminations = List.of(ct.id());
                }
                default -> {
                    complete = true; // an endpoint
                    terminations = List.of();
                }
            }
        }
        return new CablePath(path, active, complete, split);
    }

    /** Without a profile: every object on the far end of the terminations' cables. */
    private static List<ObjectRef> acrossCables(
            List<Long> terminations, Map<Long, End> ends, Map<Long, List<Peer>> peersByCable) {
        Set<Long> seen = new LinkedHashSet<>();
        List<ObjectRef> out = new ArrayList<>();
        for (Long t : terminations) {
            End e = ends.get(t);
            if (e != null && seen.add(e.cable())) {
                peersByCable.get(e.cable()).forEach(p -> out.add(new ObjectRef(p.type(), p.id())));
            }
        }
        return out;
    }

    /**
     * With a profile: the lanes followed (the stack's top, else the terminations' own lanes),
     * each paired with the termination carrying it, reach the far end's terminations through the
     * profile's mapping; the lanes reached are pushed for what comes next.
     */
    private static List<ObjectRef> alongLanes(
            CableProfiles.Profile profile,
            List<Long> terminations,
            Map<Long, End> ends,
            Map<Long, List<Peer>> peersByCable,
            Deque<List<Integer>> stack) {
        List<Integer> lanes;
        if (!stack.isEmpty()) {
            lanes = stack.pop();
        } else {
            lanes = new ArrayList<>();
            for (Long t : terminations) {
                if (ends.containsKey(t)) {
                    lanes.addAll(ends.get(t).positions());
                }
            }
        }
        // (termination, lane) pairs: each lane followed taken by the first termination carrying it
        Map<Integer, Integer> remaining = new HashMap<>();
        lanes.forEach(l -> {
            if (l != null) {
                remaining.merge(l, 1, Integer::sum);
            }
        });
        List<Long> pairTerminations = new ArrayList<>();
        List<Integer> pairLanes = new ArrayList<>();
        for (Long t : terminations) {
            End e = ends.get(t);
            if (e == null) {
                continue;
            }
            for (Integer lane : e.positions()) {
                if (remaining.getOrDefault(lane, 0) > 0) {
                    pairTerminations.add(t);
                    pairLanes.add(lane);
                    remaining.merge(lane, -1, Integer::sum);
                }
            }
        }
        if (pairTerminations.isEmpty()) {
            for (Integer lane : lanes.isEmpty() ? java.util.Collections.<Integer>singletonList(null) : lanes) {
                pairTerminations.add(terminations.get(0));
                pairLanes.add(lane);
            }
        }
        List<ObjectRef> remote = new ArrayList<>();
        List<Integer> reached = new ArrayList<>();
        for (int i = 0; i < pairTerminations.size(); i++) {
            End e = ends.get(pairTerminations.get(i));
            Integer lane = pairLanes.get(i);
            CableProfiles.Lane to = e == null || e.connector() == null || lane == null
                    ? null
                    : profile.far(e.end(), e.connector(), lane);
            Peer peer = null;
            if (to != null) {
                for (Peer p : peersByCable.get(e.cable())) {
                    if (Objects.equals(p.connector(), to.connector())
                            && p.positions().contains(to.position())) {
                        peer = p;
                        break;
                    }
                }
            }
            ObjectRef ref = peer == null ? null : new ObjectRef(peer.type(), peer.id());
            if (!remote.contains(ref)) {
                remote.add(ref);
            }
            reached.add(peer == null ? null : to.position());
        }
        stack.push(reached);
        return remote;
    }

    /** The ports a pass-through hop leads to, and the positions to push (null: none). */
    private record Mapped(List<Long> ports, List<Integer> positions) {}

    /**
     * From front ports to the rear ports their mappings name, or from rear ports to front ports:
     * a port of several positions follows the mappings of the positions on the stack's top (and
     * with none there, the path splits: null); the positions reached are pushed when a port
     * reached has several. No mapping ends the path (no ports).
     */
    private static Mapped throughMappings(Queries db, String type, List<Long> far, Deque<List<Integer>> stack) {
        boolean front = type.equals(FRONT);
        String own = front ? "front_port" : "rear_port";
        String other = front ? "rear_port" : "front_port";
        Map<Long, Long> portPositions = new HashMap<>();
        List<Row> mappings = new ArrayList<>();
        for (Row r : db.query(
                "select p.id as port, p.positions, m.id as mapping, m." + own + "_position as own_position, m." + other
                        + "_id as other, m." + other + "_position as other_position, o.positions as other_positions"
                        + " from " + (front ? "dcim_frontport" : "dcim_rearport") + " p"
                        + " left join dcim_portmapping m on m." + own + "_id = p.id"
                        + " left join " + (front ? "dcim_rearport" : "dcim_frontport") + " o on o.id = m." + other
                        + "_id"
                        + " where p.id = any(?) order by m.id",
                ids(far))) {
            portPositions.put(r.longValue("port"), r.longValue("positions"));
            if (r.get("mapping") != null) {
                mappings.add(r);
            }
        }
        Long firstPositions = portPositions.get(far.get(0));
        if (firstPositions != null && firstPositions > 1) {
            if (stack.isEmpty()) {
                return null;
            }
            List<Integer> followed = stack.pop();
            mappings = mappings.stream()
                    .filter(m -> followed.contains(((Number) m.get("own_position")).intValue()))
                    .toList();
        }
        Set<Long> ports = new LinkedHashSet<>();
        boolean several = false;
        List<Integer> reached = new ArrayList<>();
        for (Row m : mappings) {
            ports.add(m.longValue("other"));
            several |= m.longValue("other_positions") > 1;
            reached.add(((Number) m.get("other_position")).intValue());
        }
        return new Mapped(new ArrayList<>(ports), several ? reached : null);
    }

    private static Integer integerOrNull(Object v) {
        return v == null ? null : ((Number) v).intValue();
    }

    /** An integer[] column as a list (empty for null). */
    private static List<Integer> integers(Object v) {
        if (v == null) {
            return List.of();
        }
        List<Integer> out = new ArrayList<>();
        for (Object o : (List<?>) v) {
            out.add(((Number) o).intValue());
        }
        return out;
    }

    private static List<String> nodes(String type, List<Long> ids) {
        return ids.stream().map(id -> type + ":" + id).toList();
    }
}
