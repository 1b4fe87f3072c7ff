package org.sourceoftruth.records.virtualization;

import jakarta.enterprise.context.ApplicationScoped;
import org.sourceoftruth.records.model.DbValidator;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

import java.util.ArrayList;
import java.util.List;

import static org.sourceoftruth.records.model.Fields.*;

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
        Model disk = Model.of("virtualization", "virtual-disks", "virtualization.virtualdisk",
                        "virtualization_virtualdisk", "virtual disk")
                .fields(fk("virtual_machine", "virtualization.virtualmachine").required().cascade(),
                        str("name").required().max(64), str("description").max(200),
                        integer("size").required().range(0, Integer.MAX_VALUE).label("Size (MB)"))
                .standardTail()
                .unique(UniqueRule.of("Virtual disk with this Virtual machine and Name already exists.",
                        "virtual_machine_id", "name"))
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
            List<Row> total = db.query("select sum(size) as total from virtualization_virtualdisk"
                    + " where virtual_machine_id = ?", selfId);
            Long sum = total.isEmpty() ? null : total.get(0).longValue("total");
            long disk = ((Number) row.get("disk")).longValue();
            if (sum != null && sum != 0 && disk != sum) {
                errors.computeIfAbsent("disk", k -> new ArrayList<>()).add("The specified disk size (" + disk
                        + ") must match the aggregate size of assigned virtual disks (" + sum + ").");
            }
        };
    }
}
