package org.sourceoftruth.records.virtualization;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sourceoftruth.records.model.DbValidator;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.model.WriteHook;

/** virtualization: a virtual machine's virtual disks, whose sizes make up the machine's disk. */
@ApplicationScoped
public class VirtualDiskModels implements ModelDefinition {
    /**
     * A machine's disk as read, for the machine row of alias {@code vm}: the total of its virtual
     * disks when it has any, else what was stored.
     */
    static String effectiveDisk(String vm) {
        return "coalesce((select sum(d.size) from virtualization_virtualdisk d where d.virtual_machine_id = " + vm
                + ".id), " + vm + ".disk)";
    }

    @Override
    public List<Model> models() {
        Model disk = Model.of("virtualization", "virtual-disks", "virtual disk")
                .fields(
                        fk("virtual_machine", "virtualization.virtualmachine")
                                .required()
                                .cascade(),
                        str("name").required().max(64),
                        str("description").max(200),
                        integer("size").required().range(0, Integer.MAX_VALUE).label("Size (MB)"))
                .standardTail()
                .unique(UniqueRule.of(
                        "Virtual disk with this Virtual machine and Name already exists.",
                        "virtual_machine_id",
                        "name"))
                .hook(new MachineDiskTotal())
                .ordering("t.virtual_machine_id", "t.name")
                .search("t.name", "t.description")
                .brief("virtual_machine", "name", "description", "size");
        return List.of(disk);
    }

    /**
     * NetBox's VirtualMachine.clean(): once a machine has virtual disks, a disk size given for it
     * must be their total ("must match the aggregate size").
     */
    static DbValidator diskMatchesVirtualDisks() {
        return (db, row, selfId, errors) -> {
            if (selfId == null || row.get("disk") == null) {
                return;
            }
            List<Row> total = db.query(
                    "select sum(size) as total from virtualization_virtualdisk" + " where virtual_machine_id = ?",
                    selfId);
            Long sum = total.isEmpty() ? null : total.get(0).longValue("total");
            long disk = ((Number) row.get("disk")).longValue();
            if (sum != null && sum != 0 && disk != sum) {
                errors.computeIfAbsent("disk", k -> new ArrayList<>())
                        .add("The specified disk size (" + disk
                                + ") must match the aggregate size of assigned virtual disks (" + sum + ").");
            }
        };
    }

    /**
     * NetBox's update_virtualmachine_disk signal: after a virtual disk is saved or deleted, its
     * machine's disk is set to the total size of the machine's disks, null once the last one is
     * gone (so the machine no longer shows the size it had before it had disks). NetBox writes
     * it with a queryset update, which leaves no change record; here the machine is saved through
     * the engine (a PATCH of {@code disk}, only when the stored value changes), so the change is
     * in the change log and on the change topic like every other.
     */
    static final class MachineDiskTotal implements WriteHook {
        @Override
        public List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
            Set<Long> machines = new LinkedHashSet<>();
            if (existing != null) {
                machines.add(existing.longValue("virtual_machine_id"));
            }
            machines.add(written.longValue("virtual_machine_id"));
            return totals(db, machines);
        }

        @Override
        public List<FollowUp> afterDelete(Queries db, List<Row> deleted) {
            Set<Long> machines = new LinkedHashSet<>();
            deleted.forEach(r -> machines.add(r.longValue("virtual_machine_id")));
            return totals(db, machines);
        }

        /** A PATCH of each still existing machine whose stored disk is not its disks' total. */
        private static List<FollowUp> totals(Queries db, Set<Long> machines) {
            List<FollowUp> out = new ArrayList<>();
            for (Long vm : machines) {
                // a machine deleted with its disks is gone: nothing to update
                List<Row> found = db.query(
                        "select m.disk, (select sum(d.size) from virtualization_virtualdisk d"
                                + " where d.virtual_machine_id = m.id) as total from virtualization_virtualmachine m"
                                + " where m.id = ?",
                        vm);
                if (found.isEmpty()) {
                    continue;
                }
                Long stored = found.get(0).longValue("disk");
                Long total = found.get(0).longValue("total");
                if (!Objects.equals(stored, total)) {
                    Map<String, Object> patch = new HashMap<>();
                    patch.put("disk", total);
                    out.add(new FollowUp("virtualization.virtualmachine", vm, patch));
                }
            }
            return out;
        }
    }
}
