package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.CableLoaders.ids;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * Traces a cable path from its origin as NetBox's CablePath.from_origin does: across each cable
 * to its far end, from front ports to their rear port (remembering the position), from rear
 * ports to the front port of that position, from a circuit termination to the circuit's other
 * termination (a termination on a site without a cable ends the path there, one in a provider
 * network completes it), from an uncabled interface across its wireless link to the other
 * interface, until an endpoint or an end without a link. A few queries per cable crossed.
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

    /** The path from {@code origins} (objects of one type), or null when the first has no cable. */
    static CablePath trace(Queries db, String type, List<Long> origins) {
        List<List<String>> path = new ArrayList<>();
        Deque<List<Long>> positions = new ArrayDeque<>();
        boolean complete = false;
        boolean active = true;
        boolean split = false;
        List<Long> terminations = origins;
        while (!terminations.isEmpty() && path.size() < MAX_STEPS) {
            path.add(nodes(type, terminations));
            List<Row> links = db.query(
                    "select me.termination_id as near, me.cable_id, c.status, peer.termination_type,"
                            + " peer.termination_id from dcim_cabletermination me join dcim_cable c on c.id = me.cable_id"
                            + " left join dcim_cabletermination peer on peer.cable_id = me.cable_id and peer.cable_end <> me.cable_end"
                            + " where me.termination_type = ? and me.termination_id = any(?) order by me.id, peer.id",
                    type,
                    ids(terminations));
            if (links.isEmpty() && type.equals(INTERFACE)) {
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
            if (links.isEmpty()) {
                if (path.size() == 1) {
                    return null;
                }
                break;
            }
            Set<Long> linked = new LinkedHashSet<>();
            Set<String> cables = new LinkedHashSet<>();
            Map<String, Set<Long>> remote = new LinkedHashMap<>();
            for (Row l : links) {
                linked.add(l.longValue("near"));
                cables.add("dcim.cable:" + l.longValue("cable_id"));
                if (!"connected".equals(l.str("status"))) {
                    active = false;
                }
                if (l.get("termination_type") != null) {
                    remote.computeIfAbsent(l.str("termination_type"), k -> new LinkedHashSet<>())
                            .add(l.longValue("termination_id"));
                }
            }
            if (linked.size() < terminations.size()) {
                split = true; // asymmetric: some near ends have no cable
            }
            path.add(new ArrayList<>(cables));
            if (remote.size() > 1) {
                split = true; // far ends of different types
                break;
            }
            if (remote.isEmpty()) {
                path.add(List.of());
                break;
            }
            type = remote.keySet().iterator().next();
            List<Long> far = new ArrayList<>(remote.get(type));
            path.add(nodes(type, far));
            switch (type) {
                case FRONT -> {
                    List<Row> fronts = db.query(
                            "select f.rear_port_id, f.rear_port_position, r.positions from dcim_frontport f"
                                    + " join dcim_rearport r on r.id = f.rear_port_id where f.id = any(?) order by f.id",
                            ids(far));
                    Set<Long> rears = new LinkedHashSet<>();
                    fronts.forEach(f -> rears.add(f.longValue("rear_port_id")));
                    if (rears.size() > 1 || fronts.get(0).longValue("positions") > 1) {
                        positions.push(fronts.stream()
                                .map(f -> f.longValue("rear_port_position"))
                                .toList());
                    }
                    type = REAR;
                    terminations = new ArrayList<>(rears);
                }
                case REAR -> {
                    List<Row> rears = db.query("select id, positions from dcim_rearport where id = any(?)", ids(far));
                    List<Long> wanted;
                    if (rears.size() == 1 && rears.get(0).longValue("positions") == 1) {
                        wanted = List.of(1L);
                    } else if (!positions.isEmpty()) {
                        wanted = positions.pop();
                    } else {
                        split = true; // no position to follow: the path fans out at the rear port
                        terminations = List.of();
                        break;
                    }
                    terminations = db
                            .query(
                                    "select id from dcim_frontport where rear_port_id = any(?)"
                                            + " and rear_port_position = any(?) order by id",
                                    ids(far),
                                    ids(wanted))
                            .stream()
                            .map(Row::id)
                            .toList();
                    type = FRONT;
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

    private static List<String> nodes(String type, List<Long> ids) {
        return ids.stream().map(id -> type + ":" + id).toList();
    }
}
