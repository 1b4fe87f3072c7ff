package org.sourceoftruth.records.model;

import java.util.List;
import java.util.Map;

/**
 * Model-specific work around a write that a declaration cannot express (NetBox puts it in
 * serializers and save()): filling in generated values, or checks that need the stored row.
 * Both methods run inside the write transaction; throwing an API exception undoes the write.
 */
public interface WriteHook {
    /**
     * After the payload is read, before uniqueness checks and the write.
     *
     * @param changes  column values about to be written; the hook may add or change entries
     * @param existing the stored row on update, {@code null} on create
     * @param errors   add field errors here to reject the write with a 400
     */
    default void beforeWrite(Row changes, Row existing, Map<String, List<String>> errors) {
    }

    /**
     * After the row is written (and before the response is rendered).
     *
     * @param written  the row as stored now
     * @param changes  the column values that were written
     * @param existing the row before the write, {@code null} on create
     */
    default void afterWrite(Row written, Row changes, Row existing) {
    }

    /**
     * Changes a create makes to other objects (NetBox's post_save signals, e.g. a new virtual
     * chassis taking its master as a member): each is applied after the create's own change
     * record, in its transaction, as a PATCH through the engine (validated, permission-checked,
     * with its own change record); then the created object is rendered again.
     *
     * @param db      queries in the create's transaction
     * @param created the row as stored
     */
    default List<FollowUp> afterCreate(Queries db, Row created) {
        return List.of();
    }

    /**
     * Changes an update makes to other objects (NetBox's save() of a rack type re-saving its
     * racks), applied as {@link #afterCreate}'s are, after the update's own change record.
     *
     * @param db       queries in the update's transaction
     * @param written  the row as stored now
     * @param existing the row before the update
     */
    default List<FollowUp> afterUpdate(Queries db, Row written, Row existing) {
        return List.of();
    }

    /** A PATCH of object {@code id} of {@code contentType}: field name to value, as a request body gives it. */
    record FollowUp(String contentType, long id, Map<String, Object> changes) {
    }
}
