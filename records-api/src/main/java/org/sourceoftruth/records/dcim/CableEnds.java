package org.sourceoftruth.records.dcim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * A cable's {@code a_terminations} and {@code b_terminations} as a request sends them (lists of
 * {@code {object_type, object_id}}), checked as NetBox's Cable.clean() and CableTermination.clean()
 * check them, each problem reported under the end's field: known cabled types and existing
 * objects, no more objects on an end than its profile has connectors, one type per end,
 * compatible ends, not the same object on both ends, no object cabled already, none marked
 * connected, no virtual or wireless interface.
 */
final class CableEnds {
    private CableEnds() {}

    static final String A = "a_terminations";
    static final String B = "b_terminations";

    /** Cable.clean(): the ends of a cable as it would be stored. */
    static void check(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        if (row.get("length") != null && (row.get("length_unit") == null || "".equals(row.get("length_unit")))) {
            add(errors, "__all__", "Must specify a unit when setting a cable length");
            return;
        }
        List<ObjectRef> a = read(db, row.get(A), A, errors);
        List<ObjectRef> b = read(db, row.get(B), B, errors);
        if (!errors.isEmpty()) {
            return;
        }
        if (selfId == null && (a == null || a.isEmpty() || b == null || b.isEmpty())) {
            add(errors, "__all__", "Must define A and B terminations when creating a new cable.");
            return;
        }
        if (a == null) {
            a = stored(db, selfId, "A");
        }
        if (b == null) {
            b = stored(db, selfId, "B");
        }
        CableProfiles.Profile profile = CableProfiles.of(row.str("profile"));
        if (profile != null) {
            // BaseCableProfile.clean: no more objects on an end than the profile has connectors there
            for (String end : List.of("A", "B")) {
                List<ObjectRef> objects = end.equals("A") ? a : b;
                if (objects.size() > profile.connectors(end)) {
                    add(
                            errors,
                            end.equals("A") ? A : B,
                            end + " side of cable has " + objects.size() + " terminations but only "
                                    + profile.connectors(end) + " are permitted for profile " + profile.label());
                }
            }
            if (!errors.isEmpty()) {
                return;
            }
        }
        if (!sameType(a, A, errors) || !sameType(b, B, errors) || a.isEmpty() || b.isEmpty()) {
            return;
        }
        String aType = CableChoices.modelName(a.get(0).contentType());
        String bType = CableChoices.modelName(b.get(0).contentType());
        if (!CableChoices.COMPATIBLE.get(aType).contains(bType)) {
            add(errors, B, "Incompatible termination types: " + aType + " and " + bType);
            return;
        }
        if (a.stream().anyMatch(b::contains)) {
            add(errors, B, "A and B terminations cannot connect to the same object.");
            return;
        }
        terminable(db, a, selfId, A, errors);
        terminable(db, b, selfId, B, errors);
    }

    /** The end as sent, null when not sent; problems with the list itself go under {@code field}. */
    private static List<ObjectRef> read(Queries db, Object value, String field, Map<String, List<String>> errors) {
        if (value == null || value instanceof JsonNode n && n.isNull()) {
            return null;
        }
        JsonNode list = (JsonNode) value;
        if (!list.isArray()) {
            add(errors, field, "Expected a list of items but got type \"" + (list.isObject() ? "dict" : "str") + "\".");
            return null;
        }
        LinkedHashSet<ObjectRef> out = new LinkedHashSet<>();
        for (JsonNode item : list) {
            JsonNode type = item.get("object_type");
            JsonNode id = item.get("object_id");
            if (!item.isObject() || type == null || !type.isTextual() || id == null || !id.canConvertToLong()) {
                add(errors, field, "Each termination needs an object_type (\"app.model\") and an integer object_id.");
                return null;
            }
            if (!CableChoices.TERMINATION_TYPES.contains(type.asText())) {
                add(errors, field, "Invalid object type: " + type.asText() + " cannot be cabled.");
                return null;
            }
            ObjectRef ref = new ObjectRef(type.asText(), id.asLong());
            if (db.query("select 1 from " + table(ref) + " where id = ?", ref.id())
                    .isEmpty()) {
                add(errors, field, "Object not found: " + ref.contentType() + " " + ref.id() + ".");
                return null;
            }
            out.add(ref);
        }
        return new ArrayList<>(out);
    }

