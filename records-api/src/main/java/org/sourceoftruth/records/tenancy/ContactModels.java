package org.sourceoftruth.records.tenancy;

import static org.sourceoftruth.records.model.Declarations.nestedGroup;
import static org.sourceoftruth.records.model.Declarations.organizational;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;

/** tenancy: contact groups, contact roles, contacts and their assignments to other objects. */
@ApplicationScoped
public class ContactModels implements ModelDefinition {
    /**
     * The models NetBox lets contacts be assigned to (its ContactsMixin models, whose filtersets
     * take the contact filters); those served here get the filters and cascade their assignments.
     */
    public static final List<String> CONTACT_HOLDERS = List.of(
            "circuits.circuit",
            "circuits.provider",
            "circuits.provideraccount",
            "dcim.device",
            "dcim.location",
            "dcim.manufacturer",
            "dcim.powerpanel",
            "dcim.rack",
            "dcim.region",
            "dcim.sitegroup",
            "dcim.site",
            "ipam.aggregate",
            "ipam.ipaddress",
            "ipam.iprange",
            "ipam.prefix",
            "ipam.service",
            "tenancy.tenant",
            "virtualization.clustergroup",
            "virtualization.cluster",
            "virtualization.virtualmachine",
            "vpn.l2vpn",
            "vpn.tunnelgroup",
            "vpn.tunnel");

    public static final ChoiceSet PRIORITY = ChoiceSet.capitalised("primary", "secondary", "tertiary", "inactive");

    @Override
    public List<Model> models() {
        Model group = nestedGroup(
                        "tenancy",
                        "contact-groups",
                        "contact group",
                        count("contact_count", "tenancy_contact_groups", "contactgroup_id"))
                .filter(ExtraFilters.each(
                                "contact_id",
                                Kind.INTEGER,
                                "{t}.id in (select contactgroup_id from tenancy_contact_groups where contact_id = ?)")
                        .choicesFrom("tenancy_contact", "id"))
                .brief("display_url", "description");

        Model role = organizational("tenancy", "contact-roles", "contact role")
                .fields(str("description").max(200), str("comments"))
                .standardTail();

        Model contact = Model.of("tenancy", "contacts", "contact")
                .fields(
                        m2m(
                                "groups",
                                "tenancy.contactgroup",
                                "tenancy_contact_groups",
                                "contact_id",
                                "contactgroup_id"),
                        str("name").required().max(100),
                        str("title").max(100),
                        str("phone").max(50),
                        str("email")
                                .max(254)
                                .label("Email")
                                .pattern("^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "Enter a valid email address."),
                        str("address").max(200),
                        str("link").max(200).pattern("^$|^[a-zA-Z][a-zA-Z0-9+.-]*://\\S+$", "Enter a valid URL."),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .filters(ContactFilters.groups(
                        "group",
                        "{t}.id in (select contact_id from tenancy_contact_groups"
                                + " where contactgroup_id in ({groups}))"))
                .ordering("t.name")
                .search("t.name", "t.title", "t.phone", "t.email", "t.address", "t.link", "t.description", "t.comments")
                .brief("name", "description");

        Model assignment = Model.of("tenancy", "contact-assignments", "contact assignment")
                .noDisplayUrl()
                .fields(
                        genericFk("object", "object_type", "object_id", CONTACT_HOLDERS)
                                .required()
                                .notNull()
                                .cascade()
                                .objectTypeIds()
                                .targetFilters(ContactFilters::onHolder),
                        fk("contact", "tenancy.contact").required().cascade(),
                        fk("role", "tenancy.contactrole").protect(),
                        choice("priority", PRIORITY).nullable())
                .standardTail()
                .select("_contact", "select c.name from tenancy_contact c where c.id = t.contact_id")
                .display(r -> r.str("_contact")
                        + (r.str("priority") == null || r.str("priority").isEmpty()
                                ? ""
                                : " (" + PRIORITY.label(r.str("priority")) + ")"))
                .unique(UniqueRule.of(
                                "Contact assignment with this Object type, Object id, Contact and Role already"
                                        + " exists.",
                                "object_type",
                                "object_id",
                                "contact_id",
                                "role_id")
                        .skipIfNull("role_id"))
                .filters(ContactFilters.groups(
                        "group",
                        "{t}.contact_id in (select contact_id from tenancy_contact_groups"
                                + " where contactgroup_id in ({groups}))"))
                .ordering(
                        "(select c.name from tenancy_contact c where c.id = t.contact_id)",
                        "t.priority",
                        "(select r.name from tenancy_contactrole r where r.id = t.role_id)")
                // NetBox searches the contact's and the role's names; the display text is searched too
                .search(
                        "(select c.name from tenancy_contact c where c.id = t.contact_id)",
                        "(select r.name from tenancy_contactrole r where r.id = t.role_id)",
                        "(select c.name || coalesce(' (' || initcap(nullif(t.priority, '')) || ')', '')"
                                + " from tenancy_contact c where c.id = t.contact_id)")
                .brief("contact", "role", "priority");
        return List.of(group, role, contact, assignment);
    }
}
