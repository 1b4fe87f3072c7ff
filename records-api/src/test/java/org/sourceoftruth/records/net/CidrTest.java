package org.sourceoftruth.records.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Strict parsing and the text forms that end up in NetBox's messages and in stored values. */
class CidrTest {
    private static Cidr.Parsed parse(String raw) {
        return Cidr.parse(raw, false).orElseThrow(() -> new AssertionError("rejected: " + raw));
    }

    @Test
    void ipv6TextIsCompressedAsPostgresqlPrintsIt() {
        assertEquals("2001:db8::1/64", parse("2001:DB8:0:0:0:0:0:1/64").text());
        assertEquals("2001:db8::1/128", parse("2001:0db8::0001").text());
        // the longest run of zero groups, the first one on a tie; a single zero group stays
        assertEquals("1:0:0:2::3/128", parse("1:0:0:2:0:0:0:3").text());
        assertEquals("2001:db8::1:0:0:1/128", parse("2001:db8:0:0:1:0:0:1").text());
        assertEquals("2001:db8:0:1:1:1:1:1/128", parse("2001:db8:0:1:1:1:1:1").text());
        assertEquals("::/0", parse("::/0").text());
        assertEquals("::1/128", parse("::1").text());
        assertEquals("1::/16", parse("1:0:0:0:0:0:0:0/16").text());
        assertEquals("::102:304/128", parse("::1.2.3.4").text());
        // a prefixed value is printed in full, not with its host part compressed
        assertEquals("2001:db8::/32", parse("2001:db8::/32").text());
        assertEquals("2001:db8:0:0:1::/80", parse("2001:db8:0:0:1:0:0:0/80").text());
        // IPv4-mapped IPv6 is IPv6 (as for PostgreSQL and netaddr)
        assertEquals(6, parse("::ffff:192.0.2.1").family());
    }

    @Test
    void ipv4TextAndMasks() {
        Cidr.Parsed p = parse(" 10.0.0.1/24 ");
        assertEquals("10.0.0.1/24", p.text());
        assertEquals(4, p.family());
        assertTrue(p.hasMask());
        Cidr.Parsed bare = parse("192.0.2.7");
        assertEquals("192.0.2.7/32", bare.text());
        assertFalse(bare.hasMask());
        assertEquals(32, bare.maskLength());
        assertEquals(128, parse("2001:db8::7").maskLength());
        assertTrue(Cidr.parse("192.0.2.7", true).isEmpty());
        assertTrue(Cidr.parse("192.0.2.0/24", true).isPresent());
    }

    @Test
    void hostBitsAndNetworks() {
        Cidr.Parsed p = parse("10.0.0.1/24");
        assertTrue(p.hasHostBits());
        assertEquals("10.0.0.0/24", p.network().text());
        assertFalse(parse("10.0.0.0/24").hasHostBits());
        assertTrue(parse("10.0.0.255/24").isBroadcast());
        assertFalse(parse("10.0.0.254/24").isBroadcast());
        assertEquals("2001:db8::/32", parse("2001:db8::1/32").network().text());
        assertTrue(parse("2001:db8::1/32").hasHostBits());
    }

    @Test
    void pointToPointAndHostMasks() {
        Cidr.Parsed v4 = parse("10.0.0.1/31");
        assertTrue(v4.hasHostBits());
        assertTrue(v4.isBroadcast());
        assertEquals("10.0.0.0/31", v4.network().text());
        assertFalse(parse("10.0.0.0/31").hasHostBits());
        Cidr.Parsed v6 = parse("2001:db8::1/127");
        assertTrue(v6.hasHostBits());
        assertEquals("2001:db8::/127", v6.network().text());
        assertFalse(parse("10.0.0.9/32").hasHostBits());
        assertTrue(parse("10.0.0.9/32").isBroadcast());
        assertEquals("2001:db8::9/128", parse("2001:db8::9/128").network().text());
    }

    @Test
    void zeroMask() {
        Cidr.Parsed any = parse("10.1.2.3/0");
        assertEquals(0, any.maskLength());
        assertTrue(any.hasHostBits());
        assertEquals("0.0.0.0/0", any.network().text());
        assertFalse(parse("0.0.0.0/0").hasHostBits());
        assertEquals("::/0", parse("2001:db8::1/0").network().text());
    }

    @Test
    void rejectsEverythingButLiteralAddresses() {
        for (String bad : List.of(
                "10.0.0.256/24",
                "10.0.0.1/33",
                "fe80::zz/64",
                "10.0.0.0/8/8",
                "",
                "  ",
                "host.example.com",
                "localhost",
                "1.2.3/24",
                "::/129",
                "10.0.0.1/-1",
                "10.0.0.1/24/",
                "10.0.0.1/",
                "/24",
                "010.0.0.1",
                "10.1",
                "167772161",
                "0x0a.0.0.1",
                "10.0.0.1/255.255.255.0",
                "10.0.0.*",
                "10.0.0.1-5",
                "10.0.0.0/8 x",
                "fe80::1%eth0",
                "[::1]",
                "1:2:3:4:5:6:7:8:9",
                "1:2:3",
                "12345::1:2:3:4",
                "*",
                "::/",
                "10.0.0.1/2 4")) {
            assertTrue(Cidr.parse(bad, false).isEmpty(), bad);
        }
        assertTrue(Cidr.parse(null, false).isEmpty());
    }
}
