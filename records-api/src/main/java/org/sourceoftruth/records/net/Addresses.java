package org.sourceoftruth.records.net;

import inet.ipaddr.IPAddress;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv6.IPv6Address;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * IP arithmetic the database cannot do for us, on the IPAddress library: addresses as unsigned
 * integers (IPv6 needs 128 bits), first and last address of a network, the split of an address
 * interval into CIDR blocks, and NetBox's text forms.
 */
public final class Addresses {
    private Addresses() {}

    /** Parses an inet/cidr value as PostgreSQL prints it (or as the engine holds a new one). */
    public static Cidr.Parsed parse(Object value) {
        return Cidr.parse(Networks.withMask(String.valueOf(value)), true)
                .orElseThrow(() -> new IllegalArgumentException("not an address: " + value));
    }

    public static int family(Object value) {
        return String.valueOf(value).indexOf(':') >= 0 ? 6 : 4;
    }

    /** {value: 4, label: "IPv4"}: NetBox's family choice in full representations. */
    public static Map<String, Object> familyChoice(Object value) {
        int f = family(value);
        Map<String, Object> choice = new java.util.LinkedHashMap<>();
        choice.put("value", f);
        choice.put("label", "IPv" + f);
        return choice;
    }

    public static int bits(int family) {
        return family == 4 ? 32 : 128;
    }

    public static BigInteger host(Cidr.Parsed p) {
        return p.ip().getValue();
    }

    public static BigInteger first(Cidr.Parsed p) {
        return p.block().getValue();
    }

    public static BigInteger last(Cidr.Parsed p) {
        return p.block().getUpperValue();
    }

    /** The number of addresses in a block of this mask length, e.g. 256 for an IPv4 /24. */
    public static BigInteger blockSize(int family, int maskLength) {
        return BigInteger.ONE.shiftLeft(bits(family) - maskLength);
    }

    /** The address text (no mask) of an integer in the given family, IPv6 compressed. */
    public static String text(BigInteger value, int family) {
        return text(address(value, family));
    }

    /**
     * An address as PostgreSQL and netaddr print it: IPv4 dotted decimal, IPv6 in the RFC 5952
     * canonical form (lower case, the longest run of two or more zero groups compressed, the
     * first such run on a tie).
     */
    static String text(IPAddress address) {
        return address.withoutPrefixLength().toCanonicalString();
    }

    /** A CIDR block: first address and mask length. */
    public record Block(BigInteger first, int maskLength) {}

    /**
     * Splits [lo, hi] into the fewest aligned CIDR blocks, in address order (netaddr's
     * iprange_to_cidrs).
     */
    public static List<Block> blocks(BigInteger lo, BigInteger hi, int family) {
        IPAddress from = address(lo, family);
        List<Block> out = new ArrayList<>();
        for (IPAddress block : from.spanWithPrefixBlocks(address(hi, family))) {
            Integer length = block.getNetworkPrefixLength();
            out.add(new Block(block.getValue(), length == null ? bits(family) : length));
        }
        return out;
    }

    private static IPAddress address(BigInteger value, int family) {
        return family == 4 ? new IPv4Address(value.intValue()) : new IPv6Address(value);
    }

    /**
     * NetBox's IPRange name: the common leading groups once, then the differing tails,
     * e.g. 192.0.2.10-20/24; single-address ranges show both ends.
     */
    public static String rangeName(Object start, Object end) {
        Cidr.Parsed s = parse(start);
        Cidr.Parsed e = parse(end);
        String sHost = host(s.text());
        String eHost = host(e.text());
        if (sHost.equals(eHost)) {
            return sHost + "-" + eHost + "/" + s.maskLength();
        }
        String sep = s.family() == 6 ? ":" : ".";
        List<String> a = Arrays.asList(sHost.split(java.util.regex.Pattern.quote(sep), -1));
        List<String> b = Arrays.asList(eHost.split(java.util.regex.Pattern.quote(sep), -1));
        List<String> base = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (a.get(i).equals(b.get(i))) {
                base.add(a.get(i));
            }
        }
        String startTail = String.join(sep, a.subList(base.size(), a.size()));
        String endTail = String.join(sep, b.subList(base.size(), b.size()));
        return String.join(sep, base) + sep + startTail + "-" + endTail + "/" + s.maskLength();
    }

    public static String host(String withMask) {
        int slash = withMask.indexOf('/');
        return slash < 0 ? withMask : withMask.substring(0, slash);
    }
}
