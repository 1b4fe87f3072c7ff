package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;
import org.sourceoftruth.model.conditions.Condition;
import org.sourceoftruth.model.conditions.ConditionEvaluationException;
import org.sourceoftruth.model.conditions.Conditions;
import org.sourceoftruth.model.conditions.InvalidConditionException;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.changelog.ChangeObserver;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.CacheInvalidator;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Event rules with action type {@code notification}: when a change matches such a rule (object
 * type, event type, conditions, as the dispatcher matches webhook rules), every member of the
 * rule's notification group (its users and the users of its groups) gets a notification.
 *
 * <p>Why here, and so: notifications are records-api's data (its tables, its API), while
 * webhook-dispatcher only reads records-api through Kafka and HTTP and must not write its tables.
 * records-api therefore creates them itself, when it records the change ({@link ChangeObserver}):
 * in the change's own transaction, so a notification exists exactly when its change committed,
 * with no consumer lag and no second copy of the change stream to run. As NetBox's
 * {@code NotificationGroup.notify()} ({@code update_or_create} per object and user, no change
 * record: Notification is not a change-logged model), a later event on the same object updates
 * the user's notification (its event type and text; {@code created} and {@code read} stay).
 *
 * <p>The enabled notification rules are cached: a write of an event rule or notification group
 * on this replica drops the cache at once; other replicas reload it at most {@link #MAX_AGE_NANOS}
 * later. A write costs no statement unless a rule matches it.
 */
@ApplicationScoped
public class EventRuleNotifications implements ChangeObserver, CacheInvalidator {
    private static final Logger LOG = Logger.getLogger(EventRuleNotifications.class);
    /** How long another replica's rule changes may take to apply here. */
    static final long MAX_AGE_NANOS = 5_000_000_000L;

    private static final String NOTIFY = """
            insert into extras_notification (user_id, object_type, object_id, object_repr, event_type)
            select u.id, ?, ?, ?, ? from %s u
             where u.id in (select user_id from extras_notificationgroup_users where notificationgroup_id = ?)
                or u.id in (select ug.user_id from %s ug
                             join extras_notificationgroup_groups ng on ng.group_id = ug.group_id
                            where ng.notificationgroup_id = ?)
            on conflict (object_type, object_id, user_id)
            do update set event_type = excluded.event_type, object_repr = excluded.object_repr""".formatted(SystemTables.USERS_USER, SystemTables.USERS_USER_GROUPS);

    @Inject
    AgroalDataSource dataSource;

    private volatile Cached cached;

    /** An enabled notification rule; {@code condition} null when its conditions are invalid (it never fires). */
    record Rule(long id, Set<String> objectTypes, Set<String> eventTypes, Condition condition, long groupId) {}

    private record Cached(List<Rule> rules, long loadedAt) {}

    @Override
    public void recorded(List<Recorded> changes) {
        List<Rule> rules = rules();
        if (rules.isEmpty()) {
            return;
        }
        List<Object[]> notifications = new ArrayList<>();
        for (Recorded recorded : changes) {
            ChangeRecord change = recorded.change();
            String eventType = eventType(recorded.action());
            for (Rule rule : rules) {
                if (rule.objectTypes().contains(change.objectType())
                        && rule.eventTypes().contains(eventType)
                        && fires(rule, change.eventData())) {
                    notifications.add(new Object[] {
                        change.objectType(),
                        change.objectId(),
                        change.objectRepr(),
                        eventType,
                        rule.groupId(),
                        rule.groupId()
                    });
                }
            }
        }
        if (notifications.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            for (Object[] n : notifications) {
                db.update(NOTIFY, n);
            }
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    @Override
    public void afterWrite(String contentType, boolean delete) {
        if (contentType.equals("extras.eventrule") || contentType.equals("extras.notificationgroup")) {
            cached = null;
        }
    }

    /** NetBox's event type of a change. */
    static String eventType(ChangeAction action) {
        return switch (action) {
            case CREATE -> "object_created";
            case UPDATE -> "object_updated";
            case DELETE -> "object_deleted";
        };
    }

    private static boolean fires(Rule rule, JsonNode data) {
        if (rule.condition() == null) {
            return false;
        }
        try {
            return rule.condition().evaluate(data);
        } catch (ConditionEvaluationException e) {
            return false; // as the dispatcher: a condition that cannot be evaluated does not fire
        }
    }

    private List<Rule> rules() {
        Cached c = cached;
        if (c == null || System.nanoTime() - c.loadedAt() > MAX_AGE_NANOS) {
            c = new Cached(load(), System.nanoTime());
            cached = c;
        }
        return c.rules();
    }

    @SuppressWarnings("unchecked")
    private List<Rule> load() {
        List<Rule> rules = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            for (Row r : new Db(c)
                    .query(
                            "select id, object_types, event_types, conditions, action_object_id"
                                    + " from extras_eventrule where enabled and action_type = 'notification'"
                                    + " and action_object_type = 'extras.notificationgroup' and action_object_id is not null")) {
                Condition condition;
                try {
                    condition = Conditions.parse(r.get("conditions") instanceof JsonNode n ? n : null);
                } catch (InvalidConditionException e) {
                    LOG.warnf("Event rule %d has invalid conditions and will not notify: %s", r.id(), e.getMessage());
                    condition = null;
                }
                rules.add(new Rule(
                        r.id(),
                        new HashSet<>((List<String>) r.get("object_types")),
                        new HashSet<>((List<String>) r.get("event_types")),
                        condition,
                        r.longValue("action_object_id")));
            }
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        return List.copyOf(rules);
    }
}
