package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.model.Fields.computed;
import static org.sourceoftruth.records.model.Fields.fk;
import static org.sourceoftruth.records.model.Fields.integer;
import static org.sourceoftruth.records.model.Fields.integerList;
import static org.sourceoftruth.records.model.Fields.plainChoice;

import java.util.List;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * The fields and filters NetBox's CabledObjectModel and PathEndpoint add to every object a cable
 * can end on (interfaces, power feeds, console and power ports, circuit terminations, ...).
 * {@code cable} and {@code cable_end} are columns the terminations keep up to date (a trigger, as
 * NetBox's CableTermination.save() updates them); link peers and what the path reaches are
 * loaded per page ({@link CableLoaders}).
 */
public final class CabledFields {
    private CabledFields() {}

    /** CabledObjectModel: cable, cable_end, link peers, _occupied (needs a mark_connected column). */
    public static Field[] cabled(String contentType) {
        return new Field[] {
            fk("cable", "dcim.cable").readOnly().noFilter(),
            occupied(),
            // NetBox 4.6 filters it as a string field: exact (A or B), __n and the string lookups
            plainChoice("cable_end", DcimChoices.CABLE_END).readOnly(),
            computed("link_peers", r -> List.of())
                    .loader(CableLoaders.linkPeers(contentType))
                    .renders(Kind.M2M),
            computed("link_peers_type", r -> null)
                    .loader(CableLoaders.linkPeersType(contentType))
                    .renders(Kind.STRING),
            // the connector and lanes of the object's cable end, on a cable with a profile: not
            // rendered by NetBox's serializers, but filtered on (cable_connector) and snapshotted
            integer("cable_connector").unrendered(),
            integerList("cable_positions").unrendered().noFilter()
        };
    }

    /** _occupied: a cable or marked connected. */
    public static Field occupied() {
        return computed("_occupied", r -> Boolean.TRUE.equals(r.get("mark_connected")) || r.get("cable_id") != null)
                .renders(Kind.BOOLEAN);
    }

    /** {@link #cabled} but {@code _occupied}, which some models show last. */
    public static Field[] cabledWithoutOccupied(String contentType) {
        Field[] all = cabled(contentType);
        return new Field[] {all[0], all[2], all[3], all[4], all[5], all[6]};
    }

    /** PathEndpoint: what the cable path from this object reaches. */
    public static Field[] pathEndpoint(String contentType) {
        return new Field[] {
            computed("connected_endpoints", r -> null).loader(CableLoaders.connectedEndpoints(contentType)),
            computed("connected_endpoints_type", r -> null)
                    .loader(CableLoaders.connectedEndpointsType(contentType))
                    .renders(Kind.STRING),
            computed("connected_endpoints_reachable", r -> null)
                    .loader(CableLoaders.reachable(contentType))
                    .renders(Kind.BOOLEAN)
        };
    }

    /** CabledObjectFilterSet (and PathEndpointFilterSet's {@code connected} for path endpoints). */
    public static Model filters(Model model, boolean pathEndpoint) {
        model.filter(ExtraFilters.each("cable_id", Kind.INTEGER, "{t}.cable_id = ?"))
                // exact: NetBox's ChoiceFilter (A or B, else a 400); the lookups are the field's
                .filter(ExtraFilters.each("cable_end", Kind.STRING, "{t}.cable_end = ?", CabledFields::cableEnd))
                .filter(ExtraFilters.bool("cabled", "{t}.cable_id is not null", "{t}.cable_id is null"))
                .filter(ExtraFilters.bool(
                        "occupied",
                        "({t}.cable_id is not null or {t}.mark_connected)",
                        "({t}.cable_id is null and not {t}.mark_connected)"));
        if (pathEndpoint) {
            model.filter(connected(model.contentType()));
        }
        return model;
    }

    /** Connected: the object's path is complete and active (PathEndpointFilterSet.filter_connected). */
    private static ExtraFilter connected(String contentType) {
        String path = "exists (select 1 from dcim_cablepath p where p.origins @> array['" + contentType
                + ":' || {t}.id] and p.is_complete and p.is_active)";
        return ExtraFilters.bool("connected", path, "not " + path);
    }

    /** A cable_end filter value: A or B, anything else a 400 naming the filter. */
    private static Object cableEnd(Object value) {
        if (!DcimChoices.CABLE_END.contains(String.valueOf(value))) {
            throw new org.sourceoftruth.records.fieldtype.InvalidValue(
                    "Select a valid choice. " + value + " is not one of the available choices.");
        }
        return value;
    }
}
