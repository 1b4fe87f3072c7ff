package org.sourceoftruth.records.tenancy;

import java.util.List;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.dcim.ScopeFilters;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;

/**
 * NetBox's contact filters: ContactModelFilterSet's {@code contact}, {@code contact_role} and
 * {@code contact_group} (by id; a group matches its descendants too) on every model contacts can
 * be assigned to, and the contact-group filters of contacts and assignments.
 */
public final class ContactFilters {
    private ContactFilters() {}

    /** The filters of a contact-holding model of this content type, through its assignments. */
    public static List<ExtraFilter> onHolder(String contentType) {
        String assigned = "{t}.id in (select a.object_id from tenancy_contactassignment a where a.object_type = '"
                + contentType.replace("'", "''") + "' and ";
        return List.of(
                ExtraFilters.each("contact", Kind.INTEGER, assigned + "a.contact_id = ?)")
                        .choicesFrom("tenancy_contact", "id"),
                ExtraFilters.each("contact_role", Kind.INTEGER, assigned + "a.role_id = ?)")
                        .choicesFrom("tenancy_contactrole", "id"),
                byIdOrSlug(
                        "contact_group",
                        assigned + "a.contact_id in (select contact_id from"
                                + " tenancy_contact_groups where contactgroup_id in ({groups})))"));
    }

    /**
     * A contact group by id, as NetBox's filter takes it, or by slug: NetBox's schema types the
     * filter as text, and a client that sends a slug gets that group rather than a 400.
     */
    private static ExtraFilter byIdOrSlug(String name, String template) {
        String sql = template.replace(
                "{groups}",
                "with recursive d(id) as (select id from tenancy_contactgroup"
                        + " where id::text = any(?) or slug = any(?) union select c.id from tenancy_contactgroup c"
                        + " join d on c.parent_id = d.id) select id from d");
        return new ExtraFilter(name, Kind.STRING, (alias, values) -> {
                    Db.SqlArray keys = new Db.SqlArray("text", values);
                    return ExtraFilter.Sql.of(sql.replace("{t}", alias), keys, keys);
                })
                .choicesFrom(
                        "(select id::text as k from tenancy_contactgroup union all select slug from tenancy_contactgroup) g",
                        "k");
    }

    /**
     * {@code name} (by slug) and {@code name_id} (by id): the given contact groups and their
     * descendants, put for {@code {groups}} in {@code template}.
     */
    public static List<ExtraFilter> groups(String name, String template) {
        return List.of(
                byGroup(name, Kind.STRING, "slug", template), byGroup(name + "_id", Kind.INTEGER, "id", template));
    }

    private static ExtraFilter byGroup(String name, Kind kind, String key, String template) {
        String sql = template.replace("{groups}", ScopeFilters.descendants("tenancy_contactgroup", key));
        return new ExtraFilter(
                        name,
                        kind,
                        (alias, values) -> ExtraFilter.Sql.of(
                                sql.replace("{t}", alias),
                                new Db.SqlArray(kind == Kind.INTEGER ? "bigint" : "text", values)))
                .choicesFrom("tenancy_contactgroup", key);
    }
}
