package org.sourceoftruth.records.circuits;

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
import org.sourceoftruth.records.tenancy.TenancyFilters;

/**
 * circuits: a provider's accounts and networks, and circuit groups with their assignments of
 * circuits or virtual circuits (NetBox 4.2+).
 */
@ApplicationScoped
public class ProviderModels implements ModelDefinition {
    /** What a circuit group may hold: NetBox's CIRCUIT_GROUP_ASSIGNMENT_MEMBER_MODELS. */
    public static final List<String> GROUP_MEMBERS = List.of("circuits.circuit", "circuits.virtualcircuit");

    public static final ChoiceSet PRIORITY = ChoiceSet.capitalised("primary", "secondary", "tertiary", "inactive");

    @Override
    public List<Model> models() {
        Model account = Model.of("circuits", "provider-accounts", "provider account")
                .fields(
                        fk("provider", "circuits.provider").required().protect(),
                        str("name").max(100),
                        str("account").required().max(100).label("Account ID"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .display(r -> r.str("name") == null || r.str("name").isEmpty()
                        ? r.str("account")
                        : r.str("account") + " (" + r.str("name") + ")")
                .unique(UniqueRule.of(
                        "Provider account with this Provider and Account ID already exists.", "provider_id", "account"))
                .unique(UniqueRule.of(
                                "Constraint \u201ccircuits_provideraccount_unique_provider_name\u201d is violated.",
                                "provider_id",
                                "name")
                        .skipIfBlank("name"))
                .ordering("(select p.name from circuits_provider p where p.id = t.provider_id)", "t.account")
                .search("t.name", "t.account", "t.description", "t.comments")
                .brief("name", "account", "description");

        Model network = Model.of("circuits", "provider-networks", "provider network")
                .fields(
                        fk("provider", "circuits.provider").required().protect(),
                        str("name").required().max(100),
                        str("service_id").max(100).label("Service ID"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .unique(UniqueRule.of(
                        "Provider network with this Provider and Name already exists.", "provider_id", "name"))
                .ordering("(select p.name from circuits_provider p where p.id = t.provider_id)", "t.name")
                .search("t.name", "t.service_id", "t.description", "t.comments")
                .brief("name", "description");

        Model group = organizational("circuits", "circuit-groups", "circuit group")
                .fields(
                        str("description").max(200),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("comments"))
                .standardTail()
                .fields(count("circuit_count", "circuits_circuitgroupassignment", "group_id"))
                .filters(TenancyFilters.tenantGroup())
                .briefExactly("name");

        String circuitMember =
                "{t}.member_type = 'circuits.circuit' and {t}.member_id in (select c.id from circuits_circuit c"
                        + " where c.%s = ?)";
        String virtualMember = "{t}.member_type = 'circuits.virtualcircuit' and {t}.member_id in (select v.id from"
                + " circuits_virtualcircuit v where v.%s = ?)";
        Model assignment = Model.of("circuits", "circuit-group-assignments", "circuit group assignment")
                .fields(
                        fk("group", "circuits.circuitgroup").required().cascade(),
                        genericFk("member", "member_type", "member_id", GROUP_MEMBERS)
                                .required()
                                .notNull()
                                .cascade()
                                .objectTypeIds(),
                        choice("priority", PRIORITY).nullable(),
                        tags())
                .timestamps()
                .select("_group", "select g.name from circuits_circuitgroup g where g.id = t.group_id")
                .display(r -> r.str("_group")
                        + (r.str("priority") == null || r.str("priority").isEmpty()
                                ? ""
                                : " (" + PRIORITY.label(r.str("priority")) + ")"))
                .unique(UniqueRule.of(
                        "Circuit group assignment with this Member type, Member ID and Group already" + " exists.",
                        "member_type",
                        "member_id",
                        "group_id"))
                .filter(ExtraFilters.each("circuit", Kind.STRING, String.format(circuitMember, "cid"))
                        .choicesFrom("circuits_circuit", "cid"))
                .filter(ExtraFilters.each("circuit_id", Kind.INTEGER, String.format(circuitMember, "id"))
                        .choicesFrom("circuits_circuit", "id"))
                .filter(ExtraFilters.each("virtual_circuit", Kind.STRING, String.format(virtualMember, "cid"))
                        .choicesFrom("circuits_virtualcircuit", "cid"))
                .filter(ExtraFilters.each("virtual_circuit_id", Kind.INTEGER, String.format(virtualMember, "id"))
                        .choicesFrom("circuits_virtualcircuit", "id"))
                .filter(ExtraFilters.each("provider", Kind.STRING, providerMember("slug"))
                        .choicesFrom("circuits_provider", "slug"))
                .filter(ExtraFilters.each("provider_id", Kind.INTEGER, providerMember("id"))
                        .choicesFrom("circuits_provider", "id"))
                .ordering(
                        "(select g.name from circuits_circuitgroup g where g.id = t.group_id)",
                        "t.member_type",
                        "t.member_id",
                        "t.priority")
                // NetBox searches the group's name and the member's CID; the display text is searched too
                .search(
                        "(select g.name || coalesce(' (' || initcap(nullif(t.priority, '')) || ')', '')"
                                + " from circuits_circuitgroup g where g.id = t.group_id)",
                        "(select c.cid from circuits_circuit c where t.member_type = 'circuits.circuit'"
                                + " and c.id = t.member_id)",
                        "(select v.cid from circuits_virtualcircuit v where t.member_type = 'circuits.virtualcircuit'"
                                + " and v.id = t.member_id)")
                .brief("group", "member_type", "member_id", "member", "priority");
        return List.of(account, network, group, assignment);
    }

    /** Assignments whose circuit's provider, or whose virtual circuit's network's provider, has the key. */
    private static String providerMember(String key) {
        return "({t}.member_type = 'circuits.circuit' and {t}.member_id in (select c.id from circuits_circuit c"
                + " join circuits_provider p on p.id = c.provider_id where p." + key + " = ?))"
                + " or ({t}.member_type = 'circuits.virtualcircuit' and {t}.member_id in (select v.id from"
                + " circuits_virtualcircuit v join circuits_providernetwork n on n.id = v.provider_network_id"
                + " join circuits_provider p on p.id = n.provider_id where p." + key + " = ?))";
    }
}
