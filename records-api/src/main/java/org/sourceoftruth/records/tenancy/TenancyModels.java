package org.sourceoftruth.records.tenancy;

import static org.sourceoftruth.records.model.Declarations.nestedGroup;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;

/** tenancy: tenant groups and tenants. */
@ApplicationScoped
public class TenancyModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model tenantGroup = nestedGroup(
                "tenancy",
                "tenant-groups",
                "tenancy.tenantgroup",
                "tenancy_tenantgroup",
                "tenant group",
                count("tenant_count", "tenancy_tenant", "group_id"));

        Model tenant = Model.of("tenancy", "tenants", "tenancy.tenant", "tenancy_tenant", "tenant")
                .fields(
                        str("name").required().max(100),
                        slug("slug"),
                        fk("group", "tenancy.tenantgroup"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("device_count", "dcim_device", "tenant_id"),
                        count("rack_count", "dcim_rack", "tenant_id"),
                        count("site_count", "dcim_site", "tenant_id"),
                        count("circuit_count", "circuits_circuit", "tenant_id"),
                        count("ipaddress_count", "ipam_ipaddress", "tenant_id"),
                        count("prefix_count", "ipam_prefix", "tenant_id"),
                        count("virtualmachine_count", "virtualization_virtualmachine", "tenant_id"),
                        count("vlan_count", "ipam_vlan", "tenant_id"),
                        count("vrf_count", "ipam_vrf", "tenant_id"),
                        count("cluster_count", "virtualization_cluster", "tenant_id"))
                .unique(UniqueRule.of("Tenant name must be unique per group.", "group_id", "name")
                        .topLevel("Tenant with this name already exists."))
                .unique(UniqueRule.of("Tenant slug must be unique per group.", "group_id", "slug")
                        .topLevel("Tenant with this slug already exists."))
                .ordering("t.name")
                .search("t.name", "t.slug", "t.description", "t.comments")
                .brief("name", "slug", "description");
        return List.of(tenantGroup, tenant);
    }
}
