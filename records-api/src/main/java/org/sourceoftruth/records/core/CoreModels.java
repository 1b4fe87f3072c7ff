package org.sourceoftruth.records.core;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.changelog.ChangeLogTables;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * core: the change log, read-only. Served at NetBox 4's /api/core/object-changes/ and at the
 * spec's /api/extras/object-changes/.
 */
@ApplicationScoped
public class CoreModels implements ModelDefinition {
    public static final ChoiceSet ACTION = ChoiceSet.of("create", "Created", "update", "Updated", "delete", "Deleted");

    @Override
    public List<Model> models() {
        Model objectChange = Model.of(
                        "core", "object-changes", "core.objectchange", ChangeLogTables.OBJECTCHANGE, "object change")
                .fields(
                        datetime("time").readOnly(),
                        computed("user", CoreModels::user),
                        str("user_name").readOnly(),
                        str("request_id").readOnly().filterExpression("t.request_id::text"),
                        choice("action", ACTION).readOnly(),
                        genericFk("changed_object", "changed_object_type", "changed_object_id", List.of())
                                .readOnly()
                                .objectTypeIds(),
                        str("object_repr").readOnly(),
                        str("message").readOnly(),
                        json("prechange_data").readOnly(),
                        json("postchange_data").readOnly())
                .readOnlyApi()
                .select(
                        "_user_display",
                        "select u.username || coalesce(nullif(' (' || trim(u.first_name || ' '"
                                + " || u.last_name) || ')', ' ()'), '') from " + SystemTables.USERS_USER
                                + " u where u.id = t.user_id")
                .select(
                        "_user_username",
                        "select u.username from " + SystemTables.USERS_USER + " u where u.id = t.user_id")
                // NetBox's ObjectChangeFilterSet: the acting user (by username or id, __n derived),
                // a time window, and the related object (a component's device, ...)
                .filters(List.of(
                        ExtraFilters.each(
                                "user",
                                Kind.STRING,
                                "{t}.user_id in (select u.id from " + SystemTables.USERS_USER
                                        + " u where u.username = ?)"),
                        ExtraFilters.each("user_id", Kind.INTEGER, "{t}.user_id = ?"),
                        ExtraFilters.each("time_after", Kind.DATETIME, "{t}.time >= ?"),
                        ExtraFilters.each("time_before", Kind.DATETIME, "{t}.time <= ?"),
                        ExtraFilters.each("related_object_type", Kind.STRING, "{t}.related_object_type = ?")))
                .filters(ExtraFilters.number("related_object_id", "{t}.related_object_id"))
                .alsoAt("extras", "object-changes")
                .display(r -> r.str("object_repr"))
                .ordering("t.time desc", "t.id desc")
                .search("t.object_repr", "t.user_name", "t.message")
                .brief(
                        "time",
                        "user_name",
                        "request_id",
                        "action",
                        "changed_object_type",
                        "changed_object_id",
                        "object_repr");
        return List.of(objectChange);
    }

    /**
     * The acting account as NetBox's BriefUser while it exists (its name stays in user_name).
     * Not a foreign-key declaration: deleting a user must not log changes to the change log
     * itself; the database clears user_id (on delete set null).
     */
    private static Map<String, Object> user(Row r) {
        if (r.get("user_id") == null || r.get("_user_username") == null) {
            return null;
        }
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("id", r.longValue("user_id"));
        user.put("url", "/api/users/users/" + r.longValue("user_id") + "/");
        user.put("display", r.str("_user_display"));
        user.put("username", r.str("_user_username"));
        return user;
    }
}
