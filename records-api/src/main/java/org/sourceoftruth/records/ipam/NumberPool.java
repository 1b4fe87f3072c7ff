package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.sourceoftruth.records.engine.render.RenderedObject;

/**
 * A pool of numbers that objects are allocated from (an ASN range's ASNs, a VLAN group's VIDs),
 * as {@link NumberPoolResource} serves it: the free numbers, and objects created at the next ones.
 */
interface NumberPool {
    /** The pool's content type (ipam.asnrange), whose view permission listing needs. */
    String poolType();

    /** The allocated objects' content type (ipam.asn). */
    String itemType();

    List<JsonNode> available(long poolId, int limit);

    List<RenderedObject> allocate(long poolId, List<JsonNode> items, boolean bulk);
}
