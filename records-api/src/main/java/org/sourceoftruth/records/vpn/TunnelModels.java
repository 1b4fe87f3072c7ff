package org.sourceoftruth.records.vpn;

import static org.sourceoftruth.records.model.Declarations.organizational;
import static org.sourceoftruth.records.model.Fields.*;
import static org.sourceoftruth.records.vpn.VpnChoices.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.tenancy.TenancyFilters;
import org.sourceoftruth.records.virtualization.VirtualizationTables;

/** vpn tunnels: tunnel groups, tunnels, and their terminations on device and VM interfaces. */
@ApplicationScoped
public class TunnelModels implements ModelDefinition {
    /** What a tunnel may terminate on (NetBox's TUNNEL_TERMINATION_TYPES... by interface). */
    static final List<String> TERMINATION_TYPES = List.of("dcim.interface", "virtualization.vminterface");

    @Override
    public List<Model> models() {
        Model group = organizational("vpn", "tunnel-groups", "tunnel group")
                .fields(str("description").max(200), str("comments"))
                .standardTail()
                .fields(count("tunnel_count", "vpn_tunnel", "group_id"))
                .brief("tunnel_count");

        Model tunnel = Model.of("vpn", "tunnels", "tunnel")
                .fields(
                        str("name").required().max(100).unique(),
                        choice("status", TUNNEL_STATUS).dflt("active"),
                        fk("group", "vpn.tunnelgroup").protect(),
                        choice("encapsulation", TUNNEL_ENCAPSULATION).required(),
                        fk("ipsec_profile", "vpn.ipsecprofile").protect().label("IPSec profile"),
                        fk("tenant", "tenancy.tenant").protect(),
                        integer("tunnel_id").nullable().min(0).label("Tunnel ID"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("terminations_count", "vpn_tunneltermination", "tunnel_id"))
                .filters(TenancyFilters.tenantGroup())
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "description");

        Model termination = Model.of("vpn", "tunnel-terminations", "tunnel termination")
                .fields(
                        fk("tunnel", "vpn.tunnel").required().cascade(),
                        choice("role", TERMINATION_ROLE).dflt("peer"),
                        genericFk("termination", "termination_type", "termination_id", TERMINATION_TYPES)
                                .required()
                                .cascade(),
                        fk("outside_ip", "ipam.ipaddress").protect().label("Outside IP"))
                .standardTail()
                .select("_tunnel", "select x.name from vpn_tunnel x where x.id = t.tunnel_id")
                .display(r -> r.str("_tunnel") + ": Termination " + r.id())
                .validator(TunnelModels::typeGiven)
                .check(TunnelModels::oneTunnelPerObject)
                .filters(onInterfaces("interface", "dcim.interface", DcimTables.INTERFACE))
                .filters(onInterfaces("vminterface", "virtualization.vminterface", VirtualizationTables.VMINTERFACE))
                .ordering("(select x.name from vpn_tunnel x where x.id = t.tunnel_id)", "t.role")
                // the display text: NetBox's filter set has no search of its own here
                .search("(select x.name || ': Termination ' || t.id from vpn_tunnel x where x.id = t.tunnel_id)");
        return List.of(group, tunnel, termination);
    }

    /** {@code name} (the interface's name) and {@code name_id}: terminations on such interfaces. */
    private static List<ExtraFilter> onInterfaces(String name, String contentType, String table) {
        String typed = "{t}.termination_type = '" + contentType + "' and {t}.termination_id";
        return List.of(
                ExtraFilters.each(name, Kind.STRING, typed + " in (select id from " + table + " where name = ?)")
                        .choicesFrom(table, "name"),
                ExtraFilters.each(name + "_id", Kind.INTEGER, typed + " = ?").choicesFrom(table, "id"));
    }

    /** The content type is required and never null (the pair's id may be). */
    static void typeGiven(Row row, Map<String, List<String>> errors) {
        if (row.get("termination_type") == null && !errors.containsKey("termination_type")) {
            errors.computeIfAbsent("termination_type", k -> new ArrayList<>()).add("This field may not be null.");
        }
    }

    /** TunnelTermination.clean: the object is not attached to another tunnel already. */
    static void oneTunnelPerObject(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        String type = row.str("termination_type");
        Long id = row.longValue("termination_id");
        if (type == null || id == null) {
            return;
        }
        String table = type.equals("dcim.interface") ? DcimTables.INTERFACE : VirtualizationTables.VMINTERFACE;
        List<Row> other = db.query(
                "select o.name as object, x.name as tunnel from vpn_tunneltermination tt"
                        + " join vpn_tunnel x on x.id = tt.tunnel_id join " + table + " o on o.id = tt.termination_id"
                        + " where tt.termination_type = ? and tt.termination_id = ? and tt.id <> ?",
                type,
                id,
                selfId == null ? -1L : selfId);
        if (!other.isEmpty()) {
            errors.computeIfAbsent("termination", k -> new ArrayList<>())
                    .add(other.get(0).str("object") + " is already attached to a tunnel ("
                            + other.get(0).str("tunnel") + ").");
        }
    }
}
