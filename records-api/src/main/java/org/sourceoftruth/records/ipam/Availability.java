package org.sourceoftruth.records.ipam;

import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.net.Addresses;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NetBox's available-ips and available-prefixes: what is free inside a prefix or IP range, and
 * allocation of the next free addresses or prefixes. Allocation runs in one transaction that
 * first takes a transaction-level advisory lock (as NetBox does, so overlapping parents cannot
 * hand out the same space) and locks the parent row FOR UPDATE, then creates the objects through
 * the engine with the normal validation and change log. Concurrent requests therefore queue and
 * each sees the addresses the previous one created.
 */
@ApplicationScoped
public class Availability {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** pg_advisory_xact_lock keys, one per kind of allocation (arbitrary constants). */
    private static final long LOCK_AVAILABLE_IPS = 0x5017_0001L;
    private static final long LOCK_AVAILABLE_PREFIXES = 0x5017_0002L;
    private static final int HOST_PAGE = 1000;

    @Inject
    AgroalDataSource dataSource;
    @Inject
    ModelRegistry registry;
    @Inject
    ModelService service;
    @Inject
    Renderer renderer;
    @Inject
    RequestContext request;

    /** The parent of an allocation: a prefix or an IP range. */
    public enum ParentKind {
        PREFIX("ipam.prefix", "Prefix"), IP_RANGE("ipam.iprange", "IPRange");

        final String contentType;
        final String className;

        ParentKind(String contentType, String className) {
            this.contentType = contentType;
            this.className = className;
        }
    }

    /** Where free addresses are looked for: bounds, VRF rule, exclusions. */
    private record Parent(ParentKind kind, long id, Long vrfId, int family, int maskLength, BigInteger first,
                          BigInteger last, boolean anyVrf, boolean none, Row row) {
    }

    // ------------------------------------------------------------------ reads

    public List<JsonNode> availableIps(ParentKind kind, long id, int limit) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            Parent parent = parent(db, kind, id, false);
            List<JsonNode> out = new ArrayList<>();
            JsonNode vrf = nestedVrf(db, parent.vrfId());
            for (BigInteger ip : freeAddresses(db, parent, limit)) {
                ObjectNode n = NODES.objectNode();
                n.put("family", parent.family());
                n.put("address", Addresses.text(ip, parent.family()) + "/" + parent.maskLength());
                n.set("vrf", vrf);
                out.add(n);
            }
            return out;
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    public List<JsonNode> availablePrefixes(long id) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            Parent parent = parent(db, ParentKind.PREFIX, id, false);
            JsonNode vrf = nestedVrf(db, parent.vrfId());
            List<JsonNode> out = new ArrayList<>();
            for (Addresses.Block b : freeBlocks(parent, childPrefixes(db, parent))) {
                ObjectNode n = NODES.objectNode();
                n.put("family", parent.family());
                n.put("prefix", Addresses.text(b.first(), parent.family()) + "/" + b.maskLength());
                n.set("vrf", vrf);
                out.add(n);
            }
            return out;
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    // ------------------------------------------------------------------ allocation

