package org.sourceoftruth.records.net;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressNetwork.IPAddressGenerator;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A list of IP networks given as prefixes or single addresses ("10.0.0.0/8", "192.0.2.7",
 * "2001:db8::/32"): a token's allowed_ips, or the trusted proxies. Containment is the IPAddress
 * library's prefix-block test (an IPv4 network never contains an IPv6 address); literals are
 * parsed strictly ({@link Cidr}), never resolved as host names.
 */
public final class IpNetworks {
    private static final IpNetworks NONE = new IpNetworks(List.of());
    private static final IPAddressGenerator FROM_BYTES = new IPAddressGenerator();
    private final List<IPAddress> blocks;

    private IpNetworks(List<IPAddress> blocks) {
        this.blocks = blocks;
    }

    /** @throws IllegalArgumentException naming the first value that is no address or prefix */
    public static IpNetworks parse(List<String> values) {
        if (values == null || values.isEmpty()) {
            return NONE;
        }
        List<IPAddress> blocks = new ArrayList<>();
        for (String v : values) {
            Cidr.Parsed p = Cidr.parse(v, false)
                    .orElseThrow(() -> new IllegalArgumentException("Invalid IP prefix format: " + v));
            blocks.add(p.block());
        }
        return new IpNetworks(List.copyOf(blocks));
    }

    /** A single literal address (no mask), or empty when {@code raw} is not one. */
    public static Optional<InetAddress> address(String raw) {
        return Cidr.parse(raw, false).filter(p -> !p.hasMask()).map(p -> p.ip().toInetAddress());
    }

    public boolean isEmpty() {
        return blocks.isEmpty();
    }

    public boolean contains(InetAddress address) {
        IPAddress ip = FROM_BYTES.from(address.getAddress());
        for (IPAddress block : blocks) {
            if (block.contains(ip)) {
                return true;
            }
        }
        return false;
    }
}
