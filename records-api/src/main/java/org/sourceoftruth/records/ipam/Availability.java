package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.net.Addresses;
import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.web.ApiException;

/**
 * NetBox's available-ips and available-prefixes: what is free inside a prefix or IP range, and
 * allocation of the next free addresses or prefixes, on the shared {@link Allocation} skeleton
 * (advisory lock of the kind, parent row FOR UPDATE, creation through the engine).
 */
@ApplicationScoped
public class Availability {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** pg_advisory_xact_lock keys, one per kind of allocation (arbitrary constants). */
    private static final long LOCK_AVAILABLE_IPS = 0x5017_0001L;

    private static final long LOCK_AVAILABLE_PREFIXES = 0x5017_0002L;
    private static final int HOST_PAGE = 1000;

    @Inject
    Allocation allocation;

    /** The parent of an allocation: a prefix or an IP range. */
    public enum ParentKind {
        PREFIX("ipam.prefix", "ipam_prefix", "Prefix"),
        IP_RANGE("ipam.iprange", "ipam_iprange", "IPRange");

        final String contentType;
        final String table;
        final String className;

        ParentKind(String contentType, String table, String className) {
            this.contentType = contentType;
            this.table = table;
            this.className = className;
        }

        Allocation.Pool pool(long lockKey) {
            return new Allocation.Pool(lockKey, table, className);
        }
    }

    /** Where free addresses are looked for: bounds, VRF rule, exclusions. */
    private record Parent(
            ParentKind kind,
            long id,
            Long vrfId,
            int family,
            int maskLength,
            BigInteger first,
            BigInteger last,
            boolean anyVrf,
            boolean none,
            Row row) {}

    // ------------------------------------------------------------------ reads

    public List<JsonNode> availableIps(ParentKind kind, long id, int limit) {
        return allocation.read(db -> {
            Parent parent = parent(kind, Allocation.row(db, kind.pool(LOCK_AVAILABLE_IPS), id, false));
            List<JsonNode> out = new ArrayList<>();
            JsonNode vrf = allocation.nested(db, "ipam.vrf", parent.vrfId());
            for (BigInteger ip : freeAddresses(db, parent, limit)) {
                ObjectNode n = NODES.objectNode();
                n.put("family", parent.family());
                n.put("address", Addresses.text(ip, parent.family()) + "/" + parent.maskLength());
                n.set("vrf", vrf);
                out.add(n);
            }
            return out;
        });
    }

    public List<JsonNode> availablePrefixes(long id) {
        return allocation.read(db -> {
            Parent parent = parent(
                    ParentKind.PREFIX, Allocation.row(db, ParentKind.PREFIX.pool(LOCK_AVAILABLE_PREFIXES), id, false));
            JsonNode vrf = allocation.nested(db, "ipam.vrf", parent.vrfId());
            List<JsonNode> out = new ArrayList<>();
            for (Addresses.Block b : freeBlocks(parent, childPrefixes(db, parent))) {
                ObjectNode n = NODES.objectNode();
                n.put("family", parent.family());
                n.put("prefix", Addresses.text(b.first(), parent.family()) + "/" + b.maskLength());
                n.set("vrf", vrf);
                out.add(n);
            }
            return out;
        });
    }

    // ------------------------------------------------------------------ allocation

