package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.net.Addresses;
import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.virtualization.VirtualizationTables;

/**
 * IPAM model rules (NetBox's clean() methods) with NetBox's messages. Rules that compare with
 * other rows query them in the write's transaction.
 */
final class IpamRules {
    private static final BigInteger MAX_RANGE_SIZE = BigInteger.valueOf(4294967295L);

    /** ENFORCE_GLOBAL_UNIQUE: addresses and prefixes without a VRF must be unique. */
    private final boolean enforceGlobalUnique;

    IpamRules(boolean enforceGlobalUnique) {
        this.enforceGlobalUnique = enforceGlobalUnique;
    }

    private static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }

    /** Whether duplicates are refused in this VRF (null = the global table). */
    private boolean enforcesUnique(Queries db, Long vrfId) {
        if (vrfId == null) {
            return enforceGlobalUnique;
        }
        List<Row> rows = db.query("select enforce_unique from ipam_vrf where id = ?", vrfId);
        return !rows.isEmpty() && Boolean.TRUE.equals(rows.get(0).get("enforce_unique"));
    }

    /**
     * Takes, until the write's transaction ends, the lock on one value in one VRF, so that
     * concurrent writes of the same value check for duplicates one after the other: each sees
     * the rows that the earlier ones committed (read committed: every statement takes a new
     * snapshot). A lock rather than a unique index because the rule depends on settings and on
     * other rows (ENFORCE_GLOBAL_UNIQUE, the VRF's enforce_unique, non-unique roles).
     *
     * @param model the content type, keeping prefixes and addresses apart
     * @param value the prefix, or the host address without its mask
     */
    private static void lockValue(Queries db, String model, Long vrfId, String value) {
        db.query(
                "select pg_advisory_xact_lock(hashtext(?), hashtext(?))",
                model,
                (vrfId == null ? "global" : "vrf " + vrfId) + " " + value);
    }

    /** "VRF <name> (<rd>)" or "global table", as NetBox names the table in duplicate messages. */
    private static String table(Queries db, Long vrfId) {
        return vrfId == null ? "global table" : "VRF " + vrfName(db, vrfId);
    }

    static String vrfName(Queries db, Long vrfId) {
        if (vrfId == null) {
            return "None";
        }
        Row vrf = db.query("select name, rd from ipam_vrf where id = ?", vrfId).get(0);
        return vrf.get("rd") == null ? vrf.str("name") : vrf.str("name") + " (" + vrf.str("rd") + ")";
    }

    // ------------------------------------------------------------------ prefixes

    void prefix(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Cidr.Parsed p = Addresses.parse(row.get("prefix"));
        if (p.maskLength() == 0) {
            add(errors, "prefix", "Cannot create prefix with /0 mask.");
            return;
        }
        Long vrf = row.longValue("vrf_id");
        if (!enforcesUnique(db, vrf)) {
            return;
        }
        lockValue(db, "ipam.prefix", vrf, p.text());
        if (!db.query(
                        "select 1 from ipam_prefix where vrf_id is not distinct from ?"
                                + " and prefix = ?::cidr and id <> ?",
                        vrf,
                        p.text(),
                        selfId == null ? -1L : selfId)
                .isEmpty()) {
            add(errors, "prefix", "Duplicate prefix found in " + table(db, vrf) + ": " + p.text());
        }
    }

    void aggregate(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Cidr.Parsed p = Addresses.parse(row.get("prefix"));
        if (p.maskLength() == 0) {
            add(errors, "prefix", "Cannot create aggregate with /0 mask.");
            return;
        }
        long self = selfId == null ? -1L : selfId;
        List<Row> covering = db.query(
                "select prefix from ipam_aggregate where prefix >>= ?::cidr and id <> ?" + " order by prefix limit 1",
                p.text(),
                self);
        if (!covering.isEmpty()) {
            add(
                    errors,
                    "prefix",
                    "Aggregates cannot overlap. " + p.text() + " is already covered by an existing" + " aggregate ("
                            + covering.get(0).str("prefix") + ").");
            return;
        }
        List<Row> covered = db.query(
                "select prefix from ipam_aggregate where prefix << ?::cidr and id <> ?" + " order by prefix limit 1",
                p.text(),
                self);
        if (!covered.isEmpty()) {
            add(
                    errors,
                    "prefix",
                    "Prefixes cannot overlap aggregates. " + p.text() + " covers an existing" + " aggregate ("
                            + covered.get(0).str("prefix") + ").");
        }
    }

    // ------------------------------------------------------------------ IP ranges

    void ipRange(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Cidr.Parsed start = Addresses.parse(row.get("start_address"));
        Cidr.Parsed end = Addresses.parse(row.get("end_address"));
        if (start.family() != end.family()) {
            add(errors, "end_address", "Starting and ending IP address versions must match");
            return;
        }
        if (start.maskLength() != end.maskLength()) {
            add(errors, "end_address", "Starting and ending IP address masks must match");
            return;
        }
        BigInteger s = Addresses.host(start);
        BigInteger e = Addresses.host(end);
        if (e.compareTo(s) < 0) {
            add(
                    errors,
                    "end_address",
                    "Ending address must be greater than or equal to the starting address (" + start.text() + ")");
            return;
        }
        Long vrf = row.longValue("vrf_id");
        List<Row> overlap = db.query(
                "select start_address, end_address from ipam_iprange where id <> ?"
                        + " and vrf_id is not distinct from ? and host(start_address)::inet <= host(?::inet)::inet"
                        + " and host(end_address)::inet >= host(?::inet)::inet order by start_address limit 1",
                selfId == null ? -1L : selfId,
                vrf,
                end.text(),
                start.text());
        if (!overlap.isEmpty()) {
            add(
                    errors,
                    "__all__",
                    "Defined addresses overlap with range "
                            + Addresses.rangeName(
                                    overlap.get(0).get("start_address"),
                                    overlap.get(0).get("end_address"))
                            + " in VRF " + vrfName(db, vrf));
            return;
        }
        if (e.subtract(s).add(BigInteger.ONE).compareTo(MAX_RANGE_SIZE) > 0) {
            add(errors, "__all__", "Defined range exceeds maximum supported size (" + MAX_RANGE_SIZE + ")");
        }
    }

    // ------------------------------------------------------------------ IP addresses

    void ipAddress(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Cidr.Parsed p = Addresses.parse(row.get("address"));
        String host = Addresses.host(p.text());
        if (p.maskLength() == 0) {
            add(errors, "address", "Cannot create IP address with /0 mask.");
            return;
        }
        if (row.get("assigned_object_type") != null) {
            boolean pointToPoint = p.family() == 4 ? p.maskLength() >= 31 : p.maskLength() >= 127;
            if (!pointToPoint && !p.hasHostBits()) {
                add(errors, "__all__", host + " is a network ID, which may not be assigned to an interface.");
            } else if (!pointToPoint && p.family() == 4 && p.isBroadcast()) {
                add(errors, "__all__", host + " is a broadcast address, which may not be assigned to an interface.");
            }
        }
        Long vrf = row.longValue("vrf_id");
        long self = selfId == null ? -1L : selfId;
        if (enforcesUnique(db, vrf)) {
            lockValue(db, "ipam.ipaddress", vrf, host);
            List<Row> duplicates = db.query(
                    "select address, role from ipam_ipaddress where vrf_id is not distinct from ?"
                            + " and host(address)::inet = ?::inet and id <> ? order by id",
                    vrf,
                    host,
                    self);
            boolean allowed = !duplicates.isEmpty()
                    && nonUnique(row.str("role"))
                    && duplicates.stream().allMatch(d -> nonUnique(d.str("role")));
            if (!duplicates.isEmpty() && !allowed) {
                add(
                        errors,
                        "address",
                        "Duplicate IP address found in " + table(db, vrf) + ": "
                                + org.sourceoftruth.records.net.Networks.withMask(
                                        duplicates.get(0).str("address")));
            }
        }
        if (selfId == null) {
            List<Row> ranges = db.query(
                    "select start_address, end_address from ipam_iprange where mark_populated"
                            + " and vrf_id is not distinct from ? and host(start_address)::inet <= ?::inet"
                            + " and host(end_address)::inet >= ?::inet limit 1",
                    vrf,
                    host,
                    host);
            if (!ranges.isEmpty()) {
                add(
                        errors,
                        "address",
                        "Cannot create IP address " + p.text() + " inside range "
                                + Addresses.rangeName(
                                        ranges.get(0).get("start_address"),
                                        ranges.get(0).get("end_address"))
                                + ".");
            }
        }
        if (selfId != null) {
            keepPrimaryOnItsParent(db, row, selfId, p.family(), errors);
        }
        if ("slaac".equals(row.str("status")) && p.family() != 6) {
            add(errors, "status", "Only IPv6 addresses can be assigned SLAAC status");
        }
    }

    private static boolean nonUnique(String role) {
        return role != null && IpamChoices.NONUNIQUE_ROLES.contains(role);
    }

    /** The device or VM owning an interface-like assignment, as "dcim.device:12" (null if none). */
    static String parentOf(Queries db, Object type, Object id) {
        if (type == null || id == null) {
            return null;
        }
        String sql = switch (String.valueOf(type)) {
            case "dcim.interface" ->
                "select 'dcim.device:' || device_id as p from " + DcimTables.INTERFACE + " where id = ?";
            case "virtualization.vminterface" ->
                "select 'virtualization.virtualmachine:' || virtual_machine_id as p from "
                        + VirtualizationTables.VMINTERFACE + " where id = ?";
            default -> null;
        };
        if (sql == null) {
            return null;
        }
        List<Row> rows = db.query(sql, ((Number) id).longValue());
        return rows.isEmpty() ? null : rows.get(0).str("p");
    }

    /**
     * An address that is a device's or VM's primary (or OOB) IP cannot move to another parent,
     * nor be unassigned, while it is designated so.
     */
    private static void keepPrimaryOnItsParent(
            Queries db, Row row, long selfId, int family, Map<String, List<String>> errors) {
        String primaryColumn = "primary_ip" + family + "_id";
        String newParent = parentOf(db, row.get("assigned_object_type"), row.get("assigned_object_id"));
        for (Row r : db.query(
                "select 'dcim.device:' || id as p from " + DcimTables.DEVICE + " where " + primaryColumn + " = ?"
                        + " union all select 'virtualization.virtualmachine:' || id from "
                        + VirtualizationTables.VIRTUALMACHINE + " where "
                        + primaryColumn + " = ?",
                selfId,
                selfId)) {
            if (!r.str("p").equals(newParent)) {
                add(
                        errors,
                        "__all__",
                        "Cannot reassign IP address while it is designated as the primary IP for the"
                                + " parent object");
                return;
            }
        }
        for (Row r : db.query(
                "select 'dcim.device:' || id as p from " + DcimTables.DEVICE + " where oob_ip_id = ?", selfId)) {
            if (!r.str("p").equals(newParent)) {
                add(
                        errors,
                        "__all__",
                        "Cannot reassign IP address while it is designated as the OOB IP for the" + " parent object");
                return;
            }
        }
    }

    // ------------------------------------------------------------------ VLANs

    void vlan(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long group = row.longValue("group_id");
        if (group == null) {
            return;
        }
        Row g = db.query(
                        "select g.name, g.scope_type, g.scope_id, g.vid_ranges, s.name as scope_name"
                                + " from ipam_vlangroup g left join " + DcimTables.SITE
                                + " s on g.scope_type = 'dcim.site' and s.id = g.scope_id"
                                + " where g.id = ?",
                        group)
                .get(0);
        Long site = row.longValue("site_id");
        if (site != null && "dcim.site".equals(g.str("scope_type")) && !site.equals(g.longValue("scope_id"))) {
            String siteName = db.query("select name from " + DcimTables.SITE + " where id = ?", site)
                    .get(0)
                    .str("name");
            add(
                    errors,
                    "__all__",
                    "VLAN is assigned to group " + g.str("name") + " (scope: " + g.str("scope_name")
                            + "); cannot also assign to site " + siteName + ".");
        }
        Long vid = row.longValue("vid");
        JsonNode ranges = (JsonNode) g.get("vid_ranges");
        if (vid != null && ranges != null) {
            boolean inside = false;
            List<String> text = new ArrayList<>();
            for (JsonNode r : ranges) {
                long lo = r.get(0).asLong();
                long hi = r.get(1).asLong();
                inside |= vid >= lo && vid <= hi;
                text.add(lo == hi ? String.valueOf(lo) : lo + "-" + hi);
            }
            if (!inside) {
                add(
                        errors,
                        "vid",
                        "VID must be in ranges " + String.join(", ", text) + " for VLANs in group " + g.str("name"));
            }
        }
    }

    /** NetBox's VLAN.clean() on Q-in-Q: only a customer VLAN has a service VLAN, and it must have one. */
    static void vlanQinq(Row row, Map<String, List<String>> errors) {
        boolean customer = "cvlan".equals(row.get("qinq_role"));
        if (row.get("qinq_svlan_id") != null && !customer) {
            errors.computeIfAbsent("qinq_svlan", k -> new java.util.ArrayList<>())
                    .add("Only Q-in-Q customer VLANs maybe assigned to a service VLAN.");
        } else if (customer && row.get("qinq_svlan_id") == null) {
            errors.computeIfAbsent("qinq_role", k -> new java.util.ArrayList<>())
                    .add("A Q-in-Q customer VLAN must be assigned to a service VLAN.");
        }
    }

    /** vid_ranges: a list of inclusive [low, high] pairs within 1-4094 that do not overlap. */
    static void vidRanges(Row row, Map<String, List<String>> errors) {
        Object value = row.get("vid_ranges");
        if (!(value instanceof JsonNode ranges) || !ranges.isArray() || ranges.isEmpty()) {
            add(errors, "vid_ranges", "Enter a list of VLAN ID ranges, each a [low, high] pair of integers.");
            return;
        }
        List<long[]> pairs = new ArrayList<>();
        for (JsonNode r : ranges) {
            if (!r.isArray()
                    || r.size() != 2
                    || !r.get(0).isIntegralNumber()
                    || !r.get(1).isIntegralNumber()) {
                add(errors, "vid_ranges", "Enter a list of VLAN ID ranges, each a [low, high] pair of integers.");
                return;
            }
            // compared as given: a bound beyond 64 bits must not wrap around into the range
            java.math.BigInteger low = r.get(0).bigIntegerValue();
            java.math.BigInteger high = r.get(1).bigIntegerValue();
            if (low.compareTo(java.math.BigInteger.ONE) < 0) {
                add(errors, "vid_ranges", "Starting VLAN ID in range (" + low + ") cannot be less than 1");
                return;
            }
            if (high.compareTo(java.math.BigInteger.valueOf(4094)) > 0) {
                add(errors, "vid_ranges", "Ending VLAN ID in range (" + high + ") cannot exceed 4094");
                return;
            }
            long lo = low.longValue();
            long hi = high.longValue();
            if (lo > hi) {
                add(
                        errors,
                        "vid_ranges",
                        "Ending VLAN ID in range must be greater than or equal to the starting" + " VLAN ID (" + lo
                                + "-" + hi + ")");
                return;
            }
            for (long[] other : pairs) {
                if (lo <= other[1] && other[0] <= hi) {
                    add(errors, "vid_ranges", "Ranges cannot overlap.");
                    return;
                }
            }
            pairs.add(new long[] {lo, hi});
        }
    }
}
