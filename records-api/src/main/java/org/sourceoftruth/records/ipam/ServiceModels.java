package org.sourceoftruth.records.ipam;

import static org.sourceoftruth.records.ipam.IpamChoices.SERVICE_PROTOCOL;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.virtualization.VirtualizationTables;

/**
 * ipam services: layer-four services (ssh, https, ...) listening on a device or virtual machine,
 * optionally bound to some of its IP addresses, and service templates to create them from.
 */
@ApplicationScoped
public class ServiceModels implements ModelDefinition {
    /** What a service may run on (NetBox's SERVICE_ASSIGNMENT_MODELS, of the models served here). */
    static final List<String> SERVICE_PARENT_TYPES =
            List.of("dcim.device", "virtualization.virtualmachine", "ipam.fhrpgroup");
    /** NetBox's SERVICE_PORT_MIN / SERVICE_PORT_MAX. */
    private static final int PORT_MIN = 1;

    private static final int PORT_MAX = 65535;

    @Override
    public List<Model> models() {
        Model template = Model.of("ipam", "service-templates", "service template")
                .fields(str("name").required().max(100).unique())
                .fields(protocolAndPorts())
                .fields(str("description").max(200), str("comments"))
                .standardTail()
                .display(ServiceModels::display)
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "protocol", "ports", "description");

        Model service = Model.of("ipam", "services", "service")
                .fields(
                        genericFk("parent", "parent_object_type", "parent_object_id", SERVICE_PARENT_TYPES)
                                .required()
                                .notNull()
                                .cascade(),
                        str("name").required().max(100))
                .fields(protocolAndPorts())
                .fields(
                        m2m("ipaddresses", "ipam.ipaddress", "ipam_service_ipaddresses", "service_id", "ipaddress_id")
                                .label("IP addresses"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .filter(ExtraFilters.each(
                        "device_id",
                        Kind.INTEGER,
                        "{t}.parent_object_type = 'dcim.device' and {t}.parent_object_id = ?"))
                .filter(ExtraFilters.each(
                        "device",
                        Kind.STRING,
                        "{t}.parent_object_type = 'dcim.device'" + " and {t}.parent_object_id in (select id from "
                                + DcimTables.DEVICE + " where name = ?)"))
                .filter(ExtraFilters.each(
                        "virtual_machine_id",
                        Kind.INTEGER,
                        "{t}.parent_object_type = 'virtualization.virtualmachine' and {t}.parent_object_id = ?"))
                .filter(ExtraFilters.each(
                        "virtual_machine",
                        Kind.STRING,
                        "{t}.parent_object_type = 'virtualization.virtualmachine' and {t}.parent_object_id in"
                                + " (select id from " + VirtualizationTables.VIRTUALMACHINE + " where name = ?)"))
                .filter(ExtraFilters.each(
                                "fhrpgroup_id",
                                Kind.INTEGER,
                                "{t}.parent_object_type = 'ipam.fhrpgroup' and {t}.parent_object_id = ?")
                        .choicesFrom("ipam_fhrpgroup", "id"))
                .filter(ExtraFilters.each(
                                "fhrpgroup",
                                Kind.STRING,
                                "{t}.parent_object_type = 'ipam.fhrpgroup'"
                                        + " and {t}.parent_object_id in (select id from ipam_fhrpgroup where name = ?)")
                        .choicesFrom("ipam_fhrpgroup", "name"))
                .relationFilter("ip_address_id", "ipaddresses", "id")
                .relationFilter("ip_address", "ipaddresses", "address")
                .display(ServiceModels::display)
                .ordering("t.protocol", "t.ports")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "protocol", "ports", "description");
        return List.of(template, service);
    }

    /** protocol and ports, as NetBox's ServiceBase. */
    private static Field[] protocolAndPorts() {
        return new Field[] {
            choice("protocol", SERVICE_PROTOCOL).required(),
            integerList("ports").required().range(PORT_MIN, PORT_MAX).label("Port numbers")
        };
    }

    /** NetBox's ServiceBase.__str__: "ssh (TCP/22)", ports as ranges ("80-82, 443"). */
    static String display(Row r) {
        String protocol = r.str("protocol");
        return r.str("name") + " (" + (protocol == null ? "" : protocol.toUpperCase(java.util.Locale.ROOT)) + "/"
                + portList(r.get("ports")) + ")";
    }

    /** NetBox's array_to_string: sorted, consecutive numbers as one range. */
    static String portList(Object ports) {
        if (!(ports instanceof List<?> list) || list.isEmpty()) {
            return "";
        }
        TreeSet<Long> sorted = new TreeSet<>();
        list.forEach(p -> sorted.add(((Number) p).longValue()));
        List<String> out = new ArrayList<>();
        Long start = null;
        Long previous = null;
        for (long p : sorted) {
            if (previous != null && p == previous + 1) {
                previous = p;
                continue;
            }
            if (start != null) {
                out.add(start.equals(previous) ? String.valueOf(start) : start + "-" + previous);
            }
            start = p;
            previous = p;
        }
        out.add(start.equals(previous) ? String.valueOf(start) : start + "-" + previous);
        return String.join(", ", out);
    }
}
