package org.sourceoftruth.records.ipam;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;

/** ipam (NetBox 4.2+): VLAN translation policies and their local-to-remote VID rules. */
@ApplicationScoped
public class VlanTranslationModels implements ModelDefinition {
    /** NetBox's VLANTranslationRuleSerializer fields: a rule as shown in its policy's rules too. */
    private static final String[] RULE_FIELDS = {
        "id", "url", "display", "policy", "local_vid", "remote_vid", "description"
    };

    @Override
    public List<Model> models() {
        Model policy = Model.of("ipam", "vlan-translation-policies", "VLAN translation policy")
                .noDisplayUrl()
                .apiName("VLANTranslationPolicy")
                .fields(
                        str("name").required().max(100).unique(),
                        str("description").max(200),
                        m2m("rules", "ipam.vlantranslationrule", "ipam_vlantranslationrule", "policy_id", "id")
                                .readOnly()
                                .noFilter()
                                .nestedFields(RULE_FIELDS),
                        str("comments"))
                .fields(
                        tags().unrendered(), customFields().unrendered(),
                        datetime("created").nullable().unrendered(),
                                datetime("last_updated").nullable().unrendered())
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description");

        Model rule = Model.of("ipam", "vlan-translation-rules", "VLAN translation rule")
                .noDisplayUrl()
                .apiName("VLANTranslationRule")
                .fields(
                        fk("policy", "ipam.vlantranslationpolicy")
                                .required()
                                .cascade()
                                .renderedAsId(),
                        integer("local_vid").required().range(1, 4094).label("Local VLAN ID"),
                        integer("remote_vid").required().range(1, 4094).label("Remote VLAN ID"),
                        str("description").max(200))
                .fields(
                        tags().unrendered(), customFields().unrendered(),
                        datetime("created").nullable().unrendered(),
                                datetime("last_updated").nullable().unrendered())
                .select("_policy", "select p.name from ipam_vlantranslationpolicy p where p.id = t.policy_id")
                .display(r -> r.str("local_vid") + " -> " + r.str("remote_vid") + " (" + r.str("_policy") + ")")
                .unique(UniqueRule.of(
                        "VLAN translation rule with this Policy and Local VLAN ID already exists.",
                        "policy_id",
                        "local_vid"))
                .unique(UniqueRule.of(
                        "VLAN translation rule with this Policy and Remote VLAN ID already exists.",
                        "policy_id",
                        "remote_vid"))
                .ordering("(select p.name from ipam_vlantranslationpolicy p where p.id = t.policy_id)", "t.local_vid")
                .search(
                        "(select p.name from ipam_vlantranslationpolicy p where p.id = t.policy_id)", "t.description",
                        "t.local_vid::text", "t.remote_vid::text")
                .brief(RULE_FIELDS);
        return List.of(policy, rule);
    }
}
