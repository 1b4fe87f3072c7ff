package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.model.Row;

/**
 * NetBox's available-asns of an ASN range: the numbers of the range no ASN has yet, and the
 * creation of ASNs at the next free ones (with the range's RIR), on the shared
 * {@link Allocation} skeleton.
 */
@ApplicationScoped
public class AsnAvailability implements NumberPool {
    @Override
    public String poolType() {
        return "ipam.asnrange";
    }

    @Override
    public String itemType() {
        return "ipam.asn";
    }

    private static final Allocation.Pool ASN_RANGES = new Allocation.Pool(0x5017_0003L, "ipam_asnrange", "ASNRange");

    @Inject
    Allocation allocation;

    /** The first {@code limit} free numbers of the range, each {@code {"rir": ..., "asn": n}}. */
    @Override
    public List<JsonNode> available(long rangeId, int limit) {
        return allocation.read(db -> {
            Row range = Allocation.row(db, ASN_RANGES, rangeId, false);
            JsonNode rir = allocation.nested(db, "ipam.rir", range.longValue("rir_id"));
            List<JsonNode> out = new ArrayList<>();
            for (long asn : free(db, range, limit)) {
                ObjectNode n = JsonNodeFactory.instance.objectNode();
                n.set("rir", rir);
                n.put("asn", asn);
                out.add(n);
            }
            return out;
        });
    }

    /** Creates one ASN per requested object at the next free numbers, or a 409 when too few are free. */
    @Override
    public List<RenderedObject> allocate(long rangeId, List<JsonNode> items, boolean bulk) {
        return allocation.allocate(ASN_RANGES, rangeId, "ipam.asn", bulk, (db, range) -> {
            Allocation.checkEach(items, (item, errors) -> item);
            List<Long> free = free(db, range, items.size());
            if (free.size() < items.size()) {
                throw Availability.insufficient();
            }
            List<JsonNode> objects = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                ObjectNode o = ((ObjectNode) items.get(i)).deepCopy();
                o.put("asn", free.get(i));
                o.put("rir", range.longValue("rir_id"));
                objects.add(o);
            }
            return objects;
        });
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
}
