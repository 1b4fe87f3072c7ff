package org.sourceoftruth.records.dcim;

import java.sql.Array;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.BatchLoader;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * Loads, for a page of cabled objects of one content type, their link peers (the objects at the
 * other end of their cable) and what their cable path reaches: one query per field and page,
 * the objects found rendered nested by the engine ({@link ObjectRef}).
 */
@SuppressWarnings("unchecked")
final class CableLoaders {
    private static final String INTERFACE = "dcim.interface";
    /** An interface's wireless link, read by the interface model's select. */
    private static final String WIRELESS_LINK = "_wireless_link_id";

    private CableLoaders() {}

    /** A cable's end as NetBox's GenericObjectSerializer shows it: object_type, object_id, object. */
    static BatchLoader cableEnd(String end) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            rows.forEach(r -> out.put(r.id(), new ArrayList<>()));
            for (Row r : db.query(
                    "select cable_id, termination_type, termination_id from dcim_cabletermination"
                            + " where cable_id = any(?) and cable_end = ? order by id",
                    ids(rows.stream().map(Row::id).toList()),
                    end)) {
                Map<String, Object> item = new java.util.LinkedHashMap<>();
                item.put("object_type", r.str("termination_type"));
                item.put("object_id", r.longValue("termination_id"));
                item.put("object", new ObjectRef(r.str("termination_type"), r.longValue("termination_id")));
                ((List<Object>) out.get(r.longValue("cable_id"))).add(item);
            }
            return out;
        };
    }

    /**
     * NetBox's link_peers: the objects at the other end of the cable, or for an interface without
     * a cable, the other interface of its wireless link (Interface.link_peers).
     */
    static BatchLoader linkPeers(String contentType) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            rows.forEach(r -> out.put(r.id(), List.of())); // never null: no cable, no peers
            peers(db, contentType, rows).forEach((id, refs) -> out.put(id, refs));
            if (contentType.equals(INTERFACE)) {
                wirelessPeers(db, rows).forEach((id, ref) -> {
                    // the map holds both ends of each link; only this page's uncabled rows take theirs
                    if (out.get(id) instanceof List<?> current && current.isEmpty()) {
                        out.put(id, List.of(ref));
                    }
                });
            }
            return out;
        };
    }

    /** The interface at the other end of each uncabled row's wireless link. */
    private static Map<Long, ObjectRef> wirelessPeers(Queries db, List<Row> rows) {
        Map<Long, ObjectRef> out = new HashMap<>();
        List<Long> links = rows.stream()
                .filter(r -> r.get("cable_id") == null && r.get(WIRELESS_LINK) != null)
                .map(r -> r.longValue(WIRELESS_LINK))
                .toList();
        if (links.isEmpty()) {
            return out;
        }
        for (Row l : db.query(
                "select interface_a_id, interface_b_id from wireless_wirelesslink where id = any(?)", ids(links))) {
            out.put(l.longValue("interface_a_id"), new ObjectRef(INTERFACE, l.longValue("interface_b_id")));
            out.put(l.longValue("interface_b_id"), new ObjectRef(INTERFACE, l.longValue("interface_a_id")));
        }
        return out;
    }

    static BatchLoader linkPeersType(String contentType) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            peers(db, contentType, rows)
                    .forEach((id, refs) -> out.put(id, refs.get(0).contentType()));
            return out;
        };
    }

    /** NetBox's connected_endpoints: the path's last step when the path is complete, else null. */
    static BatchLoader connectedEndpoints(String contentType) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            paths(db, contentType, rows).forEach((id, path) -> {
                List<ObjectRef> ends = path.destinations();
                if (!ends.isEmpty()) {
                    out.put(id, ends);
                }
            });
            return out;
        };
    }

    static BatchLoader connectedEndpointsType(String contentType) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            paths(db, contentType, rows).forEach((id, path) -> {
                List<ObjectRef> ends = path.destinations();
                if (!ends.isEmpty()) {
                    out.put(id, ends.get(0).contentType());
                }
            });
            return out;
        };
    }

    /**
     * NetBox's connected_endpoints_reachable: whether the path is complete and active, false when
     * the object has no path (NetBox 4.6's serializer; 4.4's answered null).
     */
    static BatchLoader reachable(String contentType) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            rows.forEach(r -> out.put(r.id(), false));
            paths(db, contentType, rows).forEach((id, path) -> out.put(id, path.complete() && path.active()));
            return out;
        };
    }

    /**
     * The objects at the other end of each row's cable, in termination order; on a cable with a
     * profile, those its lanes reach (NetBox's _get_profile_link_peers), in the order of the lanes.
     */
    private static Map<Long, List<ObjectRef>> peers(Queries db, String contentType, List<Row> rows) {
        Map<Long, List<ObjectRef>> out = new HashMap<>();
        List<Long> cabled = rows.stream()
                .filter(r -> r.get("cable_id") != null)
                .map(Row::id)
                .toList();
        if (cabled.isEmpty()) {
            return out;
        }
        Map<Long, Row> own = new HashMap<>();
        Map<Long, List<Row>> far = new HashMap<>();
        for (Row r : db.query(
                "select me.termination_id as own, me.cable_end, me.connector, me.positions, c.profile,"
                        + " peer.termination_type, peer.termination_id, peer.connector as peer_connector,"
                        + " peer.positions as peer_positions from dcim_cabletermination me"
                        + " join dcim_cable c on c.id = me.cable_id join dcim_cabletermination peer"
                        + " on peer.cable_id = me.cable_id and peer.cable_end <> me.cable_end"
                        + " where me.termination_type = ? and me.termination_id = any(?) order by peer.id",
                contentType,
                ids(cabled))) {
            own.putIfAbsent(r.longValue("own"), r);
            far.computeIfAbsent(r.longValue("own"), k -> new ArrayList<>()).add(r);
        }
        far.forEach((id, peers) -> {
            Row me = own.get(id);
            CableProfiles.Profile profile = CableProfiles.of(me.str("profile"));
            List<ObjectRef> refs = new ArrayList<>();
            if (profile == null) {
                peers.forEach(p -> refs.add(new ObjectRef(p.str("termination_type"), p.longValue("termination_id"))));
            } else if (me.get("connector") != null && me.get("positions") != null) {
                for (Object position : (List<?>) me.get("positions")) {
                    CableProfiles.Lane lane = profile.far(
                            me.str("cable_end"),
                            ((Number) me.get("connector")).intValue(),
                            ((Number) position).intValue());
                    for (Row p : peers) {
                        if (lane != null
                                && p.get("peer_connector") != null
                                && ((Number) p.get("peer_connector")).intValue() == lane.connector()
                                && p.get("peer_positions") != null
                                && ((List<?>) p.get("peer_positions"))
                                        .stream().anyMatch(v -> ((Number) v).intValue() == lane.position())) {
                            ObjectRef ref = new ObjectRef(p.str("termination_type"), p.longValue("termination_id"));
                            if (!refs.contains(ref)) {
                                refs.add(ref);
                            }
                        }
                    }
                }
            }
            if (!refs.isEmpty()) {
                out.put(id, refs);
            }
        });
        return out;
    }

    /** The stored path starting at each row, if any (only a cabled or wireless-linked object has one). */
    static Map<Long, CablePath> paths(Queries db, String contentType, List<Row> rows) {
        Map<Long, CablePath> out = new HashMap<>();
        List<String> origins = rows.stream()
                .filter(r -> r.get("cable_id") != null || r.get(WIRELESS_LINK) != null)
                .map(r -> contentType + ":" + r.id())
                .toList();
        if (origins.isEmpty()) {
            return out;
        }
        for (Row r : db.query(
                "select o, p.* from dcim_cablepath p, unnest(p.origins) o"
                        + " where p.origins && ?::text[] and o = any(?::text[])",
                texts(origins),
                texts(origins))) {
            out.put(ObjectRef.ofNode(r.str("o")).id(), CablePath.of(r));
        }
        return out;
    }

    /** The stored path starting at {@code origin} (a node), or null. */
    static CablePath pathFrom(Queries db, String origin) {
        List<Row> rows =
                db.query("select * from dcim_cablepath where origins @> array[?]::text[] order by id limit 1", origin);
        return rows.isEmpty() ? null : CablePath.of(rows.get(0));
    }

    static Object ids(List<Long> ids) {
        return new org.sourceoftruth.records.db.Db.SqlArray("bigint", ids);
    }

    static Object texts(List<String> values) {
        return new org.sourceoftruth.records.db.Db.SqlArray("text", values);
    }

    /** A text[] column as a list. */
    static List<String> textList(Object array) {
        if (array == null) {
            return List.of();
        }
        if (array instanceof Array sqlArray) {
            try {
                return List.of((String[]) sqlArray.getArray());
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        if (array instanceof String[] strings) {
            return List.of(strings);
        }
        if (array instanceof List<?> list) {
            return list.stream().map(Object::toString).toList();
        }
        throw new IllegalStateException("not a text array: " + array.getClass());
    }
}
