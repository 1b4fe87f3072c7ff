package org.sourceoftruth.records.circuits;

import static org.sourceoftruth.records.model.Declarations.COLOR;
import static org.sourceoftruth.records.model.Declarations.COLOR_MESSAGE;
import static org.sourceoftruth.records.model.Declarations.organizational;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.dcim.CabledFields;
import org.sourceoftruth.records.dcim.ScopeFilters;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.tenancy.TenancyFilters;

/** circuits: providers, circuit types, circuits and circuit terminations. */
@ApplicationScoped
public class CircuitsModels implements ModelDefinition {
    public static final ChoiceSet CIRCUIT_STATUS =
            ChoiceSet.capitalised("planned", "provisioning", "active", "offline", "deprovisioning", "decommissioned");
    public static final ChoiceSet DISTANCE_UNIT =
            ChoiceSet.of("km", "Kilometers", "m", "Meters", "mi", "Miles", "ft", "Feet");
    /** term_side is a plain DRF choice: rendered "A", not {value,label}. */
    public static final ChoiceSet TERM_SIDE = ChoiceSet.of("A", "A", "Z", "Z").plain();
    /** What a termination may attach to: NetBox's CIRCUIT_TERMINATION_TERMINATION_TYPES. */
    public static final List<String> TERMINATION_TYPES =
            List.of("dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location", "circuits.providernetwork");
    /** NetBox's CircuitCircuitTerminationSerializer: a termination as shown on its circuit. */
    private static final String[] TERMINATION_ON_CIRCUIT = {
        "id",
        "url",
        "display_url",
        "display",
        "termination",
        "port_speed",
        "upstream_speed",
        "xconnect_id",
        "description"
    };

