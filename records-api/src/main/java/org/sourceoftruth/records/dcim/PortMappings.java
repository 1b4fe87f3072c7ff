package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.CableLoaders.ids;
import static org.sourceoftruth.records.model.Fields.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sourceoftruth.records.model.BatchLoader;
import org.sourceoftruth.records.model.DbValidator;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.InstantiatedRows;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

/**
 * NetBox 4.5's port mappings (dcim.PortMapping, and dcim.PortTemplateMapping between the templates
 * of a device or module type) as the pass-through ports show and write them: a position of a
 * front port maps to a position of a rear port of the same device. A front port's
 * {@code rear_ports} and a rear port's {@code front_ports} are two views of the same rows, each a
 * list of {@code {position, <other port>, <other port>_position}} with the port's own position
 * first. Either side writes them (NetBox's PortSerializer): the list sent replaces the port's
 * mappings, writing only the difference; a write that leaves the list out leaves them as they
 * are.
 *
 * <p>A mapping is part of its front port: a change of mappings is a change of each front port it
 * touches, with that port's change record and event (written through the front port, its own
 * record; through a rear port, the rear port's record and one for each front port that gained or
 * lost a mapping; a deleted rear port, one for each front port that lost one). The port's
 * change-log snapshots show the list too. On devices, a change of mappings retraces the cable
 * paths through the ports it touches, as NetBox's PortMapping signals do.
 */
final class PortMappings {
    private PortMappings() {}

    /** One of the four views of the mappings: which port it is on and which port it names. */
    enum Side {
        FRONT("dcim_portmapping", "dcim.frontport", "front_port", "rear_port", "rear ports", List.of("device_id")),
        REAR("dcim_portmapping", "dcim.rearport", "rear_port", "front_port", "front ports", List.of("device_id")),
        FRONT_TEMPLATE(
                "dcim_porttemplatemapping",
                "dcim.frontporttemplate",
                "front_port",
                "rear_port",
                "rear port templates",
                List.of("device_type_id", "module_type_id")),
        REAR_TEMPLATE(
                "dcim_porttemplatemapping",
                "dcim.rearporttemplate",
                "rear_port",
                "front_port",
                "front port templates",
                List.of("device_type_id", "module_type_id"));

        /** The mappings' table. */
        final String table;
        /** The content type of the ports on this side. */
        final String contentType;
        /** This side's port in a mapping: {@code front_port} or {@code rear_port}. */
        final String own;
        /** The other side's port: the key of each item of the list. */
        final String other;
        /** How NetBox's positions check names the mapped ports. */
        final String mapped;
        /** The columns both ports of a mapping share: their device, or their device and module type. */
        final List<String> parents;

        Side(String table, String contentType, String own, String other, String mapped, List<String> parents) {
            this.table = table;
            this.contentType = contentType;
            this.own = own;
            this.other = other;
            this.mapped = mapped;
            this.parents = parents;
        }

        /** The list's field: a front port's {@code rear_ports}, a rear port's {@code front_ports}. */
        String field() {
            return other + "s";
        }

        String ownTable() {
            return contentType.replace('.', '_');
        }

        /** The other side's ports' table. */
        String otherTable() {
            String otherType = contentType.replace(own.replace("_", ""), other.replace("_", ""));
            return otherType.replace('.', '_');
        }

        boolean onDevices() {
            return parents.equals(List.of("device_id"));
        }

        /** The content type of the front ports of these mappings: whose change a mapping change is. */
        String frontPortType() {
            return own.equals("front_port") ? contentType : contentType.replace("rearport", "frontport");
        }

        /** "Rear port" / "Front port", as NetBox's messages name the other port. */
        String otherTitle() {
            return Character.toUpperCase(other.charAt(0)) + other.substring(1).replace('_', ' ');
        }
    }

    /** The list field of a side: read from the mapping rows, written through {@link #hook}. */
    static Field field(Side side) {
        return json(side.field())
                .requestOnly()
                .loader(loader(side))
                .snapshotted()
                .help("Mappings of this port's positions to positions of " + side.other.replace('_', ' ') + "s");
    }

