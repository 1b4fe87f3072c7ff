package org.sourceoftruth.records.changelog;

import java.util.List;

/**
 * Told of the changes {@link ChangeLogWriter} records, inside the write's transaction, after
 * their change-log rows are written: work that must commit (or roll back) with the change
 * itself, such as the notifications of event rules. An exception undoes the whole write.
 */
public interface ChangeObserver {
    /**
     * @param changes the changes just recorded, each with its action as recorded: a second
     *                change of an object in one request keeps the first action unless it is a
     *                delete (a create then an update is still a create)
     */
    void recorded(List<Recorded> changes);

    /** One recorded change and its net action in the request. */
    record Recorded(ChangeRecord change, ChangeAction action) {}
}
