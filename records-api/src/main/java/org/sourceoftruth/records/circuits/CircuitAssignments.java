package org.sourceoftruth.records.circuits;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

/**
 * A circuit's {@code assignments} as written. NetBox's CircuitSerializer declares the field
 * writable (a nested serializer, many=True, required=False), so its items name existing circuit
 * group assignments (ids, or objects with an id, as every nested relation is written here); the
 * circuit's assignments become exactly those, with Django's GenericRelation.set() semantics:
 * listed assignments of other members move to this circuit, this circuit's unlisted ones are
 * deleted (a generic relation cannot be set to null). NetBox 4.4 itself does not get there: its
 * model names the relation {@code group_assignments}, so its serializer's {@code assignments}
 * fails on write (Circuit() takes no such keyword) and is skipped on read; here the write does
 * what the field promises. Each move or delete goes through the engine, with its change record
 * and event; sending no {@code assignments} changes none.
 */
final class CircuitAssignments implements WriteHook {
    static final String MEMBER_TYPE = "circuits.circuit";

    @Override
    @SuppressWarnings("unchecked")
    public List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
        Object sent = changes.get("assignments");
        if (!(sent instanceof List<?>)) {
            return List.of();
        }
        Set<Long> wanted = new LinkedHashSet<>((List<Long>) sent);
        Set<Long> current = new LinkedHashSet<>();
        db.query(
                        "select id from circuits_circuitgroupassignment where member_type = ? and member_id = ? order by id",
                        MEMBER_TYPE,
                        written.id())
                .forEach(r -> current.add(r.id()));
        List<FollowUp> out = new ArrayList<>();
        // deletes first: a moved assignment may take the group an unlisted one holds
        for (Long id : current) {
            if (!wanted.contains(id)) {
                out.add(FollowUp.delete("circuits.circuitgroupassignment", id));
            }
        }
        for (Long id : wanted) {
            if (!current.contains(id)) {
                out.add(new FollowUp(
                        "circuits.circuitgroupassignment",
                        id,
                        Map.of("member_type", MEMBER_TYPE, "member_id", written.id())));
            }
        }
        return out;
    }
}
