package org.sourceoftruth.dispatcher.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client address the admin API reports to records-api for a token's allowed_ips: forwarded
 * headers count only when the connection comes from a trusted proxy.
 */
class ClientAddressTest {

    @Test
    void withoutTrustedProxiesTheHeadersAreIgnored() {
        ClientAddress none = new ClientAddress(List.of());
        assertEquals("198.51.100.7", none.of("198.51.100.7", "10.0.0.1", "10.0.0.2, 10.0.0.3"));
    }

    @Test
    void anUntrustedPeerCannotClaimAnotherAddress() {
        ClientAddress proxies = new ClientAddress(List.of("10.1.0.0/16", "2001:db8::1"));
        assertEquals("198.51.100.7", proxies.of("198.51.100.7", "10.0.0.1", "10.0.0.2"));
        assertEquals("2001:db8::2", proxies.of("2001:db8::2", null, "203.0.113.9"));
    }

    @Test
    void aTrustedProxyNamesTheClientRealIpFirst() {
        ClientAddress proxies = new ClientAddress(List.of(" 10.1.0.0/16 ", "2001:db8::1", ""));
        assertEquals("203.0.113.5", proxies.of("10.1.2.3", " 203.0.113.5 ", "203.0.113.9"));
        assertEquals("203.0.113.9", proxies.of("10.1.2.3", "", "203.0.113.9, 10.1.2.3"));
        assertEquals("203.0.113.9", proxies.of("2001:db8::1", null, "203.0.113.9"));
        assertEquals("10.1.2.3", proxies.of("10.1.2.3", null, null), "no header: the proxy itself");
    }

    @Test
    void aBadProxyEntryStopsStartUpNamingTheSetting() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> new ClientAddress(List.of("10.0.0.0/8", "not-an-address")));
        assertTrue(e.getMessage().startsWith("TRUSTED_PROXIES: 'not-an-address'"), e.getMessage());
    }
}
