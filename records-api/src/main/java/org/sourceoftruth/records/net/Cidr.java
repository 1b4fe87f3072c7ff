package org.sourceoftruth.records.net;

import inet.ipaddr.AddressStringParameters.RangeParameters;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressNetwork.IPAddressGenerator;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.IPAddressStringParameters;
import java.util.Optional;

/**
 * Strict parsing of IP addresses and prefixes ("10.0.0.1/24", "2001:db8::/32") with the
 * IPAddress library. Only literal IPv4 dotted quads (four decimal parts, no leading zeros) and
 * IPv6 literals with an optional decimal mask length are accepted: no host names, no inet_aton
 * forms (010.1, 167772161), no masks written as addresses, no ranges or wildcards, no zones.
 */
public final class Cidr {
    private static final IPAddressStringParameters STRICT = strictParameters();
    private static final IPAddressGenerator FROM_BYTES = new IPAddressGenerator();

    /** A parsed value: the address bytes, the mask length and the normalised text. */
    public record Parsed(byte[] address, int maskLength, boolean hasMask) {
        public int family() {
            return address.length == 4 ? 4 : 6;
        }

        /** The address without a prefix length, for the library's arithmetic and text forms. */
        IPAddress ip() {
            return FROM_BYTES.from(address);
        }

        /** "10.0.0.1/24", "2001:db8::1/64": IPv6 compressed as PostgreSQL and netaddr print it. */
        public String text() {
            return Addresses.text(ip()) + "/" + maskLength;
        }

        /** The network of this value: host bits cleared (NetBox stores prefixes this way). */
        public Parsed network() {
            return new Parsed(block().getLower().getBytes(), maskLength, hasMask);
        }

        /** True when bits beyond the mask are set (not a network address). */
        public boolean hasHostBits() {
            return !ip().getValue().equals(block().getValue());
        }

        /** True when every bit beyond the mask is set (an IPv4 broadcast address; any /32). */
        public boolean isBroadcast() {
            return ip().getValue().equals(block().getUpperValue());
        }

        /** Every address of the network this value's mask names. */
        IPAddress block() {
            return ip().toPrefixBlock(maskLength);
        }

        @Override
        public String toString() {
            return text();
        }
    }

    private Cidr() {}

    /**
     * @param requireMask when true a bare address is rejected; when false it gets a host mask
     */
    public static Optional<Parsed> parse(String raw, boolean requireMask) {
        if (raw == null) {
            return Optional.empty();
        }
        IPAddressString text = new IPAddressString(raw.trim(), STRICT);
        if (!text.isIPAddress()) {
            return Optional.empty();
        }
        Integer length = text.getNetworkPrefixLength();
        if (length == null && requireMask) {
            return Optional.empty();
        }
        IPAddress host = text.getHostAddress();
        return Optional.of(new Parsed(host.getBytes(), length == null ? host.getBitCount() : length, length != null));
    }

    private static IPAddressStringParameters strictParameters() {
        IPAddressStringParameters.Builder b = new IPAddressStringParameters.Builder()
                .allowEmpty(false)
                .allowAll(false)
                .allowSingleSegment(false)
                .allowMask(false)
                .allowPrefixOnly(false)
                .allowWildcardedSeparator(false)
                .setRangeOptions(RangeParameters.NO_RANGE)
                .allow_inet_aton(false);
        b.getIPv4AddressParametersBuilder().allowLeadingZeros(false).allowBinary(false);
        b.getIPv6AddressParametersBuilder().allowBinary(false);
        b.getIPv6AddressParametersBuilder().allowZone(false).allowBase85(false);
        return b.toParams();
    }
}
