package org.sourceoftruth.records.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Address arithmetic: bounds of networks, integer text forms, CIDR splits, range names. */
class AddressesTest {
    private static final BigInteger V4_MAX = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);
    private static final BigInteger V6_MAX = BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE);

    private static BigInteger v4(String text) {
        return Addresses.host(Addresses.parse(text));
    }

    @Test
    void boundsOfNetworks() {
        Cidr.Parsed p = Addresses.parse("10.0.0.77/24");
        assertEquals(v4("10.0.0.0"), Addresses.first(p));
        assertEquals(v4("10.0.0.255"), Addresses.last(p));
        assertEquals(v4("10.0.0.77"), Addresses.host(p));
        assertEquals(BigInteger.ZERO, Addresses.first(Addresses.parse("10.1.2.3/0")));
        assertEquals(V4_MAX, Addresses.last(Addresses.parse("10.1.2.3/0")));
        assertEquals(V6_MAX, Addresses.last(Addresses.parse("::/0")));
        Cidr.Parsed p2p = Addresses.parse("2001:db8::1/127");
        assertEquals(Addresses.host(Addresses.parse("2001:db8::")), Addresses.first(p2p));
        assertEquals(Addresses.host(p2p), Addresses.last(p2p));
        assertEquals(Addresses.host(p2p), Addresses.first(Addresses.parse("2001:db8::1")));
    }

    @Test
    void integersPrintInTheirFamily() {
        assertEquals("0.0.0.0", Addresses.text(BigInteger.ZERO, 4));
        assertEquals("255.255.255.255", Addresses.text(V4_MAX, 4));
        assertEquals("10.0.0.1", Addresses.text(v4("10.0.0.1"), 4));
        assertEquals("::", Addresses.text(BigInteger.ZERO, 6));
        assertEquals("::1", Addresses.text(BigInteger.ONE, 6));
        assertEquals("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Addresses.text(V6_MAX, 6));
        assertEquals("2001:db8::1:0:0:1", Addresses.text(Addresses.host(Addresses.parse("2001:db8:0:0:1:0:0:1")), 6));
        assertEquals(BigInteger.valueOf(256), Addresses.blockSize(4, 24));
        assertEquals(BigInteger.ONE, Addresses.blockSize(6, 128));
    }

    @Test
    void intervalsSplitIntoTheFewestAlignedBlocks() {
        assertEquals(
                List.of(
                        new Addresses.Block(v4("10.0.0.1"), 32),
                        new Addresses.Block(v4("10.0.0.2"), 31),
                        new Addresses.Block(v4("10.0.0.4"), 31),
                        new Addresses.Block(v4("10.0.0.6"), 32)),
                Addresses.blocks(v4("10.0.0.1"), v4("10.0.0.6"), 4));
        assertEquals(List.of(new Addresses.Block(BigInteger.ZERO, 0)), Addresses.blocks(BigInteger.ZERO, V4_MAX, 4));
        assertEquals(List.of(new Addresses.Block(BigInteger.ZERO, 0)), Addresses.blocks(BigInteger.ZERO, V6_MAX, 6));
        assertEquals(
                List.of(new Addresses.Block(v4("10.0.0.0"), 25), new Addresses.Block(v4("10.0.0.128"), 26)),
                Addresses.blocks(v4("10.0.0.0"), v4("10.0.0.191"), 4));
        BigInteger base = Addresses.host(Addresses.parse("2001:db8::"));
        assertEquals(
                List.of(
                        new Addresses.Block(base.add(BigInteger.ONE), 128),
                        new Addresses.Block(base.add(BigInteger.TWO), 127)),
                Addresses.blocks(base.add(BigInteger.ONE), base.add(BigInteger.valueOf(3)), 6));
        assertEquals(List.of(new Addresses.Block(V4_MAX, 32)), Addresses.blocks(V4_MAX, V4_MAX, 4));
    }

    @Test
    void rangeNamesAndFamilies() {
        assertEquals("192.0.2.10-20/24", Addresses.rangeName("192.0.2.10/24", "192.0.2.20/24"));
        assertEquals("192.0.2.10-192.0.2.10/24", Addresses.rangeName("192.0.2.10/24", "192.0.2.10/24"));
        assertEquals("2001:db8::a-ff/64", Addresses.rangeName("2001:db8::a/64", "2001:db8::ff/64"));
        assertEquals(6, Addresses.family("2001:db8::1"));
        assertEquals(4, Addresses.family("10.0.0.1"));
        assertEquals("10.0.0.1/32", Networks.withMask("10.0.0.1"));
        assertEquals("::1/128", Networks.withMask("::1"));
        assertEquals("10.0.0.0/8", Networks.withMask("10.0.0.0/8"));
    }
}
