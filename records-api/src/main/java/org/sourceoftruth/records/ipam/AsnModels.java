package org.sourceoftruth.records.ipam;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.circuits.CircuitsTables;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.dcim.ScopeFilters;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.tenancy.TenancyFilters;

/** ipam: autonomous system numbers and the ranges they are allocated from (see {@link AsnAvailability}). */
@ApplicationScoped
public class AsnModels implements ModelDefinition {
    /** The largest 4-byte AS number. */
    public static final long MAX_ASN = 4_294_967_295L;

    @Override
    public List<Model> models() {
        Model asn = Model.of("ipam", "asns", "ASN")
                .fields(
                        integer("asn").required().range(1, MAX_ASN).unique().label("ASN"),
                        fk("rir", "ipam.rir").protect(),
                        fk("role", "ipam.role"),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("site_count", DcimTables.SITE_ASNS, "asn_id"),
                        count("provider_count", CircuitsTables.PROVIDER_ASNS, "asn_id"),
                        // the sites' side of their asns, written from either end (filtered as site/site_id below)
                        m2m("sites", "dcim.site", DcimTables.SITE_ASNS, "asn_id", "site_id")
                                .noFilter()
                                .nestedFields("id", "url", "display", "name", "description", "slug"))
                .display(AsnModels::display)
                .filters(TenancyFilters.tenantGroup())
                .filters(linked("site", DcimTables.SITE_ASNS, "site_id", DcimTables.SITE))
                .filters(linked("provider", CircuitsTables.PROVIDER_ASNS, "provider_id", CircuitsTables.PROVIDER))
                .filters(siteGroups())
                .ordering("t.asn")
                .search("t.asn", "t.description", "t.comments")
                .brief("asn", "description");

        Model range = Model.of("ipam", "asn-ranges", "ASN range")
                .fields(
                        str("name").required().max(100).unique(),
                        slug("slug").unique(),
                        fk("rir", "ipam.rir").required().protect(),
                        integer("start").required().range(1, MAX_ASN),
                        integer("end").required().range(1, MAX_ASN),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(computed("asn_count", r -> r.longValue("_asn_count")).renders(Kind.INTEGER))
                .select("_asn_count", "select count(*) from ipam_asn a where a.asn between t.start and t.\"end\"")
                .validator((row, errors) -> {
                    Long start = row.longValue("start");
                    Long end = row.longValue("end");
                    if (start != null && end != null && end <= start) {
                        errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                                .add("Starting ASN (" + start + ") must be lower than ending ASN (" + end + ").");
                    }
                })
                .filters(TenancyFilters.tenantGroup())
                .ordering("t.name")
                .search("t.name", "t.slug", "t.description")
                .brief("name", "description");
        return List.of(asn, range);
    }

    /** NetBox's ASN.__str__: AS65000, or AS4200000000 (64086.59904) with the asdot form of a 4-byte ASN. */
    static String display(Row r) {
        long asn = r.longValue("asn");
        return asn > 65535 ? "AS" + asn + " (" + asn / 65536 + "." + asn % 65536 + ")" : "AS" + asn;
    }

    /** {@code <name>} by slug and {@code <name>_id}: the ASN is linked to one of the given objects. */
    private static List<ExtraFilter> linked(String name, String joinTable, String ownerColumn, String ownerTable) {
        String byId = "{t}.id in (select asn_id from " + joinTable + " where " + ownerColumn + " = ?)";
        String bySlug = "{t}.id in (select j.asn_id from " + joinTable + " j join " + ownerTable + " o on o.id = j."
                + ownerColumn + " where o.slug = ?)";
        return List.of(
                ExtraFilters.each(name, Kind.STRING, bySlug).choicesFrom(ownerTable, "slug"),
                ExtraFilters.each(name + "_id", Kind.INTEGER, byId).choicesFrom(ownerTable, "id"));
    }

    /** site_group / site_group_id: linked to a site of the group or of a group below it. */
    private static List<ExtraFilter> siteGroups() {
        List<ExtraFilter> out = new ArrayList<>();
        for (String[] k : new String[][] {{"site_group", "slug", "text"}, {"site_group_id", "id", "bigint"}}) {
            String sql = "{t}.id in (select j.asn_id from " + DcimTables.SITE_ASNS + " j join " + DcimTables.SITE
                    + " s on s.id = j.site_id" + " where s.group_id in ("
                    + ScopeFilters.descendants(DcimTables.SITEGROUP, k[1]) + "))";
            Kind kind = k[1].equals("id") ? Kind.INTEGER : Kind.STRING;
            out.add(new ExtraFilter(
                            k[0],
                            kind,
                            (alias, values) -> ExtraFilter.Sql.of(
                                    sql.replace("{t}", alias),
                                    new org.sourceoftruth.records.db.Db.SqlArray(k[2], values)))
                    .choicesFrom(DcimTables.SITEGROUP, k[1]));
        }
        return out;
    }
}
