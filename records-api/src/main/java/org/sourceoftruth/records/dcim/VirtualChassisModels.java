package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.model.WriteHook;

/** dcim virtual chassis: devices sharing a control plane (a switch stack), one of them its master. */
@ApplicationScoped
public class VirtualChassisModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model chassis = Model.of("dcim", "virtual-chassis", "virtual chassis")
                .fields(
                        str("name").required().max(64),
                        str("domain").max(30),
                        fk("master", "dcim.device").protect(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("member_count", "dcim_device", "virtual_chassis_id"),
                        m2m("members", "dcim.device", "dcim_device", "virtual_chassis_id", "id")
                                .readOnly())
                .writableRequest()
                .check(VirtualChassisModels::masterIsMember)
                .hook(new MasterJoins())
                .unique(UniqueRule.of("Virtual chassis with this Master already exists.", "master_id")
                        .skipIfNull("master_id"))
                // NetBox's VirtualChassisFilterSet places and tenants a chassis by its master
                .placedThrough("master")
                .relationFilter("master", "master", "name")
                .relationFilter("tenant", "master.tenant", "slug")
                .relationFilter("tenant_id", "master.tenant", "id")
                .ordering("t.name")
                .search(
                        "t.name",
                        "t.domain",
                        "t.description",
                        "t.comments",
                        "(select d.name from dcim_device d where d.id = t.master_id)")
                .brief("name", "master", "description", "member_count");
        return List.of(chassis);
    }

    /**
     * NetBox's assign_virtualchassis_master signal: a chassis created with a master makes that
     * device a member, at position 1 unless it has one.
     */
    static final class MasterJoins implements WriteHook {
        @Override
        public List<FollowUp> afterCreate(Queries db, Row created) {
            Long master = created.longValue("master_id");
            if (master == null) {
                return List.of();
            }
            Map<String, Object> changes = new java.util.LinkedHashMap<>();
            changes.put("virtual_chassis", created.id());
            if (db.query("select vc_position from dcim_device where id = ?", master)
                            .get(0)
                            .get("vc_position")
                    == null) {
                changes.put("vc_position", 1);
            }
            return List.of(new FollowUp("dcim.device", master, changes));
        }
    }

    /** NetBox's VirtualChassis.clean(): once the chassis exists, its master is one of its members. */
    static void masterIsMember(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long master = row.longValue("master_id");
        if (selfId == null || master == null) {
            return;
        }
        Row device = db.query(
                        "select coalesce(d.name, m.name || ' ' || dt.model || ' (' || d.id || ')') as name,"
                                + " d.virtual_chassis_id from dcim_device d join dcim_devicetype dt on dt.id = d.device_type_id"
                                + " join dcim_manufacturer m on m.id = dt.manufacturer_id where d.id = ?",
                        master)
                .get(0);
        if (!selfId.equals(device.longValue("virtual_chassis_id"))) {
            errors.computeIfAbsent("master", k -> new ArrayList<>())
                    .add("The selected master (" + device.str("name") + ") is not assigned to this virtual chassis.");
        }
    }

    /**
     * NetBox's Device.clean() on chassis membership: a member has a position, and a chassis's
     * master cannot leave it.
     */
    static void memberRules(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long chassis = row.longValue("virtual_chassis_id");
        if (chassis != null && row.get("vc_position") == null) {
            errors.computeIfAbsent("vc_position", k -> new ArrayList<>())
                    .add("A device assigned to a virtual chassis must have its position defined.");
        }
        if (selfId == null) {
            return;
        }
        for (Row masterOf : db.query("select id, name from dcim_virtualchassis where master_id = ?", selfId)) {
            if (!masterOf.longValue("id").equals(chassis)) {
                errors.computeIfAbsent("virtual_chassis", k -> new ArrayList<>())
                        .add("Device cannot be removed from" + " virtual chassis " + masterOf.str("name")
                                + " because it is currently designated as its master.");
            }
        }
    }
}
