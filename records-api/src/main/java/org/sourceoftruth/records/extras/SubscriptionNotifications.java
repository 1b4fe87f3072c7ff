package org.sourceoftruth.records.extras;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.changelog.ChangeObserver;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ModelRegistry;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Subscriptions notify (NetBox's {@code extras.signals.notify_object_changed}): when an object
 * someone subscribed to is updated or deleted, each subscriber gets a notification of it (a
 * creation notifies nobody: nothing can be subscribed to before it exists). As NetBox, which
 * deletes the subscribers' earlier notifications of the object and creates new ones, the
 * notification is fresh: its {@code created} is now and it is unread again; it keeps the object's
 * text, so a deletion's notification still names the deleted object.
 *
 * <p>It runs when the change is recorded ({@link ChangeObserver}), in the change's transaction,
 * so the notification exists exactly when the change committed. One statement per recorded batch
 * of updates and deletes of models that can be subscribed to, whatever the number of objects.
 * A delete's subscriptions go with the object, after the change was recorded.
 */
@ApplicationScoped
public class SubscriptionNotifications implements ChangeObserver {
    private static final String NOTIFY = """
            insert into extras_notification (user_id, object_type, object_id, object_repr, event_type)
            select s.user_id, c.object_type, c.object_id, c.object_repr, c.event_type
              from unnest(?::text[], ?::bigint[], ?::text[], ?::text[]) as c(object_type, object_id, object_repr, event_type)
              join extras_subscription s on s.object_type = c.object_type and s.object_id = c.object_id
            on conflict (object_type, object_id, user_id)
            do update set event_type = excluded.event_type, object_repr = excluded.object_repr, created = now(),
                          read = null""";

    @Inject
    AgroalDataSource dataSource;
    @Inject
    ModelRegistry registry;

    @Override
    public void recorded(List<Recorded> changes) {
        List<String> types = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        List<String> reprs = new ArrayList<>();
        List<String> events = new ArrayList<>();
        for (Recorded recorded : changes) {
            ChangeRecord change = recorded.change();
            if (recorded.action() == ChangeAction.CREATE || !subscribable(change.objectType())) {
                continue;
            }
            types.add(change.objectType());
            ids.add(change.objectId());
            reprs.add(change.objectRepr());
            events.add(EventRuleNotifications.eventType(recorded.action()));
        }
        if (types.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            new Db(c).update(NOTIFY, new Db.SqlArray("text", types), new Db.SqlArray("bigint", ids),
                    new Db.SqlArray("text", reprs), new Db.SqlArray("text", events));
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** Models with NetBox's notifications feature: the only ones a subscription can point at. */
    private boolean subscribable(String contentType) {
        return registry.byContentType(contentType).map(NotificationModels.FEATURED::test).orElse(false);
    }
}
