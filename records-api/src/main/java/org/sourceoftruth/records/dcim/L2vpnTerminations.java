package org.sourceoftruth.records.dcim;

import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Fields;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * What an object an L2VPN can terminate on (device and VM interfaces, VLANs) shows of it:
 * {@code l2vpn_termination} (its one termination, read through the model's select so that a
 * page costs one batched query, not one per row) and the {@code l2vpn} / {@code l2vpn_id}
 * filters (NetBox's: the L2VPN by identifier, or by id).
 */
public final class L2vpnTerminations {
    private L2vpnTerminations() {}

    /** Adds the field, its select and the filters to the declaration of {@code contentType}. */
    public static Model declare(Model model) {
        String terminated = "{t}.id in (select x.assigned_object_id from vpn_l2vpntermination x where"
                + " x.assigned_object_type = '" + model.contentType() + "' and x.l2vpn_id";
        return model.field(field())
                .select(
                        "_l2vpn_termination_id",
                        "select x.id from vpn_l2vpntermination x where x.assigned_object_type = '" + model.contentType()
                                + "' and x.assigned_object_id = t.id")
                .filter(ExtraFilters.each("l2vpn_id", Kind.INTEGER, terminated + " = ?)")
                        .choicesFrom("vpn_l2vpn", "id"))
                .filter(l2vpnByIdentifier(terminated));
    }

    private static Field field() {
        return Fields.fk("l2vpn_termination", "vpn.l2vpntermination")
                .column("_l2vpn_termination_id")
                .readOnly()
                .noFilter()
                .noOrder()
                .label("L2VPN termination");
    }

    /**
     * NetBox's filter takes the L2VPN's identifier (a number, typed as text in its schema); as
     * with contact groups, a slug is taken too rather than answered with a 400. A value naming
     * no L2VPN either way is a 400.
     */
    private static ExtraFilter l2vpnByIdentifier(String terminated) {
        return ExtraFilters.each("l2vpn", Kind.STRING, terminated + " in (" + L2VPN_BY_KEY + "))")
                .choicesFrom(L2VPN_KEYS, "k");
    }

    /** The ids of the L2VPNs whose identifier or slug is the (one, repeated) parameter. */
    public static final String L2VPN_BY_KEY = "select id from vpn_l2vpn where identifier::text = ? or slug = ?";
    /** Every identifier and slug, the valid values of {@link #L2VPN_BY_KEY}'s filters. */
    public static final String L2VPN_KEYS = "(select identifier::text as k from vpn_l2vpn where identifier is not null"
            + " union all select slug from vpn_l2vpn) l";
}
