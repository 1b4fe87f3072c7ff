package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.JsonSchemaRules;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * extras: config contexts (their rendering on devices and VMs is {@link ConfigContexts}) and config
 * context profiles (NetBox 4.4: a JSON schema the data of the contexts using the profile must match).
 */
@ApplicationScoped
public class ConfigContextModels implements ModelDefinition {
    @jakarta.inject.Inject
    SyncedData syncedData;

    /** Assignment dimensions: field, target content type, and the filter name NetBox uses. */
    private record Assignment(
            ConfigContexts.Dimension dimension, String target, String filter, String targetTable, boolean bySlug) {}

    private static final List<Assignment> ASSIGNMENTS = List.of(
            new Assignment(ConfigContexts.Dimension.REGIONS, "dcim.region", "region", "dcim_region", true),
            new Assignment(
                    ConfigContexts.Dimension.SITE_GROUPS, "dcim.sitegroup", "site_group", "dcim_sitegroup", true),
            new Assignment(ConfigContexts.Dimension.SITES, "dcim.site", "site", "dcim_site", true),
            new Assignment(ConfigContexts.Dimension.LOCATIONS, "dcim.location", "location", "dcim_location", true),
            new Assignment(
                    ConfigContexts.Dimension.DEVICE_TYPES, "dcim.devicetype", "device_type", "dcim_devicetype", true),
            new Assignment(ConfigContexts.Dimension.ROLES, "dcim.devicerole", "role", "dcim_devicerole", true),
            new Assignment(ConfigContexts.Dimension.PLATFORMS, "dcim.platform", "platform", "dcim_platform", true),
            new Assignment(
                    ConfigContexts.Dimension.CLUSTER_TYPES,
                    "virtualization.clustertype",
                    "cluster_type",
                    "virtualization_clustertype",
                    true),
            new Assignment(
                    ConfigContexts.Dimension.CLUSTER_GROUPS,
                    "virtualization.clustergroup",
                    "cluster_group",
                    "virtualization_clustergroup",
                    true),
            new Assignment(
                    ConfigContexts.Dimension.CLUSTERS,
                    "virtualization.cluster",
                    "cluster",
                    "virtualization_cluster",
                    false),
            new Assignment(
                    ConfigContexts.Dimension.TENANT_GROUPS,
                    "tenancy.tenantgroup",
                    "tenant_group",
                    "tenancy_tenantgroup",
                    true),
            new Assignment(ConfigContexts.Dimension.TENANTS, "tenancy.tenant", "tenant", "tenancy_tenant", true));

    @Override
    public List<Model> models() {
        Model configContext = Model.of("extras", "config-contexts", "config context")
                .fields(
                        str("name").required().max(100).unique(),
                                integer("weight").range(0, 32767).dflt(1000),
                        str("description").max(200), bool("is_active").dflt(true))
                .fields(assignmentFields())
                .fields(
                        tags().slugs(),
                        json("data").required(),
                        fk("profile", "extras.configcontextprofile").protect())
                .fields(SyncedData.fields(false))
                .timestamps()
                .hook(syncedData.hook("data", SyncedData.Content.DATA))
                .validator((row, errors) -> ConfigContexts.requireObject("data", row, errors))
                .check(ConfigContextModels::dataMatchesProfile)
                .filters(assignmentFilters())
                // NetBox names the device-role dimension device_role on config contexts
                .relationFilter("device_role", "roles", "slug")
                .relationFilter("device_role_id", "roles", "id")
                .ordering("t.weight", "t.name")
                .search("t.name", "t.description", "t.data")
                .brief("name", "description");
        Model profile = Model.of("extras", "config-context-profiles", "config context profile")
                .fields(
                        str("name").required().max(100).unique(),
                        str("description").max(200),
                        json("schema")
                                .nullable()
                                .help("A JSON schema specifying the structure of the context data for"
                                        + " this profile"),
                        tags(),
                        str("comments"))
                .fields(SyncedData.fields(false))
                .timestamps()
                .hook(syncedData.hook("schema", SyncedData.Content.DATA))
                .validator(JsonSchemaRules::schemaField)
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments")
                .brief("name", "description");
        return List.of(configContext, profile);
    }

    /** NetBox 4.4's ConfigContext.clean: the data validates against its profile's schema. */
    private static void dataMatchesProfile(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long profile = row.longValue("profile_id");
        if (profile == null) {
            return;
        }
        List<Row> found = db.query("select schema from extras_configcontextprofile where id = ?", profile);
        Object schema = found.isEmpty() ? null : found.get(0).get("schema");
        Object data = row.get("data");
        String problem = schema instanceof JsonNode s
                ? JsonSchemaRules.violation(s, data instanceof JsonNode d ? d : null)
                : null;
        if (problem != null) {
            errors.computeIfAbsent("data", k -> new ArrayList<>())
                    .add("Data does not conform to profile schema: " + problem);
        }
    }

    private static Field[] assignmentFields() {
        return ASSIGNMENTS.stream()
                .map(a -> m2m(
                        a.dimension().field,
                        a.target(),
                        a.dimension().joinTable(),
                        "configcontext_id",
                        a.dimension().column))
                .toArray(Field[]::new);
    }

    /** region / region_id, site / site_id, ...: contexts assigned to that object. */
    private static List<ExtraFilter> assignmentFilters() {
        List<ExtraFilter> out = new ArrayList<>();
        for (Assignment a : ASSIGNMENTS) {
            String join = a.dimension().joinTable();
            String column = a.dimension().column;
            out.add(ExtraFilters.each(
                    a.filter() + "_id",
                    Kind.INTEGER,
                    "{t}.id in (select configcontext_id from " + join + " where " + column + " = ?)"));
            if (a.bySlug()) {
                out.add(ExtraFilters.each(
                        a.filter(),
                        Kind.STRING,
                        "{t}.id in (select x.configcontext_id from " + join + " x join " + a.targetTable()
                                + " y on y.id = x." + column + " where y.slug = ?)"));
            }
        }
        return out;
    }
}
