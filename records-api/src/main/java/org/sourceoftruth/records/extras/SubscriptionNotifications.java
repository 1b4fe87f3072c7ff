package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.changelog.ChangeObserver;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ModelRegistry;

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
 * A deleted object's subscriptions go with it (before its change is recorded): their own change
 * records in the same batch name its subscribers.
 */
@ApplicationScoped
public class SubscriptionNotifications implements ChangeObserver {
    private static final String NOTIFY = """
            insert into extras_notification (user_id, object_type, object_id, object_repr, event_type)
            select s.user_id, c.object_type, c.object_id, c.object_repr, c.event_type
              from unnest(?::text[], ?::bigint[], ?::text[], ?::text[]) as c(object_type, object_id, object_repr, event_type)
              join extras_subscription s on s.object_type = c.object_type and s.object_id = c.object_id
            union
            select g.user_id, g.object_type, g.object_id, g.object_repr, g.event_type
              from unnest(?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::text[])
                   as g(user_id, object_type, object_id, object_repr, event_type)
            on conflict (object_type, object_id, user_id)
            do update set event_type = excluded.event_type, object_repr = excluded.object_repr, created = now(),
                          read = null""";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelRegistry registry;

    @Override
    public void recorded(List<Recorded> changes) {
        // A deleted object's subscriptions are deleted with it before its change is recorded; their
        // own change records, in the same batch, name the subscribers.
        Map<String, List<Long>> goneSubscribers = new HashMap<>();
        for (Recorded recorded : changes) {
            ChangeRecord change = recorded.change();
            JsonNode pre = change.prechange();
            if (recorded.action() == ChangeAction.DELETE
                    && change.objectType().equals("extras.subscription")
                    && pre != null
                    && pre.path("user").canConvertToLong()) {
                goneSubscribers
                        .computeIfAbsent(
                                key(
                                        pre.path("object_type").asText(),
                                        pre.path("object_id").asLong()),
                                k -> new ArrayList<>())
                        .add(pre.path("user").asLong());
            }
        }
        Columns subscribed = new Columns();
        Columns gone = new Columns();
        for (Recorded recorded : changes) {
            ChangeRecord change = recorded.change();
            if (recorded.action() == ChangeAction.CREATE || !subscribable(change.objectType())) {
                continue;
            }
            String event = EventRuleNotifications.eventType(recorded.action());
            subscribed.add(null, change, event);
            if (recorded.action() == ChangeAction.DELETE) {
                for (long user : goneSubscribers.getOrDefault(key(change.objectType(), change.objectId()), List.of())) {
                    gone.add(user, change, event);
                }
            }
        }
        if (subscribed.types.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            List<Object> params = new ArrayList<>(subscribed.arrays(false));
            params.addAll(gone.arrays(true));
            new Db(c).update(NOTIFY, params.toArray());
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private static String key(String type, long id) {
        return type + ":" + id;
    }

    /** The notifications to write, column by column (bound as arrays). */
    private static final class Columns {
        final List<Long> users = new ArrayList<>();
        final List<String> types = new ArrayList<>();
        final List<Long> ids = new ArrayList<>();
        final List<String> reprs = new ArrayList<>();
        final List<String> events = new ArrayList<>();

        void add(Long user, ChangeRecord change, String event) {
            users.add(user);
            types.add(change.objectType());
            ids.add(change.objectId());
            reprs.add(change.objectRepr());
            events.add(event);
        }

        List<Object> arrays(boolean withUsers) {
            List<Object> out = new ArrayList<>();
            if (withUsers) {
                out.add(new Db.SqlArray("bigint", users));
            }
            out.add(new Db.SqlArray("text", types));
            out.add(new Db.SqlArray("bigint", ids));
            out.add(new Db.SqlArray("text", reprs));
            out.add(new Db.SqlArray("text", events));
            return out;
        }
    }

    /** Models with NetBox's notifications feature: the only ones a subscription can point at. */
    private boolean subscribable(String contentType) {
        return registry.byContentType(contentType)
                .map(NotificationModels.FEATURED::test)
                .orElse(false);
    }
}
