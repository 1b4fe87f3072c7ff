package org.sourceoftruth.records.dcim;

import org.sourceoftruth.records.model.Field;

import java.util.List;

import static org.sourceoftruth.records.dcim.DcimChoices.CABLE_END;
import static org.sourceoftruth.records.model.Fields.computed;
import static org.sourceoftruth.records.model.Fields.notBuilt;

/**
 * The fields NetBox's CabledObjectModel and PathEndpoint add to every object a cable can end on
 * (interfaces, power feeds, console and power ports, ...). Cables and path tracing are not built
 * yet (issue #18), so each answers as NetBox does for an object without a cable: {@code cable}
 * null, {@code _occupied} only when marked connected, no link peers, no connected endpoints.
 */
final class CabledFields {
    private CabledFields() {
    }

    /** CabledObjectModel: cable, cable_end, link peers, _occupied (needs a mark_connected column). */
    static Field[] cabled() {
        return new Field[]{
                computed("cable", r -> null),
                computed("_occupied", r -> Boolean.TRUE.equals(r.get("mark_connected"))),
                notBuilt("cable_end", "").filtersAs(CABLE_END),
                notBuilt("link_peers", List.of()),
                notBuilt("link_peers_type", null)};
    }

    /** PathEndpoint: what the cable path from this object reaches. */
    static Field[] pathEndpoint() {
        return new Field[]{
                notBuilt("connected_endpoints", null),
                notBuilt("connected_endpoints_type", null),
                notBuilt("connected_endpoints_reachable", false)};
    }
}