    @Override
    public List<Model> models() {
        String viaTerminations = "{t}.id in (select x.circuit_id from circuits_circuittermination x where {where})";

        Model provider = organizational("circuits", "providers", "provider")
                .fields(str("description").max(200), str("comments"))
                .standardTail()
                .fields(
                        count("circuit_count", "circuits_circuit", "provider_id"),
                        m2m("accounts", "circuits.provideraccount", "circuits_provideraccount", "provider_id", "id")
                                .readOnly()
                                .noFilter(),
                        m2m("asns", "ipam.asn", "circuits_provider_asns", "provider_id", "asn_id"))
                .relationFilter("asn", "asns", "asn")
                .relationFilter("asn_id", "asns", "id")
                .filters(ExtraFilters.via(
                        ScopeFilters.locationScope("termination_type", "termination_id"),
                        "x",
                        "{t}.id in (select c.provider_id from circuits_circuit c join circuits_circuittermination x"
                                + " on x.circuit_id = c.id where {where})"))
                .search(
                        "t.comments",
                        "(select string_agg(a.account || ' ' || a.name, ' ') from"
                                + " circuits_provideraccount a where a.provider_id = t.id)")
                .brief("circuit_count");

        Model circuitType = organizational("circuits", "circuit-types", "circuit type")
                .fields(
                        str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("circuit_count", "circuits_circuit", "type_id"))
                .brief("circuit_count");

        Model circuit = Model.of("circuits", "circuits", "circuit")
                .fields(
                        str("cid").required().max(100).label("Circuit ID"),
                        fk("provider", "circuits.provider").required().protect(),
                        fk("provider_account", "circuits.provideraccount").protect(),
                        fk("type", "circuits.circuittype").required().protect(),
                        choice("status", CIRCUIT_STATUS).dflt("active"),
                        fk("tenant", "tenancy.tenant").protect(),
                        date("install_date").nullable(),
                        date("termination_date").nullable(),
                        integer("commit_rate").range(0, Integer.MAX_VALUE).nullable(),
                        str("description").max(200),
                        decimal("distance").nullable(),
                        choice("distance_unit", DISTANCE_UNIT).nullable(),
                        termination("termination_a"),
                        termination("termination_z"),
                        str("comments"),
                        // the group assignments whose member is this circuit (a view of them, V100);
                        // written, they become the circuit's assignments (CircuitAssignments)
                        m2m(
                                        "assignments",
                                        "circuits.circuitgroupassignment",
                                        "circuits_circuit_assignments",
                                        "member_id",
                                        "id")
                                .requestOnly()
                                .nestedFields("id", "url", "display", "group", "priority"))
                .standardTail()
                .select(
                        "_termination_a_id",
                        "select x.id from circuits_circuittermination x where x.circuit_id = t.id"
                                + " and x.term_side = 'A'")
                .select(
                        "_termination_z_id",
                        "select x.id from circuits_circuittermination x where x.circuit_id = t.id"
                                + " and x.term_side = 'Z'")
                .display(r -> r.str("cid"))
                .hook(new CircuitAssignments())
                .unique(UniqueRule.of(
                        "Circuit with this Provider and Circuit ID already exists.", "provider_id", "cid"))
                .unique(UniqueRule.of(
                                "Circuit with this Provider account and Circuit ID already exists.",
                                "provider_account_id",
                                "cid")
                        .skipIfNull("provider_account_id"))
                .check(VirtualCircuitModels.accountOfProvider(
                        "provider_account",
                        "select p.id as provider_id from circuits_provider p where p.id = ?",
                        "provider_id",
                        "The assigned account must belong to the assigned provider."))
                .relationFilter("provider_account", "provider_account", "account")
                .filter(ExtraFilters.each(
                                "provider_network_id",
                                Kind.INTEGER,
                                "{t}.id in (select circuit_id from"
                                        + " circuits_circuittermination where termination_type = 'circuits.providernetwork'"
                                        + " and termination_id = ?)")
                        .choicesFrom("circuits_providernetwork", "id"))
                .filters(ExtraFilters.via(
                        ScopeFilters.locationScope("termination_type", "termination_id"), "x", viaTerminations))
                .filters(TenancyFilters.tenantGroup())
                .filter(
                        ExtraFilters.each(
                                "termination_a_id",
                                Kind.INTEGER,
                                "{t}.id in (select circuit_id from circuits_circuittermination where id = ? and term_side = 'A')"))
                .filter(
                        ExtraFilters.each(
                                "termination_z_id",
                                Kind.INTEGER,
                                "{t}.id in (select circuit_id from circuits_circuittermination where id = ? and term_side = 'Z')"))
                .ordering(
                        "(select p.name from circuits_provider p where p.id = t.provider_id)",
                        "(select a.account from circuits_provideraccount a where a.id = t.provider_account_id)",
                        "t.cid")
                .search("t.cid", "t.description", "t.comments")
                .brief("cid", "provider", "description");

        Model termination = Model.of("circuits", "circuit-terminations", "circuit termination")
                .fields(
                        fk("circuit", "circuits.circuit").required().cascade(),
                        choice("term_side", TERM_SIDE).required().label("Termination side"),
                        genericFk("termination", "termination_type", "termination_id", TERMINATION_TYPES)
                                .cascade()
                                .protecting("circuits.providernetwork"),
                        integer("port_speed").range(0, Integer.MAX_VALUE).nullable(),
                        integer("upstream_speed").range(0, Integer.MAX_VALUE).nullable(),
                        str("xconnect_id").max(50),
                        str("pp_info").max(100),
                        str("description").max(200),
                        bool("mark_connected").dflt(false))
                .fields(CabledFields.cabledWithoutOccupied("circuits.circuittermination"))
                .standardTail()
                .fields(CabledFields.occupied())
                .select("_cid", "select c.cid from circuits_circuit c where c.id = t.circuit_id")
                .display(r -> r.str("_cid") + ": Termination " + r.str("term_side"))
                .unique(UniqueRule.of(
                        "Circuit termination with this Circuit and Termination side already exists.",
                        "circuit_id",
                        "term_side"))
                .validator((row, errors) -> {
                    if (row.get("termination_type") == null) {
                        errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                                .add("A circuit termination must attach to a terminating object.");
                    }
                })
                .filters(ScopeFilters.locationScope("termination_type", "termination_id"))
                .filter(ExtraFilters.each(
                                "provider_network_id",
                                Kind.INTEGER,
                                "{t}.termination_type =" + " 'circuits.providernetwork' and {t}.termination_id = ?")
                        .choicesFrom("circuits_providernetwork", "id"))
                .filters(CabledFields.filters(Model.of("circuits", "-", "circuits.circuittermination", "-", "-"), false)
                        .extraFilters()
                        .values())
                .filter(ExtraFilters.each(
                                "provider_id",
                                Kind.INTEGER,
                                "{t}.circuit_id in (select id from circuits_circuit where provider_id = ?)")
                        .choicesFrom("circuits_provider", "id"))
                .filter(ExtraFilters.each(
                                "provider",
                                Kind.STRING,
                                "{t}.circuit_id in (select c.id from circuits_circuit c"
                                        + " join circuits_provider p on p.id = c.provider_id where p.slug = ?)")
                        .choicesFrom("circuits_provider", "slug"))
                .hook(org.sourceoftruth.records.dcim.PathRetraceHooks.circuitTermination())
                .ordering("t.circuit_id", "t.term_side")
                .search("t.xconnect_id", "t.pp_info", "t.description")
                .brief("circuit", "term_side", "description", "cable", "_occupied");

        return List.of(provider, circuitType, circuit, termination);
    }

    /** A read-only A or Z termination shown on its circuit (looked up by the model's extra select). */
    private static Field termination(String name) {
        return fk(name, "circuits.circuittermination")
                .column("_" + name + "_id")
                .readOnly()
                .noFilter()
                .noOrder()
                .nestedFields(TERMINATION_ON_CIRCUIT);
    }
}
