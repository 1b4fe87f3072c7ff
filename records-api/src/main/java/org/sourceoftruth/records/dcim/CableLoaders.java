package org.sourceoftruth.records.dcim;

import org.sourceoftruth.records.model.BatchLoader;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

import java.sql.Array;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads, for a page of cabled objects of one content type, their link peers (the objects at the
 * other end of their cable) and what their cable path reaches: one query per field and page,
 * the objects found rendered nested by the engine ({@link ObjectRef}).
 */
@SuppressWarnings("unchecked")
final class CableLoaders {
    private CableLoaders() {
    }

    /** A cable's end as NetBox's GenericObjectSerializer shows it: object_type, object_id, object. */
    static BatchLoader cableEnd(String end) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            rows.forEach(r -> out.put(r.id(), new ArrayList<>()));
            for (Row r : db.query("select cable_id, termination_type, termination_id from dcim_cabletermination"
                    + " where cable_id = any(?) and cable_end = ? order by id", ids(rows.stream().map(Row::id).toList()), end)) {
                Map<String, Object> item = new java.util.LinkedHashMap<>();
                item.put("object_type", r.str("termination_type"));
                item.put("object_id", r.longValue("termination_id"));
                item.put("object", new ObjectRef(r.str("termination_type"), r.longValue("termination_id")));
                ((List<Object>) out.get(r.longValue("cable_id"))).add(item);
            }
            return out;
        };
    }

    static BatchLoader linkPeers(String contentType) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            rows.forEach(r -> out.put(r.id(), List.of())); // never null: no cable, no peers
            peers(db, contentType, rows).forEach((id, refs) -> out.put(id, refs));
            return out;
        };
    }

    static BatchLoader linkPeersType(String contentType) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            peers(db, contentType, rows).forEach((id, refs) -> out.put(id, refs.get(0).contentType()));
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

    static BatchLoader reachable(String contentType) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            rows.forEach(r -> out.put(r.id(), false));
            paths(db, contentType, rows).forEach((id, path) -> out.put(id, path.complete() && path.active()));
            return out;
        };
    }

    /** The objects at the other end of each row's cable, in termination order. */
    private static Map<Long, List<ObjectRef>> peers(Queries db, String contentType, List<Row> rows) {
        Map<Long, List<ObjectRef>> out = new HashMap<>();
        List<Long> cabled = rows.stream().filter(r -> r.get("cable_id") != null).map(Row::id).toList();
        if (cabled.isEmpty()) {
            return out;
        }
        for (Row r : db.query("select me.termination_id as own, peer.termination_type, peer.termination_id"
                + " from dcim_cabletermination me join dcim_cabletermination peer on peer.cable_id = me.cable_id"
                + " and peer.cable_end <> me.cable_end where me.termination_type = ? and me.termination_id = any(?)"
                + " order by peer.id", contentType, ids(cabled))) {
            out.computeIfAbsent(r.longValue("own"), k -> new ArrayList<>())
                    .add(new ObjectRef(r.str("termination_type"), r.longValue("termination_id")));
        }
        return out;
    }

    /** The stored path starting at each row, if any. */
    static Map<Long, CablePath> paths(Queries db, String contentType, List<Row> rows) {
        Map<Long, CablePath> out = new HashMap<>();
        List<String> origins = rows.stream().filter(r -> r.get("cable_id") != null)
                .map(r -> contentType + ":" + r.id()).toList();
        if (origins.isEmpty()) {
            return out;
        }
        for (Row r : db.query("select o, p.* from dcim_cablepath p, unnest(p.origins) o"
                + " where p.origins && ?::text[] and o = any(?::text[])", texts(origins), texts(origins))) {
            out.put(ObjectRef.ofNode(r.str("o")).id(), CablePath.of(r));
        }
        return out;
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