    /** Creates IP addresses at the next free addresses; one per requested object, in order. */
    public List<RenderedObject> allocateIps(ParentKind kind, long id, List<JsonNode> items, boolean bulk) {
        return allocation.allocate(kind.pool(LOCK_AVAILABLE_IPS), id, "ipam.ipaddress", bulk, (db, row) -> {
            Parent parent = parent(kind, row);
            List<Integer> lengths = requestedIpLengths(parent, items);
            List<BigInteger> free = freeAddresses(db, parent, items.size());
            if (free.size() < items.size()) {
                throw insufficient();
            }
            List<JsonNode> objects = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                ObjectNode o = ((ObjectNode) items.get(i)).deepCopy();
                o.remove("prefix_length");
                o.put("address", Addresses.text(free.get(i), parent.family()) + "/" + lengths.get(i));
                putVrf(o, parent.vrfId());
                objects.add(o);
            }
            return objects;
        });
    }

    /** Creates child prefixes of the requested lengths in the first free space that fits each. */
    public List<RenderedObject> allocatePrefixes(long id, List<JsonNode> items, boolean bulk) {
        Allocation.Pool pool = ParentKind.PREFIX.pool(LOCK_AVAILABLE_PREFIXES);
        return allocation.allocate(pool, id, "ipam.prefix", bulk, (db, row) -> {
            Parent parent = parent(ParentKind.PREFIX, row);
            List<Integer> lengths = requestedPrefixLengths(parent, items);
            List<IpSpace.Interval> occupied = new ArrayList<>(childPrefixes(db, parent));
            List<JsonNode> objects = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                int length = lengths.get(i);
                Addresses.Block chosen = freeBlocks(parent, occupied).stream()
                        .filter(b -> b.maskLength() <= length)
                        .findFirst()
                        .orElseThrow(Availability::insufficient);
                BigInteger size = Addresses.blockSize(parent.family(), length);
                occupied.add(IpSpace.Interval.of(
                        chosen.first(), chosen.first().add(size).subtract(BigInteger.ONE)));
                ObjectNode o = ((ObjectNode) items.get(i)).deepCopy();
                o.remove("prefix_length");
                o.put("prefix", Addresses.text(chosen.first(), parent.family()) + "/" + length);
                putVrf(o, parent.vrfId());
                objects.add(o);
            }
            return objects;
        });
    }

    static ApiException insufficient() {
        return Allocation.insufficient("Insufficient resources are available to satisfy the request");
    }

    private static void putVrf(ObjectNode o, Long vrfId) {
        if (vrfId == null) {
            o.putNull("vrf");
        } else {
            o.put("vrf", vrfId);
        }
    }

    // ------------------------------------------------------------------ request checks

    /**
     * Each requested object must be a dictionary; an optional prefix_length overrides the
     * parent's mask. Errors come back as a list aligned with the request, as NetBox's
     * many=True request serializer answers.
     */
    private static List<Integer> requestedIpLengths(Parent parent, List<JsonNode> items) {
        return Allocation.checkEach(items, (item, errors) -> {
            JsonNode len = item.get("prefix_length");
            if (len == null || len.isNull()) {
                return parent.maskLength();
            }
            if (!len.canConvertToInt() || !len.isIntegralNumber()) {
                errors.put("prefix_length", List.of("A valid integer is required."));
                return null;
            }
            int n = len.asInt();
            if (n < parent.maskLength()) {
                errors.put(
                        "prefix_length",
                        List.of("Prefix length must be greater than or equal to the parent mask" + " length ("
                                + parent.maskLength() + ")"));
            } else if (n > Addresses.bits(parent.family())) {
                errors.put("prefix_length", List.of("Invalid prefix length (" + n + ") for IPv" + parent.family()));
            }
            return n;
        });
    }

    private static List<Integer> requestedPrefixLengths(Parent parent, List<JsonNode> items) {
        return Allocation.checkEach(items, (item, errors) -> {
            JsonNode len = item.get("prefix_length");
            if (len == null || len.isNull()) {
                errors.put("prefix_length", List.of("this field can not be missing"));
                return null;
            }
            if (!len.isIntegralNumber() || !len.canConvertToInt()) {
                errors.put("prefix_length", List.of("this field must be int type"));
                return null;
            }
            int n = len.asInt();
            if (n > Addresses.bits(parent.family()) || n < 0) {
                errors.put("prefix_length", List.of("Invalid prefix length (" + n + ") for IPv" + parent.family()));
            }
            return n;
        });
    }

    // ------------------------------------------------------------------ space

    private static Parent parent(ParentKind kind, Row r) {
        long id = r.id();
        Long vrf = r.longValue("vrf_id");
        if (kind == ParentKind.PREFIX) {
            Cidr.Parsed p = Addresses.parse(r.get("prefix"));
            int bits = Addresses.bits(p.family());
            BigInteger first = Addresses.first(p);
            BigInteger last = Addresses.last(p);
            boolean wholeBlock = Boolean.TRUE.equals(r.get("is_pool")) || p.maskLength() >= bits - 1;
            if (!wholeBlock) {
                // IPv4 skips the network and broadcast addresses, IPv6 the subnet-router anycast address.
                first = first.add(BigInteger.ONE);
                if (p.family() == 4) {
                    last = last.subtract(BigInteger.ONE);
                }
            }
            boolean anyVrf = vrf == null && "container".equals(r.str("status"));
            return new Parent(kind, id, vrf, p.family(), p.maskLength(), first, last, anyVrf, false, r);
        }
        Cidr.Parsed start = Addresses.parse(r.get("start_address"));
        Cidr.Parsed end = Addresses.parse(r.get("end_address"));
        return new Parent(
                kind,
                id,
                vrf,
                start.family(),
                start.maskLength(),
                Addresses.host(start),
                Addresses.host(end),
                false,
                Boolean.TRUE.equals(r.get("mark_populated")),
                r);
    }

    /** The first {@code n} free addresses: not used by an IP of the parent's VRF, not in a populated range. */
    private List<BigInteger> freeAddresses(Db db, Parent parent, int n) {
        if (parent.none() || n <= 0) {
            return List.of();
        }
        int family = parent.family();
        String lo = Addresses.text(parent.first(), family);
        String hi = Addresses.text(parent.last(), family);
        String vrfRule = parent.anyVrf() ? "true" : "vrf_id is not distinct from ?";
        Iterator<IpSpace.Interval> hosts = IpSpace.paged(
                after -> {
                    List<Object> params = new ArrayList<>();
                    if (!parent.anyVrf()) {
                        params.add(parent.vrfId());
                    }
                    params.add(after == null ? lo : Addresses.text(after.lo(), family));
                    params.add(hi);
                    List<IpSpace.Interval> page = new ArrayList<>();
                    for (Row r : db.query(
                            "select distinct host(address)::inet as h from ipam_ipaddress where " + vrfRule
                                    + " and host(address)::inet " + (after == null ? ">=" : ">") + " ?::inet"
                                    + " and host(address)::inet <= ?::inet order by 1 limit " + HOST_PAGE,
                            params)) {
                        BigInteger h = Addresses.host(Addresses.parse(r.get("h")));
                        page.add(IpSpace.Interval.of(h, h));
                    }
                    return page;
                },
                HOST_PAGE);
        List<IpSpace.Interval> populated = new ArrayList<>();
        if (parent.kind() == ParentKind.PREFIX) {
            for (Row r : db.query(
                    "select start_address, end_address from ipam_iprange where mark_populated"
                            + " and vrf_id is not distinct from ? and host(start_address)::inet <= ?::inet"
                            + " and host(end_address)::inet >= ?::inet order by host(start_address)::inet",
                    parent.vrfId(),
                    hi,
                    lo)) {
                populated.add(IpSpace.Interval.of(
                        Addresses.host(Addresses.parse(r.get("start_address"))),
                        Addresses.host(Addresses.parse(r.get("end_address")))));
            }
        }
        return IpSpace.firstFree(parent.first(), parent.last(), IpSpace.merge(hosts, populated.iterator()), n);
    }

    /** Child prefixes of the parent's VRF inside it, as intervals. */
    private static List<IpSpace.Interval> childPrefixes(Db db, Parent parent) {
        List<IpSpace.Interval> out = new ArrayList<>();
        for (Row r : db.query(
                "select prefix from ipam_prefix where vrf_id is not distinct from ? and prefix << ?::cidr",
                parent.vrfId(),
                parent.row().str("prefix"))) {
            Cidr.Parsed p = Addresses.parse(r.get("prefix"));
            out.add(IpSpace.Interval.of(Addresses.first(p), Addresses.last(p)));
        }
        return out;
    }

    /** The free space of the whole parent prefix as CIDR blocks in address order. */
    private static List<Addresses.Block> freeBlocks(Parent parent, List<IpSpace.Interval> occupied) {
        Cidr.Parsed p = Addresses.parse(parent.row().get("prefix"));
        List<Addresses.Block> out = new ArrayList<>();
        for (IpSpace.Interval free : IpSpace.free(Addresses.first(p), Addresses.last(p), occupied)) {
            out.addAll(Addresses.blocks(free.lo(), free.hi(), parent.family()));
        }
        return out;
    }
}
