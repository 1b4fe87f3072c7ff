package org.sourceoftruth.records.tenancy;

import java.util.List;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.dcim.ScopeFilters;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Kind;

/** NetBox's TenancyFilterSet additions: tenant_group / tenant_group_id (with descendants). */
public final class TenancyFilters {
    private TenancyFilters() {}

    public static List<ExtraFilter> tenantGroup() {
        return List.of(
                group("tenant_group", Kind.STRING, "slug", "text"),
                group("tenant_group_id", Kind.INTEGER, "id", "bigint"));
    }

    private static ExtraFilter group(String name, Kind kind, String key, String arrayType) {
        String sql = "{t}.tenant_id in (select id from tenancy_tenant where group_id in ("
                + ScopeFilters.descendants("tenancy_tenantgroup", key) + "))";
        // NetBox's TreeNodeMultipleChoiceFilter: a group that does not exist is a 400
        return new ExtraFilter(
                        name,
                        kind,
                        (alias, values) ->
                                ExtraFilter.Sql.of(sql.replace("{t}", alias), new Db.SqlArray(arrayType, values)))
                .choicesFrom("tenancy_tenantgroup", key);
    }
}
