package org.sourceoftruth.records.ipam;

import static org.sourceoftruth.records.Api.create;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.sourceoftruth.records.Api;

/**
 * IPAM test fixtures. Every test takes its own address block so tests never collide in the
 * global table (ENFORCE_GLOBAL_UNIQUE is on) even though they share one database.
 */
final class Ipam {
    private static final AtomicInteger BLOCKS = new AtomicInteger(1);

    private Ipam() {}

    /** A fresh "10.a.b" IPv4 /24 base, e.g. "10.0.7" (append ".0/24", ".1/24", ...). */
    static String v4Block() {
        int n = BLOCKS.getAndIncrement();
        return "10." + (n / 256) + "." + (n % 256);
    }

    /** A fresh IPv6 /48 base, e.g. "2001:db8:7" (append "::/48", ":1::/64", ...). */
    static String v6Block() {
        return "2001:db8:" + Integer.toHexString(BLOCKS.getAndIncrement());
    }

    static int vrf(String name, String rd, boolean enforceUnique) {
        return create("/api/ipam/vrfs/", Map.of("name", name, "rd", rd, "enforce_unique", enforceUnique));
    }

    static int prefix(String prefix, Object vrf) {
        java.util.HashMap<String, Object> body = new java.util.HashMap<>(Map.of("prefix", prefix));
        body.put("vrf", vrf);
        return create("/api/ipam/prefixes/", body);
    }

    static int ip(String address) {
        return create("/api/ipam/ip-addresses/", Map.of("address", address));
    }

    /** A device with one interface; returns {deviceId, interfaceId}. */
    static int[] deviceWithInterface(String name) {
        int site = Api.site("ipam");
        int device = Api.device(site, Api.deviceTypeAndRole(), name);
        int iface = create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth0", "type", "1000base-t"));
        return new int[] {device, iface};
    }

    /** A VM (in a cluster) with one interface; returns {vmId, vmInterfaceId, clusterId}. */
    static int[] vmWithInterface(String name) {
        String u = Api.uniq();
        int type = create("/api/virtualization/cluster-types/", Map.of("name", "ct-" + u, "slug", "ct-" + u));
        int cluster = create("/api/virtualization/clusters/", Map.of("name", "cl-" + u, "type", type));
        int vm = create("/api/virtualization/virtual-machines/", Map.of("name", name, "cluster", cluster));
        int iface = create("/api/virtualization/interfaces/", Map.of("virtual_machine", vm, "name", "ens3"));
        return new int[] {vm, iface, cluster};
    }
}
