package org.sourceoftruth.records.net;


import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * IP arithmetic the database cannot do for us: addresses as unsigned integers (IPv6 needs 128
 * bits), first and last address of a network, and NetBox's text forms.
 */
public final class Addresses {
    private Addresses() {
    }

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

    public static BigInteger toInt(byte[] address) {
        return new BigInteger(1, address);
    }

    public static BigInteger host(Cidr.Parsed p) {
        return toInt(p.address());
    }

    public static BigInteger first(Cidr.Parsed p) {
        return toInt(p.network().address());
    }

    public static BigInteger last(Cidr.Parsed p) {
        int hostBits = bits(p.family()) - p.maskLength();
        return first(p).add(BigInteger.ONE.shiftLeft(hostBits).subtract(BigInteger.ONE));
    }

    /** The address text (no mask) of an integer in the given family, IPv6 compressed. */
    public static String text(BigInteger value, int family) {
        byte[] raw = value.toByteArray();
        int len = family == 4 ? 4 : 16;
        byte[] out = new byte[len];
        int copy = Math.min(raw.length, len);
        System.arraycopy(raw, raw.length - copy, out, len - copy, copy);
        try {
            String s = InetAddress.getByAddress(out).getHostAddress();
            return family == 6 ? compress(s) : s;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** "2001:db8:0:0:0:0:0:1" → "2001:db8::1" (longest zero run, as PostgreSQL and netaddr print). */
    private static String compress(String full) {
        return Cidr.parse(full, false).map(p -> {
            String t = p.text();
            return t.substring(0, t.indexOf('/'));
        }).orElse(full);
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
