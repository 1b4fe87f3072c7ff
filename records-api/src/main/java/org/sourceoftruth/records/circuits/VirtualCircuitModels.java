package org.sourceoftruth.records.circuits;

import static org.sourceoftruth.records.model.Declarations.COLOR;
import static org.sourceoftruth.records.model.Declarations.COLOR_MESSAGE;
import static org.sourceoftruth.records.model.Declarations.organizational;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.dcim.InterfaceModels;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.DbValidator;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.tenancy.TenancyFilters;

/** circuits: virtual circuit types, virtual circuits over a provider network, and their interface terminations. */
@ApplicationScoped
public class VirtualCircuitModels implements ModelDefinition {
    public static final ChoiceSet TERMINATION_ROLE = ChoiceSet.capitalised("peer", "hub", "spoke");

    @Override
    public List<Model> models() {
        Model type = organizational("circuits", "virtual-circuit-types", "virtual circuit type")
                .fields(
                        str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("virtual_circuit_count", "circuits_virtualcircuit", "type_id"))
                .brief("virtual_circuit_count");

        Model circuit = Model.of("circuits", "virtual-circuits", "virtual circuit")
                .fields(
                        str("cid").required().max(100).label("Circuit ID"),
                        fk("provider_network", "circuits.providernetwork")
                                .required()
                                .protect(),
                        fk("provider_account", "circuits.provideraccount").protect(),
                        fk("type", "circuits.virtualcircuittype").required().protect(),
                        choice("status", CircuitsModels.CIRCUIT_STATUS).dflt("active"),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .display(r -> r.str("cid"))
                .unique(UniqueRule.of(
                        "Virtual circuit with this Provider network and Circuit ID already exists.",
                        "provider_network_id",
                        "cid"))
                .unique(UniqueRule.of(
                                "Virtual circuit with this Provider account and Circuit ID already exists.",
                                "provider_account_id",
                                "cid")
                        .skipIfNull("provider_account_id"))
                .check(accountOfProvider(
                        "provider_account",
                        "select n.provider_id from circuits_providernetwork n where n.id = ?",
                        "provider_network_id",
                        "The assigned account must belong to the provider of the assigned network."))
                .relationFilter("provider", "provider_network.provider", "slug")
                .relationFilter("provider_id", "provider_network.provider", "id")
                .relationFilter("provider_account", "provider_account", "account")
                .filters(TenancyFilters.tenantGroup())
                .ordering(
                        "(select n.name from circuits_providernetwork n where n.id = t.provider_network_id)",
                        "(select a.account from circuits_provideraccount a where a.id = t.provider_account_id)",
                        "t.cid")
                .search("t.cid", "t.description", "t.comments")
                .brief("cid", "provider_network", "description");

        Model termination = Model.of("circuits", "virtual-circuit-terminations", "virtual circuit termination")
                .fields(
                        fk("virtual_circuit", "circuits.virtualcircuit")
                                .required()
                                .cascade(),
                        choice("role", TERMINATION_ROLE).dflt("peer"),
                        fk("interface", "dcim.interface").required().cascade().unique(),
                        str("description").max(200))
                .standardTail()
                .select("_cid", "select v.cid from circuits_virtualcircuit v where v.id = t.virtual_circuit_id")
                .display(r -> r.str("_cid") + ": " + TERMINATION_ROLE.label(r.str("role")) + " termination")
                .check((db, row, selfId, errors) -> {
                    Long iface = row.longValue("interface_id");
                    List<Row> found = iface == null
                            ? List.of()
                            : db.query("select type from " + DcimTables.INTERFACE + " where id = ?", iface);
                    if (!found.isEmpty()
                            && !InterfaceModels.VIRTUAL_INTERFACE_TYPES.contains(
                                    found.get(0).str("type"))) {
                        errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                                .add("Virtual circuits may be terminated only to virtual interfaces.");
                    }
                })
                .relationFilter("provider", "virtual_circuit.provider_network.provider", "slug")
                .relationFilter("provider_id", "virtual_circuit.provider_network.provider", "id")
                .relationFilter("provider_account", "virtual_circuit.provider_account", "account")
                .relationFilter("provider_account_id", "virtual_circuit.provider_account", "id")
                .relationFilter("provider_network_id", "virtual_circuit.provider_network", "id")
                .ordering("(select v.cid from circuits_virtualcircuit v where v.id = t.virtual_circuit_id)", "t.role")
                .search(
                        "(select v.cid from circuits_virtualcircuit v where v.id = t.virtual_circuit_id)",
                        "t.description")
                .brief("virtual_circuit", "role", "interface", "description");
        return List.of(type, circuit, termination);
    }

    /**
     * NetBox's clean() of circuits and virtual circuits: the account (field {@code account}) must
     * belong to the provider found by {@code providerSql} from the row's {@code providerColumn}.
     */
    static DbValidator accountOfProvider(String account, String providerSql, String providerColumn, String message) {
        return (db, row, selfId, errors) -> {
            Long accountId = row.longValue(account + "_id");
            Long source = row.longValue(providerColumn);
            if (accountId == null || source == null) {
                return;
            }
            List<Row> provider = db.query(providerSql, source);
            List<Row> owner = db.query("select provider_id from circuits_provideraccount where id = ?", accountId);
            if (!provider.isEmpty()
                    && !owner.isEmpty()
                    && !provider.get(0)
                            .longValue("provider_id")
                            .equals(owner.get(0).longValue("provider_id"))) {
                errors.computeIfAbsent(account, k -> new ArrayList<>()).add(message);
            }
        };
    }
}
