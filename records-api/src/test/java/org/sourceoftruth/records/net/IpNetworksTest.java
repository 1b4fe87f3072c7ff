package org.sourceoftruth.records.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** allowed_ips and trusted proxies: containment across families, strict literals. */
class IpNetworksTest {
    private static InetAddress ip(String text) {
        return IpNetworks.address(text).orElseThrow(() -> new AssertionError("rejected: " + text));
    }

    @Test
    void containment() {
        IpNetworks nets = IpNetworks.parse(List.of("10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "172.16.5.9/16"));
        assertTrue(nets.contains(ip("10.255.0.1")));
        assertTrue(nets.contains(ip("192.0.2.7")));
        assertFalse(nets.contains(ip("192.0.2.8")));
        assertTrue(nets.contains(ip("2001:db8:ffff::1")));
        assertFalse(nets.contains(ip("2001:db9::1")));
        // host bits in a configured network do not narrow it
        assertTrue(nets.contains(ip("172.16.200.1")));
        assertFalse(nets.contains(ip("::a00:1")));
        assertTrue(IpNetworks.parse(List.of("0.0.0.0/0")).contains(ip("203.0.113.1")));
        assertFalse(IpNetworks.parse(List.of("0.0.0.0/0")).contains(ip("::1")));
        assertTrue(IpNetworks.parse(List.of("::/0")).contains(ip("::1")));
        assertTrue(IpNetworks.parse(List.of()).isEmpty());
        assertTrue(IpNetworks.parse(null).isEmpty());
    }

    @Test
    void clientAddressesAreLiteralsWithoutMask() {
        assertEquals("10.0.0.1", ip("10.0.0.1").getHostAddress());
        assertTrue(IpNetworks.address("10.0.0.1/32").isEmpty());
        assertTrue(IpNetworks.address("localhost").isEmpty());
        assertTrue(IpNetworks.address(null).isEmpty());
        assertTrue(IpNetworks.address("unknown").isEmpty());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> IpNetworks.parse(List.of("10.0.0.0/8", "nope")));
        assertEquals("Invalid IP prefix format: nope", e.getMessage());
    }
}
