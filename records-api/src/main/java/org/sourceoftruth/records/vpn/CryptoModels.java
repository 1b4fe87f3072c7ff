package org.sourceoftruth.records.vpn;

import static org.sourceoftruth.records.model.Fields.*;
import static org.sourceoftruth.records.vpn.VpnChoices.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;

/**
 * vpn crypto: IKE proposals and policies (phase one), IPSec proposals and policies (phase two),
 * and the IPSec profiles that pair one policy of each for tunnels.
 */
@ApplicationScoped
public class CryptoModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model ikeProposal = named("ike-proposals", "vpn.ikeproposal", "vpn_ikeproposal", "IKE proposal")
                .fields(
                        choice("authentication_method", AUTHENTICATION_METHOD).required(),
                        choice("encryption_algorithm", ENCRYPTION_ALGORITHM).required(),
                        choice("authentication_algorithm", AUTHENTICATION_ALGORITHM)
                                .nullable(),
                        choice("group", DH_GROUP).required().help("Diffie-Hellman group ID"),
                        integer("sa_lifetime")
                                .nullable()
                                .range(0, Integer.MAX_VALUE)
                                .label("SA lifetime"),
                        str("comments"))
                .standardTail()
                .filters(reverseM2m(
                        "ike_policy", "vpn_ikepolicy_proposals", "ikeproposal_id", "ikepolicy_id", "vpn_ikepolicy"));

        Model ikePolicy = named("ike-policies", "vpn.ikepolicy", "vpn_ikepolicy", "IKE policy")
                .fields(
                        choice("version", IKE_VERSION).dflt("2"),
                        choice("mode", IKE_MODE).nullable(),
                        m2m(
                                "proposals",
                                "vpn.ikeproposal",
                                "vpn_ikepolicy_proposals",
                                "ikepolicy_id",
                                "ikeproposal_id"),
                        text("preshared_key").label("Pre-shared key"),
                        str("comments"))
                .standardTail()
                .validator(CryptoModels::modeFitsVersion)
                .relationFilter("ike_proposal", "proposals", "name")
                .relationFilter("ike_proposal_id", "proposals", "id");

        Model ipsecProposal = named("ipsec-proposals", "vpn.ipsecproposal", "vpn_ipsecproposal", "IPSec proposal")
                .fields(
                        choice("encryption_algorithm", ENCRYPTION_ALGORITHM)
                                .nullable()
                                .label("Encryption"),
                        choice("authentication_algorithm", AUTHENTICATION_ALGORITHM)
                                .nullable()
                                .label("Authentication"),
                        integer("sa_lifetime_seconds")
                                .nullable()
                                .range(0, Integer.MAX_VALUE)
                                .label("SA lifetime (seconds)"),
                        integer("sa_lifetime_data")
                                .nullable()
                                .range(0, Integer.MAX_VALUE)
                                .label("SA lifetime (KB)"),
                        str("comments"))
                .standardTail()
                .validator(CryptoModels::someAlgorithm)
                .filters(reverseM2m(
                        "ipsec_policy",
                        "vpn_ipsecpolicy_proposals",
                        "ipsecproposal_id",
                        "ipsecpolicy_id",
                        "vpn_ipsecpolicy"));

        Model ipsecPolicy = named("ipsec-policies", "vpn.ipsecpolicy", "vpn_ipsecpolicy", "IPSec policy")
                .fields(
                        m2m(
                                "proposals",
                                "vpn.ipsecproposal",
                                "vpn_ipsecpolicy_proposals",
                                "ipsecpolicy_id",
                                "ipsecproposal_id"),
                        choice("pfs_group", DH_GROUP).nullable().label("PFS group"),
                        str("comments"))
                .standardTail()
                .relationFilter("ipsec_proposal", "proposals", "name")
                .relationFilter("ipsec_proposal_id", "proposals", "id");

        Model ipsecProfile = named("ipsec-profiles", "vpn.ipsecprofile", "vpn_ipsecprofile", "IPSec profile")
                .fields(
                        choice("mode", IPSEC_MODE).required(),
                                fk("ike_policy", "vpn.ikepolicy").required().protect(),
                        fk("ipsec_policy", "vpn.ipsecpolicy").required().protect(), str("comments"))
                .standardTail();
        return List.of(ikeProposal, ikePolicy, ipsecProposal, ipsecPolicy, ipsecProfile);
    }

    /** A crypto model: name (unique) and description first, ordered and searched by name. */
    private static Model named(String path, String contentType, String table, String verboseName) {
        return Model.of("vpn", path, contentType, table, verboseName)
                .fields(
                        str("name").required().max(100).unique(),
                        str("description").max(200))
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "description");
    }

    /**
     * {@code <name>} (by the other side's name) and {@code <name>_id}: objects a many-to-many
     * relation declared on the other model links here (an IKE proposal's policies).
     */
    static List<ExtraFilter> reverseM2m(
            String name, String joinTable, String ownColumn, String otherColumn, String otherTable) {
        return List.of(
                ExtraFilters.each(
                                name,
                                Kind.STRING,
                                "{t}.id in (select j." + ownColumn + " from " + joinTable + " j join " + otherTable
                                        + " o on o.id = j." + otherColumn + " where o.name = ?)")
                        .choicesFrom(otherTable, "name"),
                ExtraFilters.each(
                                name + "_id",
                                Kind.INTEGER,
                                "{t}.id in (select " + ownColumn + " from " + joinTable + " where " + otherColumn
                                        + " = ?)")
                        .choicesFrom(otherTable, "id"));
    }

    /** IKEPolicy.clean: IKEv1 needs a mode, IKEv2 takes none (a non-field error, as NetBox's). */
    static void modeFitsVersion(Row row, Map<String, List<String>> errors) {
        String version = row.str("version");
        boolean hasMode = row.str("mode") != null && !row.str("mode").isEmpty();
        if ("1".equals(version) && !hasMode) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>()).add("Mode is required for selected IKE version");
        } else if ("2".equals(version) && hasMode) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add("Mode cannot be used for selected IKE version");
        }
    }

    /** IPSecProposal.clean: an encryption or an authentication algorithm, or both. */
    static void someAlgorithm(Row row, Map<String, List<String>> errors) {
        if (empty(row.str("encryption_algorithm")) && empty(row.str("authentication_algorithm"))) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add("Encryption and/or authentication algorithm must be defined");
        }
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }
}
