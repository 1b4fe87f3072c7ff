package org.sourceoftruth.records.ui;

import io.agroal.api.AgroalDataSource;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.db.Db.DbException;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * The home page's counts: how many objects of each model the caller may view, per application,
 * in one statement (a count per model under the caller's view restriction, as the lists count).
 */
@ApplicationScoped
class ObjectCounts {
    @Inject
    ModelRegistry registry;

    @Inject
    Access access;

    @Inject
    AgroalDataSource dataSource;

    @TemplateData
    public record AppCounts(String label, List<ModelCount> models) {}

    @TemplateData
    public record ModelCount(String label, String href, long count) {}

    List<AppCounts> forCaller() {
        Map<String, List<Model>> byApp = new LinkedHashMap<>();
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (String app : registry.apps()) {
            for (var entry : registry.modelsOf(app).entrySet()) {
                Model m = entry.getValue();
                if (!Menu.isPrimaryPath(m, app, entry.getKey()) || !access.allows(m, Access.Action.VIEW)) {
                    continue;
                }
                ExtraFilter.Sql scope = access.restriction(m, Access.Action.VIEW);
                sql.append(sql.isEmpty() ? "" : " union all ")
                        .append("select ")
                        .append(byApp.values().stream().mapToInt(List::size).sum())
                        .append(" as n, count(*) as c from ")
                        .append(m.table())
                        .append(" t");
                if (scope != null) {
                    sql.append(" where ").append(scope.sql());
                    params.addAll(scope.params());
                }
                byApp.computeIfAbsent(app, a -> new ArrayList<>()).add(m);
            }
        }
        if (sql.isEmpty()) {
            return List.of();
        }
        Map<Integer, Long> counts = new java.util.HashMap<>();
        try (Connection c = dataSource.getConnection()) {
            new Db(c)
                    .query(sql.toString(), params)
                    .forEach(r -> counts.put(r.longValue("n").intValue(), r.longValue("c")));
        } catch (SQLException e) {
            throw new DbException(e);
        }
        List<AppCounts> out = new ArrayList<>();
        int n = 0;
        for (var e : byApp.entrySet()) {
            List<ModelCount> models = new ArrayList<>();
            for (Model m : e.getValue()) {
                models.add(new ModelCount(Menu.plural(m), UiPaths.list(m), counts.getOrDefault(n++, 0L)));
            }
            out.add(new AppCounts(Menu.appLabel(e.getKey()), models));
        }
        return out;
    }
}
