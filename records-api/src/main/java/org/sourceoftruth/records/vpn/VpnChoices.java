package org.sourceoftruth.records.vpn;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.sourceoftruth.records.model.ChoiceSet;

/** NetBox 4.4's vpn choice sets (vpn/choices.py). */
public final class VpnChoices {
    public static final ChoiceSet TUNNEL_STATUS = ChoiceSet.capitalised("planned", "active", "disabled");
    public static final ChoiceSet TUNNEL_ENCAPSULATION = ChoiceSet.of(
            "ipsec-transport",
            "IPsec - Transport",
            "ipsec-tunnel",
            "IPsec - Tunnel",
            "ip-ip",
            "IP-in-IP",
            "gre",
            "GRE",
            "wireguard",
            "WireGuard",
            "openvpn",
            "OpenVPN",
            "l2tp",
            "L2TP",
            "pptp",
            "PPTP");
    public static final ChoiceSet TERMINATION_ROLE = ChoiceSet.capitalised("peer", "hub", "spoke");
    public static final ChoiceSet IKE_VERSION =
            ChoiceSet.of("1", "IKEv1", "2", "IKEv2").numeric();
    public static final ChoiceSet IKE_MODE = ChoiceSet.capitalised("aggressive", "main");
    public static final ChoiceSet AUTHENTICATION_METHOD = ChoiceSet.of(
            "preshared-keys",
            "Pre-shared keys",
            "certificates",
            "Certificates",
            "rsa-signatures",
            "RSA signatures",
            "dsa-signatures",
            "DSA signatures");
    public static final ChoiceSet IPSEC_MODE = ChoiceSet.of("esp", "ESP", "ah", "AH");
    public static final ChoiceSet ENCRYPTION_ALGORITHM = ChoiceSet.of(
            "aes-128-cbc",
            "128-bit AES (CBC)",
            "aes-128-gcm",
            "128-bit AES (GCM)",
            "aes-192-cbc",
            "192-bit AES (CBC)",
            "aes-192-gcm",
            "192-bit AES (GCM)",
            "aes-256-cbc",
            "256-bit AES (CBC)",
            "aes-256-gcm",
            "256-bit AES (GCM)",
            "3des-cbc",
            "3DES",
            "des-cbc",
            "DES");
    public static final ChoiceSet AUTHENTICATION_ALGORITHM = ChoiceSet.of(
            "hmac-sha1",
            "SHA-1 HMAC",
            "hmac-sha256",
            "SHA-256 HMAC",
            "hmac-sha384",
            "SHA-384 HMAC",
            "hmac-sha512",
            "SHA-512 HMAC",
            "hmac-md5",
            "MD5 HMAC");
    /** Diffie-Hellman groups (IANA IKEv2 transform type 4), labelled "Group n". */
    public static final ChoiceSet DH_GROUP = dhGroups();

    public static final ChoiceSet L2VPN_TYPE = ChoiceSet.of(
            "vpws",
            "VPWS",
            "vpls",
            "VPLS",
            "vxlan",
            "VXLAN",
            "vxlan-evpn",
            "VXLAN-EVPN",
            "mpls-evpn",
            "MPLS EVPN",
            "pbb-evpn",
            "PBB EVPN",
            "evpn-vpws",
            "EVPN VPWS",
            "epl",
            "EPL",
            "evpl",
            "EVPL",
            "ep-lan",
            "Ethernet Private LAN",
            "evp-lan",
            "Ethernet Virtual Private LAN",
            "ep-tree",
            "Ethernet Private Tree",
            "evp-tree",
            "Ethernet Virtual Private Tree",
            "spb",
            "SPB");
    /** Point-to-point L2VPN types: at most two terminations (L2VPNTypeChoices.P2P). */
    public static final Set<String> L2VPN_POINT_TO_POINT = Set.of("vpws", "epl", "ep-lan", "ep-tree");

    public static final ChoiceSet L2VPN_STATUS = ChoiceSet.capitalised("active", "planned", "decommissioning");

    private VpnChoices() {}

    private static ChoiceSet dhGroups() {
        List<String> pairs = new ArrayList<>();
        for (int g :
                new int[] {1, 2, 5, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34
                }) {
            pairs.add(String.valueOf(g));
            pairs.add("Group " + g);
        }
        return ChoiceSet.of(pairs.toArray(String[]::new)).numeric();
    }
}