    private static boolean sameType(List<ObjectRef> end, String field, Map<String, List<String>> errors) {
        if (end.stream().map(ObjectRef::contentType).distinct().count() > 1) {
            add(errors, field, "Cannot connect different termination types to same end of cable.");
            return false;
        }
        return true;
    }

    /** CableTermination.clean() of each object of an end. */
    private static void terminable(
            Queries db, List<ObjectRef> end, Long selfId, String field, Map<String, List<String>> errors) {
        for (ObjectRef ref : end) {
            String problem = problem(db, ref, selfId);
            if (problem != null) {
                add(errors, field, problem);
                return;
            }
        }
    }

    /** Why {@code ref} may not take a cable end of cable {@code cableId} (null for a new cable), or null. */
    static String problem(Queries db, ObjectRef ref, Long cableId) {
        return problem(db, ref, cableId, null);
    }

    /**
     * Why {@code ref} may not take a cable end, or null: for a cable's ends ({@code terminationId}
     * null) a termination on another cable is a duplicate; for a termination written on its own,
     * any other termination is.
     */
    static String problem(Queries db, ObjectRef ref, Long cableId, Long terminationId) {
        List<Row> existing = db.query(
                "select id, cable_id from dcim_cabletermination where termination_type = ?" + " and termination_id = ?",
                ref.contentType(),
                ref.id());
        boolean duplicate = !existing.isEmpty()
                && (terminationId == null
                        ? !Objects.equals(existing.get(0).longValue("cable_id"), cableId)
                        : existing.get(0).id() != terminationId);
        if (duplicate) {
            return "Duplicate termination found for " + ref.contentType() + " " + ref.id() + ": cable "
                    + existing.get(0).longValue("cable_id");
        }
        Row marked = markedConnected(db, ref);
        if (marked != null) {
            return "Cannot connect a cable to " + marked.str("parent") + " > " + marked.str("name")
                    + " because it is marked as connected.";
        }
        if (ref.contentType().equals("dcim.interface")) {
            String type = db.query("select type from dcim_interface where id = ?", ref.id())
                    .get(0)
                    .str("type");
            if (!CableChoices.connectable(type)) {
                return "Cables cannot be terminated to " + DcimChoices.INTERFACE_TYPE.label(type) + " interfaces";
            }
        }
        return null;
    }

    /**
     * The object's name and its parent's (NetBox's parent_object: a component's device, a power
     * feed's panel, a circuit termination's circuit) when it is marked connected, else null.
     */
    private static Row markedConnected(Queries db, ObjectRef ref) {
        String sql = switch (ref.contentType()) {
            case "dcim.powerfeed" ->
                "select o.name, p.name as parent from dcim_powerfeed o join dcim_powerpanel p"
                        + " on p.id = o.power_panel_id where o.id = ? and o.mark_connected";
            case "circuits.circuittermination" ->
                "select c.cid || ': Termination ' || o.term_side as name, c.cid as parent"
                        + " from circuits_circuittermination o join circuits_circuit c on c.id = o.circuit_id"
                        + " where o.id = ? and o.mark_connected";
            default ->
                "select o.name, coalesce(d.name, '') as parent from " + table(ref) + " o join dcim_device d"
                        + " on d.id = o.device_id where o.id = ? and o.mark_connected";
        };
        List<Row> rows = db.query(sql, ref.id());
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The objects of one end of a stored cable. */
    static List<ObjectRef> stored(Queries db, Long cableId, String end) {
        if (cableId == null) {
            return List.of();
        }
        return db
                .query(
                        "select termination_type, termination_id from dcim_cabletermination where cable_id = ?"
                                + " and cable_end = ? order by id",
                        cableId,
                        end)
                .stream()
                .map(r -> new ObjectRef(r.str("termination_type"), r.longValue("termination_id")))
                .toList();
    }

    /** The end as sent, for a write known to be valid (null when not sent). */
    static List<ObjectRef> sent(Object value) {
        if (value == null || !(value instanceof JsonNode list) || !list.isArray()) {
            return null;
        }
        LinkedHashSet<ObjectRef> out = new LinkedHashSet<>();
        list.forEach(i -> out.add(
                new ObjectRef(i.get("object_type").asText(), i.get("object_id").asLong())));
        return new ArrayList<>(out);
    }

    static String table(ObjectRef ref) {
        return ref.contentType().replace('.', '_');
    }

    private static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }
}
