package org.sourceoftruth.records.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Strict parsing of IP addresses and prefixes ("10.0.0.1/24", "2001:db8::/32"). Never resolves
 * names: only literal IPv4 dotted quads and IPv6 literals are accepted.
 */
public final class Cidr {
    private static final Pattern IPV4 = Pattern.compile("^(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}$");
    private static final Pattern IPV6_CHARS = Pattern.compile("^[0-9a-fA-F:.]+$");

    /** A parsed value: the address bytes, the mask length and the normalised text. */
    public record Parsed(byte[] address, int maskLength, boolean hasMask) {
        public int family() {
            return address.length == 4 ? 4 : 6;
        }

        public String text() {
            try {
                String host = InetAddress.getByAddress(address).getHostAddress();
                if (family() == 6) {
                    host = compress(host);
                }
                return host + "/" + maskLength;
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The network of this value: host bits cleared (NetBox stores prefixes this way). */
        public Parsed network() {
            byte[] net = address.clone();
            for (int bit = maskLength; bit < net.length * 8; bit++) {
                net[bit / 8] &= (byte) ~(0x80 >> (bit % 8));
            }
            return new Parsed(net, maskLength, hasMask);
        }

        /** True when bits beyond the mask are set (not a network address). */
        public boolean hasHostBits() {
            for (int bit = maskLength; bit < address.length * 8; bit++) {
                if ((address[bit / 8] & (0x80 >> (bit % 8))) != 0) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String toString() {
            return text();
        }
    }

    private Cidr() {
    }

    /**
     * @param requireMask when true a bare address is rejected; when false it gets a host mask
     */
    public static Optional<Parsed> parse(String raw, boolean requireMask) {
        if (raw == null) {
            return Optional.empty();
        }
        String s = raw.trim();
        int slash = s.indexOf('/');
        String host = slash < 0 ? s : s.substring(0, slash);
        byte[] bytes;
        if (IPV4.matcher(host).matches()) {
            bytes = v4(host);
        } else if (host.indexOf(':') >= 0 && IPV6_CHARS.matcher(host).matches()) {
            try {
                bytes = InetAddress.getByName(host).getAddress();
            } catch (UnknownHostException e) {
                return Optional.empty();
            }
            if (bytes.length != 16) {
                return Optional.empty();
            }
        } else {
            return Optional.empty();
        }
        int max = bytes.length * 8;
        int mask = max;
        if (slash >= 0) {
            try {
                mask = Integer.parseInt(s.substring(slash + 1));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
            if (mask < 0 || mask > max) {
                return Optional.empty();
            }
        } else if (requireMask) {
            return Optional.empty();
        }
        return Optional.of(new Parsed(bytes, mask, slash >= 0));
    }

    private static byte[] v4(String host) {
        String[] parts = host.split("\\.");
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            b[i] = (byte) Integer.parseInt(parts[i]);
        }
        return b;
    }

    /** Java prints IPv6 uncompressed (2001:db8:0:0:0:0:0:1); compress the longest zero run. */
    static String compress(String full) {
        String[] groups = full.split(":");
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < groups.length; ) {
            if (groups[i].equals("0")) {
                int j = i;
                while (j < groups.length && groups[j].equals("0")) {
                    j++;
                }
                if (j - i > bestLen && j - i > 1) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestStart < 0) {
            return full;
        }
        String left = String.join(":", java.util.Arrays.copyOfRange(groups, 0, bestStart));
        String right = String.join(":", java.util.Arrays.copyOfRange(groups, bestStart + bestLen, groups.length));
        return left + "::" + right;
    }
}
