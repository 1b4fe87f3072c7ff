package org.sourceoftruth.records.engine.query;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.sourceoftruth.records.changelog.ChangeLogTables;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.customfields.CustomFieldDef;
import org.sourceoftruth.records.fieldtype.LookupCompiler;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.SystemTables;

/**
 * The list filters NetBox's NetBoxModelFilterSet gives every model besides its fields, for
 * {@link FilterCompiler}: {@code q} free text, {@code tag}/{@code tag_id}, the change-log
 * {@code *_by_request} filters and {@code cf_<name>} by the custom field's type and filter logic.
 */
final class NetBoxModelFilters {
    private NetBoxModelFilters() {}

    /** {@code q}: any of the model's search columns contains the text, case-insensitively. */
    static ExtraFilter.Sql search(Model model, List<String> values) {
        if (model.searchColumns().isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (String v : values) {
            for (String col : model.searchColumns()) {
                parts.add(col + "::text ilike ?");
                params.add("%" + LookupCompiler.like(v.trim()) + "%");
            }
        }
        return new ExtraFilter.Sql(String.join(" or ", parts), params);
    }

    /** tag / tag_id: AND over repeated values; tag__any: OR; tag__n: carries none of them. */
    static ExtraFilter.Sql tags(Db db, Model model, String base, String lookup, List<String> values) {
        if (lookup != null && !lookup.equals("n") && !lookup.equals("any")) {
            return null;
        }
        boolean bySlug = base.equals("tag");
        List<Object> keys = new ArrayList<>();
        for (String v : values) {
            keys.add(bySlug ? v : FilterCompiler.parse(Kind.INTEGER, v, null));
        }
        String col = bySlug ? "slug" : "id";
        Set<Object> found = new LinkedHashSet<>();
        db.query(
                        "select " + col + " as k from " + SystemTables.EXTRAS_TAG + " where " + col + " = any(?)",
                        new Db.SqlArray(bySlug ? "text" : "bigint", keys))
                .forEach(r -> found.add(r.get("k")));
        for (Object k : keys) {
            if (!found.contains(k)) {
                throw FilterCompiler.FilterError.notAChoice(k);
            }
        }
        String one = "exists (select 1 from " + SystemTables.EXTRAS_TAGGEDITEM + " ti join " + SystemTables.EXTRAS_TAG
                + " g on g.id = ti.tag_id" + " where ti.object_type = ? and ti.object_id = t.id and g." + col + " = ?)";
        List<String> parts = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (Object k : keys) {
            parts.add(one);
            params.add(model.contentType());
            params.add(k);
        }
        if ("n".equals(lookup)) {
            return new ExtraFilter.Sql(
                    String.join(" and ", parts.stream().map(p -> "not " + p).toList()), params);
        }
        return new ExtraFilter.Sql(String.join("any".equals(lookup) ? " or " : " and ", parts), params);
    }

    static ExtraFilter.Sql byRequest(Model model, String base, List<String> values) {
        String actions = switch (base) {
            case "created_by_request" -> "'create'";
            case "updated_by_request" -> "'update'";
            default -> "'create','update'";
        };
        List<Object> params = new ArrayList<>();
        params.add(model.contentType());
        List<UUID> ids = new ArrayList<>();
        for (String v : values) {
            try {
                ids.add(UUID.fromString(v.trim()));
            } catch (IllegalArgumentException e) {
                throw new FilterCompiler.FilterError("Enter a valid UUID.");
            }
        }
        params.add(new Db.SqlArray("uuid", ids));
        return new ExtraFilter.Sql(
                "t.id in (select changed_object_id from " + ChangeLogTables.OBJECTCHANGE
                        + " where changed_object_type = ?" + " and request_id = any(?) and action in (" + actions
                        + "))",
                params);
    }

    /** cf_<name>: typed comparison on custom_field_data; loose text filters are case-insensitive contains. */
    static ExtraFilter.Sql customField(CustomFieldDef def, String lookup, List<String> values) {
        String key = def.name().replace("'", "''");
        String text = "(t.custom_field_data->>'" + key + "')";
        switch (def.type()) {
            case "text", "longtext", "url", "select" -> {
                if (lookup == null
                        && "loose".equals(def.filterLogic())
                        && !def.type().equals("select")) {
                    lookup = "ic";
                }
                return FilterCompiler.column(text, Kind.STRING, null, lookup, values);
            }
            case "integer" -> {
                return FilterCompiler.column("(" + text + ")::bigint", Kind.INTEGER, null, lookup, values);
            }
            case "decimal" -> {
                return FilterCompiler.column("(" + text + ")::numeric", Kind.DECIMAL, null, lookup, values);
            }
            case "boolean" -> {
                return FilterCompiler.column("(" + text + ")::boolean", Kind.BOOLEAN, null, lookup, values);
            }
            case "date" -> {
                return FilterCompiler.column("(" + text + ")::date", Kind.DATE, null, lookup, values);
            }
            case "object" -> {
                return FilterCompiler.column("(" + text + ")::bigint", Kind.INTEGER, null, lookup, values);
            }
            case "multiselect" -> {
                if (lookup != null && !lookup.equals("n")) {
                    return null;
                }
                List<String> parts = new ArrayList<>();
                List<Object> params = new ArrayList<>();
                for (String v : values) {
                    parts.add("coalesce(jsonb_exists(t.custom_field_data->'" + key + "', ?), false)");
                    params.add(v);
                }
                String sql = String.join(" or ", parts);
                return new ExtraFilter.Sql(lookup == null ? sql : "not (" + sql + ")", params);
            }
            default -> {
                return null;
            }
        }
    }
}
