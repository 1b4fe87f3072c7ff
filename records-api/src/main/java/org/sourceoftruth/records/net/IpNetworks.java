package org.sourceoftruth.records.net;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A list of IP networks given as prefixes or single addresses ("10.0.0.0/8", "192.0.2.7",
 * "2001:db8::/32"): a token's allowed_ips, or the trusted proxies. Containment is Netty's
 * subnet rule (IPv4 and IPv6); literals are parsed strictly, never resolved as host names.
 */
public final class IpNetworks {
    private static final IpNetworks NONE = new IpNetworks(List.of());
    private final List<IpSubnetFilterRule> rules;

    private IpNetworks(List<IpSubnetFilterRule> rules) {
        this.rules = rules;
    }

    /** @throws IllegalArgumentException naming the first value that is no address or prefix */
    public static IpNetworks parse(List<String> values) {
        if (values == null || values.isEmpty()) {
            return NONE;
        }
        List<IpSubnetFilterRule> rules = new ArrayList<>();
        for (String v : values) {
            Cidr.Parsed p = Cidr.parse(v, false).orElseThrow(() -> new IllegalArgumentException(
                    "Invalid IP prefix format: " + v));
            rules.add(new IpSubnetFilterRule(toAddress(p), p.maskLength(), IpFilterRuleType.ACCEPT));
        }
        return new IpNetworks(List.copyOf(rules));
    }

    /** A single literal address (no mask), or empty when {@code raw} is not one. */
    public static Optional<InetAddress> address(String raw) {
        return Cidr.parse(raw, false).filter(p -> !p.hasMask()).map(IpNetworks::toAddress);
    }

    private static InetAddress toAddress(Cidr.Parsed p) {
        try {
            return InetAddress.getByAddress(p.address());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // only thrown for a wrong byte count, which Cidr never yields
        }
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    public boolean contains(InetAddress address) {
        InetSocketAddress socket = new InetSocketAddress(address, 0);
        for (IpSubnetFilterRule rule : rules) {
            if (rule.matches(socket)) {
                return true;
            }
        }
        return false;
    }
}
