package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.model.Row;

/**
 * NetBox's available-vlans of a VLAN group: the VIDs of the group's vid_ranges that no VLAN of
 * the group has (VLANGroup.get_available_vids), and the creation of VLANs in the group at the
 * next free ones, on the shared {@link Allocation} skeleton.
 */
@ApplicationScoped
public class VlanGroupAvailability implements NumberPool {
    @Override
    public String poolType() {
        return "ipam.vlangroup";
    }

    @Override
    public String itemType() {
        return "ipam.vlan";
    }

    private static final Allocation.Pool VLAN_GROUPS = new Allocation.Pool(0x5017_0004L, "ipam_vlangroup", "VLANGroup");

    @Inject
    Allocation allocation;

    /** The first {@code limit} free VIDs, each {@code {"vid": n, "group": <nested group>}}. */
    @Override
    public List<JsonNode> available(long groupId, int limit) {
        return allocation.read(db -> {
            Row group = Allocation.row(db, VLAN_GROUPS, groupId, false);
            JsonNode nested = allocation.nested(db, "ipam.vlangroup", groupId);
            List<JsonNode> out = new ArrayList<>();
            for (int vid : free(db, group, limit)) {
                ObjectNode n = JsonNodeFactory.instance.objectNode();
                n.put("vid", vid);
                n.set("group", nested);
                out.add(n);
            }
            return out;
        });
    }

    /**
     * Creates one VLAN in the group per requested object at the next free VIDs; each object
     * gives at least a name (NetBox's CreateAvailableVLANSerializer), or a 409 when too few are free.
     */
    @Override
    public List<RenderedObject> allocate(long groupId, List<JsonNode> items, boolean bulk) {
        return allocation.allocate(VLAN_GROUPS, groupId, "ipam.vlan", bulk, (db, group) -> {
            Allocation.checkEach(items, (item, errors) -> {
                JsonNode name = item.get("name");
                if (name == null || name.isNull()) {
                    errors.put(
                            "name", List.of(name == null ? "This field is required." : "This field may not be null."));
                }
                return item;
            });
            List<Integer> free = free(db, group, items.size());
            if (free.size() < items.size()) {
                throw Allocation.insufficient("The requested number of VLANs is not available");
            }
            List<JsonNode> objects = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                ObjectNode o = ((ObjectNode) items.get(i)).deepCopy();
                o.put("vid", free.get(i));
                o.put("group", groupId);
                objects.add(o);
            }
            return objects;
        });
    }

    /** The first {@code n} VIDs of the group's ranges (inclusive [low, high] pairs) that no VLAN of the group has. */
    private static List<Integer> free(Db db, Row group, int n) {
        Set<Integer> taken = new HashSet<>();
        for (Row r : db.query("select vid from ipam_vlan where group_id = ?", group.id())) {
            taken.add(((Number) r.get("vid")).intValue());
        }
        Set<Integer> seen = new java.util.TreeSet<>();
        JsonNode ranges = (JsonNode) group.get("vid_ranges");
        for (JsonNode range : ranges) {
            for (int vid = range.get(0).asInt(); vid <= range.get(1).asInt(); vid++) {
                if (!taken.contains(vid)) {
                    seen.add(vid);
                }
            }
        }
        List<Integer> out = new ArrayList<>();
        for (int vid : seen) {
            if (out.size() >= n) {
                break;
            }
            out.add(vid);
        }
        return out;
    }
}
