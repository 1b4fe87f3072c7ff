package org.sourceoftruth.records.dcim;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

/**
 * What Cable.save() and CableTermination.save()/delete() do besides storing the row: a cable's
 * ends become terminations (created and deleted through the engine, each with its change
 * record), and each termination written or deleted retraces the paths through it and saves the
 * object it is on again, so that the object's change record and event show its new cable.
 */
final class CableHooks {
    private CableHooks() {}

    /**
     * On dcim.cable: the ends sent become the cable's terminations; with a profile, the n-th
     * object of an end sits on the end's connector n with that connector's lanes (NetBox's
     * update_terminations), and a change of profile puts every termination on its new connector.
     */
    static final class OnCable implements WriteHook {
        @Override
        public List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
            CableProfiles.Profile profile = CableProfiles.of(written.str("profile"));
            boolean newProfile = existing != null && !Objects.equals(existing.get("profile"), written.get("profile"));
            List<FollowUp> deletes = new ArrayList<>();
            List<FollowUp> creates = new ArrayList<>();
            for (String end : List.of("A", "B")) {
                List<ObjectRef> wanted = CableEnds.sent(changes.get(end.equals("A") ? CableEnds.A : CableEnds.B));
                if (wanted == null && newProfile) {
                    wanted = CableEnds.stored(db, written.id(), end);
                }
                if (wanted == null) {
                    continue;
                }
                List<Row> current = db.query(
                        "select id, termination_type, termination_id, connector from dcim_cabletermination"
                                + " where cable_id = ? and cable_end = ? order by id",
                        written.id(),
                        end);
                Set<ObjectRef> kept = new LinkedHashSet<>();
                for (Row ct : current) {
                    ObjectRef ref = new ObjectRef(ct.str("termination_type"), ct.longValue("termination_id"));
                    Integer connector = profile == null ? null : wanted.indexOf(ref) + 1;
                    if (wanted.contains(ref) && Objects.equals(connector, integer(ct.get("connector")))) {
                        kept.add(ref);
                    } else {
                        deletes.add(FollowUp.delete("dcim.cabletermination", ct.id()));
                    }
                }
                for (int i = 0; i < wanted.size(); i++) {
                    ObjectRef ref = wanted.get(i);
                    if (kept.contains(ref)) {
                        continue;
                    }
                    Map<String, Object> body = new java.util.LinkedHashMap<>();
                    body.put("cable", written.id());
                    body.put("cable_end", end);
                    body.put("termination_type", ref.contentType());
                    body.put("termination_id", ref.id());
                    if (profile != null) {
                        body.put("connector", i + 1);
                        body.put("positions", profile.positions(end, i + 1));
                    }
                    creates.add(FollowUp.create("dcim.cabletermination", body));
                }
            }
            if (existing != null && !Objects.equals(existing.get("status"), written.get("status"))) {
                // a path is active only while all its cables are connected
                CablePaths.retrace(db, List.of("dcim.cable:" + written.id()), List.of());
            }
            deletes.addAll(creates);
            return deletes;
        }

        private static Integer integer(Object v) {
            return v == null ? null : ((Number) v).intValue();
        }
    }

    /** On dcim.cabletermination: paths retraced, the cabled object saved again. */
    static final class OnTermination implements WriteHook {
        @Override
        public List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
            List<ObjectRef> objects = new ArrayList<>();
            List<String> nodes = new ArrayList<>();
            for (Row r : existing == null ? List.of(written) : List.of(existing, written)) {
                ObjectRef ref = ref(r);
                if (!objects.contains(ref)) {
                    objects.add(ref);
                }
                nodes.add(ref.node());
                nodes.add("dcim.cable:" + r.longValue("cable_id"));
            }
            CablePaths.retrace(db, nodes, objects);
            return touches(db, objects);
        }

        @Override
        public List<FollowUp> afterDelete(Queries db, List<Row> deleted) {
            List<ObjectRef> objects = new ArrayList<>();
            List<String> nodes = new ArrayList<>();
            List<ObjectRef> stillCabled = new ArrayList<>();
            for (Row r : deleted) {
                ObjectRef ref = ref(r);
                objects.add(ref);
                nodes.add(ref.node());
                nodes.add("dcim.cable:" + r.longValue("cable_id"));
                // when the cable itself went, the engine logged its objects' lost reference already
                if (!db.query("select 1 from dcim_cable where id = ?", r.longValue("cable_id"))
                        .isEmpty()) {
                    stillCabled.add(ref);
                }
            }
            CablePaths.retrace(db, nodes, objects);
            return touches(db, stillCabled);
        }

        private static ObjectRef ref(Row termination) {
            return new ObjectRef(termination.str("termination_type"), termination.longValue("termination_id"));
        }

        /** The objects (still existing) saved again: a change record and an event each. */
        private static List<FollowUp> touches(Queries db, List<ObjectRef> objects) {
            List<FollowUp> out = new ArrayList<>();
            for (ObjectRef ref : objects) {
                if (!db.query("select 1 from " + CableEnds.table(ref) + " where id = ?", ref.id())
                        .isEmpty()) {
                    out.add(FollowUp.touch(ref.contentType(), ref.id()));
                }
            }
            return out;
        }
    }
}
