package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * NetBox's available-asns of an ASN range: the numbers of the range no ASN has yet, and the
 * creation of ASNs at the next free ones (with the range's RIR). Allocation works as
 * {@link Availability}'s: one transaction takes a transaction-level advisory lock and locks the
 * range FOR UPDATE, then creates the ASNs through the engine, so concurrent requests queue and
 * each sees the numbers the previous one took.
 */
@ApplicationScoped
public class AsnAvailability {
    private static final long LOCK_AVAILABLE_ASNS = 0x5017_0003L;

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

    /** The first {@code limit} free numbers of the range, each {@code {"rir": ..., "asn": n}}. */
    public List<JsonNode> available(long rangeId, int limit) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            Row range = range(db, rangeId, false);
            JsonNode rir = nestedRir(db, range.longValue("rir_id"));
            List<JsonNode> out = new ArrayList<>();
            for (long asn : free(db, range, limit)) {
                ObjectNode n = JsonNodeFactory.instance.objectNode();
                n.set("rir", rir);
                n.put("asn", asn);
                out.add(n);
            }
            return out;
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** Creates one ASN per requested object at the next free numbers, or a 409 when too few are free. */
    @Transactional
    public List<RenderedObject> allocate(long rangeId, List<JsonNode> items, boolean bulk) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            db.query("select pg_advisory_xact_lock(?)", LOCK_AVAILABLE_ASNS);
            Row range = range(db, rangeId, true);
            List<JsonNode> objects = new ArrayList<>();
            for (JsonNode item : items) {
                if (!item.isObject()) {
                    throw ApiException.list("Invalid data. Expected a dictionary, but got "
                            + org.sourceoftruth.records.web.ErrorMapper.jsonType(item) + ".");
                }
            }
            List<Long> free = free(db, range, items.size());
            if (free.size() < items.size()) {
                throw Availability.insufficient();
            }
            for (int i = 0; i < items.size(); i++) {
                ObjectNode o = ((ObjectNode) items.get(i)).deepCopy();
                o.put("asn", free.get(i));
                o.put("rir", range.longValue("rir_id"));
                objects.add(o);
            }
            return service.create(registry.require("ipam.asn"), objects, bulk);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private static Row range(Db db, long id, boolean lock) {
        List<Row> rows = db.query("select * from ipam_asnrange where id = ?" + (lock ? " for update" : ""), id);
        if (rows.isEmpty()) {
            throw ApiException.detail(404, "No ASNRange matches the given query.");
        }
        return rows.get(0);
    }

    /** The first {@code n} numbers from start to end that no ASN has, walking the taken ones in order. */
    private static List<Long> free(Db db, Row range, int n) {
        long next = range.longValue("start");
        long end = range.longValue("end");
        List<Long> out = new ArrayList<>();
        for (Row r : db.query("select asn from ipam_asn where asn between ? and ? order by asn", next, end)) {
            long taken = r.longValue("asn");
            while (next < taken && out.size() < n) {
                out.add(next++);
            }
            if (out.size() >= n) {
                return out;
            }
            next = taken + 1;
        }
        while (next <= end && out.size() < n) {
            out.add(next++);
        }
        return out;
    }

    private JsonNode nestedRir(Db db, Long rirId) {
        Model rir = registry.require("ipam.rir");
        List<Row> rows = db.query(rir.selectFrom() + " where t.id = ?", rirId);
        return renderer.render(db, rir, rows, new Renderer.Options(request.baseUrl(), Renderer.Mode.NESTED, null,
                Set.of())).get(0);
    }
}