    /** NetBox's {@code rear_port_id} (front ports) and {@code front_port_id} (rear ports) filters. */
    static ExtraFilter filter(Side side) {
        return ExtraFilters.each(
                        side.other + "_id",
                        Kind.INTEGER,
                        "{t}.id in (select m." + side.own + "_id from " + side.table + " m where m." + side.other
                                + "_id = ?)")
                .choicesFrom(side.otherTable(), "id");
    }

    /** The mappings of a page of ports: one query, in the order of the ports' own positions. */
    static BatchLoader loader(Side side) {
        return (db, rows) -> {
            Map<Long, Object> out = new HashMap<>();
            rows.forEach(r -> out.put(r.id(), new ArrayList<>()));
            for (Row m : db.query(
                    "select " + side.own + "_id as port, " + side.own + "_position as position, " + side.other
                            + "_id as other, " + side.other + "_position as other_position from " + side.table
                            + " where " + side.own + "_id = any(?) order by 1, 2",
                    ids(rows.stream().map(Row::id).toList()))) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("position", m.longValue("position"));
                item.put(side.other, m.longValue("other"));
                item.put(side.other + "_position", m.longValue("other_position"));
                @SuppressWarnings("unchecked")
                List<Object> list = (List<Object>) out.get(m.longValue("port"));
                list.add(item);
            }
            return out;
        };
    }

    /** One mapping as the list gives it: the port's position, the other port and its position. */
    record Item(long position, long other, long otherPosition) {}

    /**
     * The list as sent, checked as NetBox's serializers and PortMapping(Base).clean() check it,
     * and NetBox's positions check of the port: each problem under the list's field, naming the
     * item and its key.
     */
    static DbValidator check(Side side) {
        return (db, row, selfId, errors) -> {
            Object value = row.get(side.field());
            Long positions = row.longValue("positions");
            if (value == null) {
                if (selfId != null && positions != null) {
                    long mapped = count(db, side, selfId);
                    if (positions < mapped) {
                        ComponentShapes.fieldError(
                                errors,
                                "positions",
                                "The number of positions cannot be less than the number of mapped " + side.mapped + " ("
                                        + mapped + ")");
                    }
                }
                return;
            }
            List<Item> items = read(side, (JsonNode) value, positions == null ? 1 : positions, row, errors);
            if (items != null) {
                checkTargets(db, side, items, row, selfId, errors);
            }
        };
    }

    private static long count(Queries db, Side side, long port) {
        return ((Number) db.query("select count(*) as n from " + side.table + " where " + side.own + "_id = ?", port)
                        .get(0)
                        .get("n"))
                .longValue();
    }

    /** The items of the list, or null when any is malformed (each problem reported). */
    private static List<Item> read(
            Side side, JsonNode list, long positions, Row row, Map<String, List<String>> errors) {
        String field = side.field();
        if (!list.isArray()) {
            ComponentShapes.fieldError(
                    errors,
                    field,
                    "Expected a list of items but got type \"" + (list.isObject() ? "dict" : "str") + "\".");
            return null;
        }
        if (list.size() > positions) {
            ComponentShapes.fieldError(
                    errors,
                    field,
                    "Ensure this field has no more than " + positions + " elements (the port has " + positions
                            + " positions).");
            return null;
        }
        List<Item> items = new ArrayList<>();
        Set<Long> own = new HashSet<>();
        Set<List<Long>> targets = new HashSet<>();
        boolean bad = false;
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            String at = field + "[" + i + "]";
            if (!item.isObject()) {
                ComponentShapes.fieldError(
                        errors, field, at + ": Invalid data. Expected a dictionary, but got " + jsonType(item) + ".");
                bad = true;
                continue;
            }
            Long position = integer(item, "position", null, field, at, errors);
            Long other = pk(item, side.other, field, at, errors);
            Long otherPosition = integer(item, side.other + "_position", 1L, field, at, errors);
            if (position == null || other == null || otherPosition == null) {
                bad = true;
                continue;
            }
            if (position < 1 || position > positions) {
                ComponentShapes.fieldError(
                        errors,
                        field,
                        at + ".position: Invalid position (" + position + "): " + side.own.replace('_', ' ') + " "
                                + row.str("name") + " has only " + positions + " positions.");
                bad = true;
            } else if (!own.add(position)) {
                ComponentShapes.fieldError(errors, field, at + ".position: Position " + position + " is mapped twice.");
                bad = true;
            }
            if (otherPosition < 1 || otherPosition > 1024) {
                ComponentShapes.fieldError(
                        errors,
                        field,
                        at + "." + side.other + "_position: Ensure this value is "
                                + (otherPosition < 1 ? "greater than or equal to 1." : "less than or equal to 1024."));
                bad = true;
            } else if (!targets.add(List.of(other, otherPosition))) {
                ComponentShapes.fieldError(errors, field, at + ": " + uniqueSet(side));
                bad = true;
            }
            items.add(new Item(position, other, otherPosition));
        }
        return bad ? null : items;
    }

    /** DRF's UniqueTogetherValidator on the other port and its position. */
    private static String uniqueSet(Side side) {
        return "The fields " + side.other + ", " + side.other + "_position must make a unique set.";
    }

    /** An integer of the item (DRF's IntegerField), {@code dflt} when absent (null: required). */
    private static Long integer(
            JsonNode item, String key, Long dflt, String field, String at, Map<String, List<String>> errors) {
        JsonNode v = item.get(key);
        if (v == null) {
            if (dflt == null) {
                ComponentShapes.fieldError(errors, field, at + "." + key + ": This field is required.");
            }
            return dflt;
        }
        Long n = whole(v);
        if (n == null) {
            ComponentShapes.fieldError(errors, field, at + "." + key + ": A valid integer is required.");
        }
        return n;
    }

    /** The other port's id (DRF's PrimaryKeyRelatedField). */
    private static Long pk(JsonNode item, String key, String field, String at, Map<String, List<String>> errors) {
        JsonNode v = item.get(key);
        if (v == null) {
            ComponentShapes.fieldError(errors, field, at + "." + key + ": This field is required.");
            return null;
        }
        if (v.isNull()) {
            ComponentShapes.fieldError(errors, field, at + "." + key + ": This field may not be null.");
            return null;
        }
        Long id = whole(v);
        if (id == null) {
            ComponentShapes.fieldError(
                    errors,
                    field,
                    at + "." + key + ": Incorrect type. Expected pk value, received " + jsonType(v) + ".");
        }
        return id;
    }

    /** An integer, or its decimal text (as DRF takes "5"); null for anything else. */
    private static Long whole(JsonNode v) {
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.longValue();
        }
        if (v.isTextual() && v.asText().trim().matches("-?\\d{1,18}")) {
            return Long.parseLong(v.asText().trim());
        }
        return null;
    }

    private static String jsonType(JsonNode v) {
        if (v.isObject()) {
            return "dict";
        }
        if (v.isArray()) {
            return "list";
        }
        if (v.isTextual()) {
            return "str";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        return v.isNull() ? "NoneType" : v.isIntegralNumber() ? "int" : "float";
    }

    /**
     * The other ports exist, share the port's device (or device and module type), have the
     * position named, and no other port maps that position already.
     */
    private static void checkTargets(
            Queries db, Side side, List<Item> items, Row row, Long selfId, Map<String, List<String>> errors) {
        if (items.isEmpty()) {
            return;
        }
        String field = side.field();
        Map<Long, Row> others = new HashMap<>();
        for (Row r : db.query(
                "select id, name, label, positions, " + String.join(", ", side.parents) + " from " + side.otherTable()
                        + " where id = any(?)",
                ids(items.stream().map(Item::other).distinct().toList()))) {
            others.put(r.id(), r);
        }
        Map<List<Long>, Long> taken = new HashMap<>();
        for (Row m : db.query(
                "select " + side.other + "_id as other, " + side.other + "_position as position, " + side.own
                        + "_id as own from " + side.table + " where " + side.other + "_id = any(?)",
                ids(List.copyOf(others.keySet())))) {
            taken.put(List.of(m.longValue("other"), m.longValue("position")), m.longValue("own"));
        }
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            String at = field + "[" + i + "]." + side.other;
            Row other = others.get(item.other());
            if (other == null) {
                ComponentShapes.fieldError(
                        errors, field, at + ": Invalid pk \"" + item.other() + "\" - object does not exist.");
                continue;
            }
            if (!sameParent(side, row, other)) {
                ComponentShapes.fieldError(
                        errors,
                        field,
                        at + ": " + side.otherTitle() + " (" + ComponentShapes.nameAndLabel(other)
                                + ") must belong to the same " + parentName(side, row) + "");
                continue;
            }
            long otherPositions = other.longValue("positions");
            if (item.otherPosition() > otherPositions) {
                ComponentShapes.fieldError(
                        errors,
                        field,
                        at + "_position: Invalid " + side.other.replace('_', ' ') + " position (" + item.otherPosition()
                                + "): " + side.otherTitle() + " " + other.str("name") + " has only " + otherPositions
                                + " positions.");
                continue;
            }
            Long holder = taken.get(List.of(item.other(), item.otherPosition()));
            if (holder != null && !holder.equals(selfId)) {
                ComponentShapes.fieldError(errors, field, field + "[" + i + "]: " + uniqueSet(side));
            }
        }
    }

    private static boolean sameParent(Side side, Row row, Row other) {
        for (String parent : side.parents) {
            if (!Objects.equals(row.longValue(parent), other.longValue(parent))) {
                return false;
            }
        }
        return true;
    }

    private static String parentName(Side side, Row row) {
        if (side.onDevices()) {
            return "device";
        }
        return row.get("device_type_id") != null ? "device type" : "module type";
    }

    /**
     * Writes the mappings a port's list sets (right after the port's row, before its change
     * record), retraces the paths through what changed, and saves again the front ports a rear
     * port's list changed; before a rear port (template) is deleted, saves again the front ports
     * that lose their mappings to it.
     */
    static WriteHook hook(Side side) {
        return new WriteHook.OnWrittenRow() {
            @Override
            public List<FollowUp> afterWrite(Queries db, Row written, Row changes, Row existing) {
                Object sent = changes.get(side.field());
                Set<Long> changedOthers =
                        sent instanceof JsonNode list && list.isArray() ? reconcile(db, side, written, list) : Set.of();
                if (side.onDevices() && !changedOthers.isEmpty()) {
                    Set<String> nodes = new LinkedHashSet<>();
                    nodes.add(side.contentType + ":" + written.id());
                    String otherType = side.contentType.replace(side.own.replace("_", ""), side.other.replace("_", ""));
                    changedOthers.forEach(id -> nodes.add(otherType + ":" + id));
                    CablePaths.retrace(db, nodes, List.of());
                }
                return side.own.equals("front_port") ? List.of() : touches(db, side, changedOthers);
            }

            @Override
            public List<FollowUp> beforeDelete(Queries db, List<Row> deleted) {
                if (side.own.equals("front_port")) {
                    return List.of(); // the front port's own delete record covers its mappings
                }
                Set<Long> fronts = new LinkedHashSet<>();
                for (Row m : db.query(
                        "select distinct front_port_id from " + side.table + " where rear_port_id = any(?)"
                                + " order by front_port_id",
                        ids(deleted.stream().map(Row::id).toList()))) {
                    fronts.add(m.longValue("front_port_id"));
                }
                return touches(db, side, fronts);
            }
        };
    }

    /**
     * Makes the port's mappings those of the list: rows whose target changed or that the list
     * leaves out are deleted first (so that swapped positions never meet the unique constraints),
     * then the new ones inserted; unchanged rows stay as they are. Returns the other ports whose
     * mappings changed.
     */
    private static Set<Long> reconcile(Queries db, Side side, Row port, JsonNode list) {
        Map<Long, Item> wanted = new LinkedHashMap<>();
        for (JsonNode i : list) {
            Item item = new Item(
                    whole(i.get("position")),
                    whole(i.get(side.other)),
                    i.has(side.other + "_position") ? whole(i.get(side.other + "_position")) : 1L);
            wanted.put(item.position(), item);
        }
        Set<Long> changed = new LinkedHashSet<>();
        List<Long> stale = new ArrayList<>();
        Set<Long> kept = new HashSet<>();
        for (Row m : db.query(
                "select id, " + side.own + "_position as position, " + side.other + "_id as other, " + side.other
                        + "_position as other_position from " + side.table + " where " + side.own + "_id = ?"
                        + " order by id for update",
                port.id())) {
            Item now = new Item(m.longValue("position"), m.longValue("other"), m.longValue("other_position"));
            if (now.equals(wanted.get(now.position()))) {
                kept.add(now.position());
            } else {
                stale.add(m.id());
                changed.add(now.other());
            }
        }
        if (!stale.isEmpty()) {
            db.query("delete from " + side.table + " where id = any(?) returning id", ids(stale));
        }
        List<Item> fresh = wanted.values().stream()
                .filter(i -> !kept.contains(i.position()))
                .toList();
        if (!fresh.isEmpty()) {
            insert(db, side, port.id(), fresh);
            fresh.forEach(i -> changed.add(i.other()));
        }
        return changed;
    }

    /** Inserts mappings of one port; their device (or types) are the front port's. */
    private static void insert(Queries db, Side side, long port, List<Item> items) {
        boolean front = side.own.equals("front_port");
        List<Long> fronts = new ArrayList<>();
        List<Long> frontPositions = new ArrayList<>();
        List<Long> rears = new ArrayList<>();
        List<Long> rearPositions = new ArrayList<>();
        for (Item i : items) {
            fronts.add(front ? port : i.other());
            frontPositions.add(front ? i.position() : i.otherPosition());
            rears.add(front ? i.other() : port);
            rearPositions.add(front ? i.otherPosition() : i.position());
        }
        String frontTable = front ? side.ownTable() : side.otherTable();
        String parents = String.join(", ", side.parents);
        String fromFront =
                String.join(", ", side.parents.stream().map(p -> "f." + p).toList());
        db.query(
                "insert into " + side.table + " (" + parents + ", front_port_id, front_port_position, rear_port_id,"
                        + " rear_port_position) select " + fromFront + ", v.f, v.fp, v.r, v.rp from unnest(?::bigint[],"
                        + " ?::bigint[], ?::bigint[], ?::bigint[]) with ordinality as v(f, fp, r, rp, n) join "
                        + frontTable + " f on f.id = v.f order by v.n returning id",
                ids(fronts),
                ids(frontPositions),
                ids(rears),
                ids(rearPositions));
    }

    /** The front ports (still there) saved again: a change record and an event each. */
    private static List<WriteHook.FollowUp> touches(Queries db, Side side, Set<Long> fronts) {
        if (fronts.isEmpty()) {
            return List.of();
        }
        String type = side.frontPortType();
        List<WriteHook.FollowUp> out = new ArrayList<>();
        for (Row r : db.query(
                "select id from " + type.replace('.', '_') + " where id = any(?) order by id",
                ids(List.copyOf(fronts)))) {
            out.add(WriteHook.FollowUp.touch(type, r.id()));
        }
        return out;
    }

    /**
     * NetBox's create_port_mappings: the mappings of a device's (or module's) front ports made
     * from templates, copied from the templates' mappings to the rear ports made from their rear
     * port templates for the same owner (one query and one insert for all of them).
     */
    static InstantiatedRows fromTemplates() {
        return (db, made) -> {
            Map<Long, List<InstantiatedRows.Component>> byTemplate = new HashMap<>();
            made.components()
                    .forEach(c -> byTemplate
                            .computeIfAbsent(c.template(), k -> new ArrayList<>())
                            .add(c));
            List<Long> fronts = new ArrayList<>();
            List<Long> frontPositions = new ArrayList<>();
            List<Long> rears = new ArrayList<>();
            List<Long> rearPositions = new ArrayList<>();
            for (Row m : db.query(
                    "select front_port_id, front_port_position, rear_port_id, rear_port_position"
                            + " from dcim_porttemplatemapping where front_port_id = any(?) order by id",
                    ids(List.copyOf(byTemplate.keySet())))) {
                for (InstantiatedRows.Component front : byTemplate.get(m.longValue("front_port_id"))) {
                    Long rear = made.component("dcim.rearporttemplate", front.owner(), m.longValue("rear_port_id"));
                    if (rear != null) {
                        fronts.add(front.id());
                        frontPositions.add(m.longValue("front_port_position"));
                        rears.add(rear);
                        rearPositions.add(m.longValue("rear_port_position"));
                    }
                }
            }
            if (!fronts.isEmpty()) {
                db.query(
                        "insert into dcim_portmapping (device_id, front_port_id, front_port_position, rear_port_id,"
                                + " rear_port_position) select f.device_id, v.f, v.fp, v.r, v.rp from"
                                + " unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[]) with ordinality"
                                + " as v(f, fp, r, rp, n) join dcim_frontport f on f.id = v.f order by v.n returning id",
                        ids(fronts),
                        ids(frontPositions),
                        ids(rears),
                        ids(rearPositions));
            }
        };
    }
}
