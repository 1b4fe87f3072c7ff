package org.sourceoftruth.records.tenancy;

import static org.sourceoftruth.records.model.Declarations.nestedGroup;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.dcim.DcimTables;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.UniqueRule;

/** tenancy: tenant groups and tenants. */
@ApplicationScoped
public class TenancyModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model tenantGroup = nestedGroup(
                "tenancy", "tenant-groups", "tenant group", count("tenant_count", "tenancy_tenant", "group_id"));
        // NetBox's names and slugs are unique across the whole tree, not only among siblings
        tenantGroup.field("name").unique();
        tenantGroup.field("slug").unique();

        Model tenant = Model.of("tenancy", "tenants", "tenant")
                .fields(
                        str("name").required().max(100),
                        slug("slug"),
                        fk("group", "tenancy.tenantgroup"),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(
                        count("device_count", DcimTables.DEVICE, "tenant_id"),
                        count("rack_count", DcimTables.RACK, "tenant_id"),
                        count("site_count", DcimTables.SITE, "tenant_id"),
                        countOf("circuit_count", "circuits.circuit", "tenant_id"),
                        countOf("ipaddress_count", "ipam.ipaddress", "tenant_id"),
                        countOf("prefix_count", "ipam.prefix", "tenant_id"),
                        countOf("virtualmachine_count", "virtualization.virtualmachine", "tenant_id"),
                        countOf("vlan_count", "ipam.vlan", "tenant_id"),
                        countOf("vrf_count", "ipam.vrf", "tenant_id"),
                        countOf("cluster_count", "virtualization.cluster", "tenant_id"))
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
