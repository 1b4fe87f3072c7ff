package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.model.UniqueRule;

/**
 * extras: bookmarks, notification groups, notifications and subscriptions (NetBox 4.1+). Each
 * user manages their own bookmarks, notifications and subscriptions through NetBox's default
 * permissions ({@code {"user": "$user"}}, see AuthSettings); superusers see everyone's. Event
 * rules with action type {@code notification} create notifications ({@link EventRuleNotifications}).
 */
@ApplicationScoped
public class NotificationModels implements ModelDefinition {
    /** NetBox's registered event types (the notification's event_type). */
    public static final ChoiceSet EVENT_TYPE = ChoiceSet.of(
            "object_created",
            "Object created",
            "object_updated",
            "Object updated",
            "object_deleted",
            "Object deleted",
            "job_started",
            "Job started",
            "job_completed",
            "Job completed",
            "job_failed",
            "Job failed",
            "job_errored",
            "Job errored");

    /**
     * The models NetBox's feature set (bookmarks, notifications, image attachments...) applies to:
     * those with tags and custom fields, outside extras (NetBoxModel and its kin).
     */
    public static final Predicate<Model> FEATURED =
            m -> m.hasTags() && m.hasCustomFields() && !m.app().equals("extras");

    /** The id of the row's object type in core/object-types. */
    private static final String OBJECT_TYPE_ID = "(select o.id from " + SystemTables.CORE_OBJECTTYPE
            + " o where o.app_label || '.' || o.model = {t}.object_type)";

    @Override
    public List<Model> models() {
        Model bookmark = Model.of("extras", "bookmarks", "bookmark")
                .noDisplayUrl()
                .fields(object(), owner(), datetime("created").readOnly())
                .unique(UniqueRule.of(
                        "Bookmark with this Object type, Object id and User already exists.",
                        "object_type",
                        "object_id",
                        "user_id"))
                .display(NotificationModels::objectDisplay)
                .relationFilter("user", "user", "username")
                // NetBox's BookmarkFilterSet: object_type_id is a plain number filter (lookups, no check)
                .filters(ExtraFilters.number("object_type_id", OBJECT_TYPE_ID))
                .ordering("t.created", "t.id");

        Model group = Model.of("extras", "notification-groups", "notification group")
                .fields(
                        str("name").required().max(100).unique(),
                        str("description").max(200),
                        m2m(
                                "groups",
                                "users.group",
                                "extras_notificationgroup_groups",
                                "notificationgroup_id",
                                "group_id"),
                        m2m("users", "users.user", "extras_notificationgroup_users", "notificationgroup_id", "user_id"))
                .relationFilter("group", "groups", "name")
                .relationFilter("group_id", "groups", "id")
                .relationFilter("user", "users", "username")
                .relationFilter("user_id", "users", "id")
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description");

        Model notification = Model.of("extras", "notifications", "notification")
                .noDisplayUrl()
                .fields(
                        object(),
                        owner(),
                        datetime("created").readOnly(),
                        datetime("read").nullable(),
                        plainChoice("event_type", EVENT_TYPE).required())
                .unique(UniqueRule.of(
                        "Notification with this Object type, Object id and User already exists.",
                        "object_type",
                        "object_id",
                        "user_id"))
                .display(r ->
                        r.str("object_repr") == null || r.str("object_repr").isEmpty()
                                ? objectDisplay(r)
                                : r.str("object_repr"))
                .relationFilter("user", "user", "username")
                .ordering("t.created desc", "t.id");

        Model subscription = Model.of("extras", "subscriptions", "subscription")
                .noDisplayUrl()
                .fields(object(), owner(), datetime("created").readOnly())
                .unique(UniqueRule.of(
                        "Subscription with this Object type, Object id and User already exists.",
                        "object_type",
                        "object_id",
                        "user_id"))
                .display(NotificationModels::objectDisplay)
                .relationFilter("user", "user", "username")
                .ordering("t.created desc", "t.user_id");
        // a user's own bookmarks, notifications and subscriptions: no event rule may name them (as in NetBox)
        List.of(bookmark, notification, subscription).forEach(m -> m.eventRules(false));
        return List.of(bookmark, group, notification, subscription);
    }

    /** The object pointed at: any model with NetBox's feature set; deleted with it. */
    private static Field object() {
        return genericFkToAny("object", "object_type", "object_id", FEATURED)
                .required()
                .notNull()
                .cascade()
                .objectTypeIds();
    }

    /** The user the bookmark, notification or subscription belongs to. */
    private static Field owner() {
        return fk("user", "users.user").required().cascade();
    }

    private static String objectDisplay(Row r) {
        return r.str("object_type") + " " + Objects.toString(r.get("object_id"), "");
    }
}