    /** Creates IP addresses at the next free addresses; one per requested object, in order. */
    @Transactional
    public List<RenderedObject> allocateIps(ParentKind kind, long id, List<JsonNode> items, boolean bulk) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            db.query("select pg_advisory_xact_lock(?)", LOCK_AVAILABLE_IPS);
            Parent parent = parent(db, kind, id, true);
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
            return service.create(registry.require("ipam.ipaddress"), objects, bulk);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** Creates child prefixes of the requested lengths in the first free space that fits each. */
    @Transactional
    public List<RenderedObject> allocatePrefixes(long id, List<JsonNode> items, boolean bulk) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            db.query("select pg_advisory_xact_lock(?)", LOCK_AVAILABLE_PREFIXES);
            Parent parent = parent(db, ParentKind.PREFIX, id, true);
            List<Integer> lengths = requestedPrefixLengths(parent, items);
            List<IpSpace.Interval> occupied = new ArrayList<>(childPrefixes(db, parent));
            List<JsonNode> objects = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                int length = lengths.get(i);
                Addresses.Block chosen = freeBlocks(parent, occupied).stream()
                        .filter(b -> b.maskLength() <= length).findFirst().orElseThrow(Availability::insufficient);
                BigInteger size = Addresses.blockSize(parent.family(), length);
                occupied.add(IpSpace.Interval.of(chosen.first(), chosen.first().add(size).subtract(BigInteger.ONE)));
                ObjectNode o = ((ObjectNode) items.get(i)).deepCopy();
                o.remove("prefix_length");
                o.put("prefix", Addresses.text(chosen.first(), parent.family()) + "/" + length);
                putVrf(o, parent.vrfId());
                objects.add(o);
            }
            return service.create(registry.require("ipam.prefix"), objects, bulk);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    static ApiException insufficient() {
        return ApiException.detail(409, "Insufficient resources are available to satisfy the request");
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
        return checkEach(items, (item, errors) -> {
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
                errors.put("prefix_length", List.of("Prefix length must be greater than or equal to the parent mask"
                        + " length (" + parent.maskLength() + ")"));
            } else if (n > Addresses.bits(parent.family())) {
                errors.put("prefix_length", List.of("Invalid prefix length (" + n + ") for IPv" + parent.family()));
            }
            return n;
        });
    }

    private static List<Integer> requestedPrefixLengths(Parent parent, List<JsonNode> items) {
        return checkEach(items, (item, errors) -> {
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

    private interface ItemCheck {
        Integer check(JsonNode item, Map<String, List<String>> errors);
    }

    private static List<Integer> checkEach(List<JsonNode> items, ItemCheck check) {
        List<Integer> out = new ArrayList<>();
        List<Map<String, List<String>>> all = new ArrayList<>();
        boolean failed = false;
        for (JsonNode item : items) {
            Map<String, List<String>> errors = new LinkedHashMap<>();
            if (!item.isObject()) {
                errors.put("non_field_errors", List.of("Invalid data. Expected a dictionary, but got "
                        + org.sourceoftruth.records.web.ErrorMapper.jsonType(item) + "."));
                out.add(null);
            } else {
                out.add(check.check(item, errors));
            }
            failed |= !errors.isEmpty();
            all.add(errors);
        }
        if (failed) {
            var arr = NODES.arrayNode();
            all.forEach(e -> arr.add(ApiException.errorsNode(e)));
            throw new ApiException(400, arr);
        }
        return out;
    }

    // ------------------------------------------------------------------ space

    private Parent parent(Db db, ParentKind kind, long id, boolean lock) {
        String table = kind == ParentKind.PREFIX ? "ipam_prefix" : "ipam_iprange";
        List<Row> rows = db.query("select * from " + table + " where id = ?" + (lock ? " for update" : ""), id);
        if (rows.isEmpty()) {
            throw ApiException.detail(404, "No " + kind.className + " matches the given query.");
        }
        Row r = rows.get(0);
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
        return new Parent(kind, id, vrf, start.family(), start.maskLength(), Addresses.host(start), Addresses.host(end),
                false, Boolean.TRUE.equals(r.get("mark_populated")), r);
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
        Iterator<IpSpace.Interval> hosts = IpSpace.paged(after -> {
            List<Object> params = new ArrayList<>();
            if (!parent.anyVrf()) {
                params.add(parent.vrfId());
            }
            params.add(after == null ? lo : Addresses.text(after.lo(), family));
            params.add(hi);
            List<IpSpace.Interval> page = new ArrayList<>();
            for (Row r : db.query("select distinct host(address)::inet as h from ipam_ipaddress where " + vrfRule
                    + " and host(address)::inet " + (after == null ? ">=" : ">") + " ?::inet"
                    + " and host(address)::inet <= ?::inet order by 1 limit " + HOST_PAGE, params)) {
                BigInteger h = Addresses.host(Addresses.parse(r.get("h")));
                page.add(IpSpace.Interval.of(h, h));
            }
            return page;
        }, HOST_PAGE);
        List<IpSpace.Interval> populated = new ArrayList<>();
        if (parent.kind() == ParentKind.PREFIX) {
            for (Row r : db.query("select start_address, end_address from ipam_iprange where mark_populated"
                    + " and vrf_id is not distinct from ? and host(start_address)::inet <= ?::inet"
                    + " and host(end_address)::inet >= ?::inet order by host(start_address)::inet",
                    parent.vrfId(), hi, lo)) {
                populated.add(IpSpace.Interval.of(Addresses.host(Addresses.parse(r.get("start_address"))),
                        Addresses.host(Addresses.parse(r.get("end_address")))));
            }
        }
        return IpSpace.firstFree(parent.first(), parent.last(), IpSpace.merge(hosts, populated.iterator()), n);
    }

    /** Child prefixes of the parent's VRF inside it, as intervals. */
    private static List<IpSpace.Interval> childPrefixes(Db db, Parent parent) {
        List<IpSpace.Interval> out = new ArrayList<>();
        for (Row r : db.query("select prefix from ipam_prefix where vrf_id is not distinct from ? and prefix << ?::cidr",
                parent.vrfId(), parent.row().str("prefix"))) {
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

    private JsonNode nestedVrf(Db db, Long vrfId) {
        if (vrfId == null) {
            return NODES.nullNode();
        }
        var vrfModel = registry.require("ipam.vrf");
        List<Row> rows = db.query(vrfModel.selectFrom() + " where t.id = ?", vrfId);
        return renderer.render(db, vrfModel, rows, new Renderer.Options(request.baseUrl(), Renderer.Mode.NESTED, null,
                java.util.Set.of())).get(0);
    }
}
