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
    default void beforeWrite(Row changes, Row existing, Map<String, List<String>> errors) {}

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
     * Writes a save makes to other objects (NetBox's save() writing related objects, e.g. a
     * cable's terminations), run after the save's own change record, in its transaction, through
     * the engine (validated, with their own change records); then the saved object is rendered
     * again. Runs on create and update; {@code changes} still holds the
     * {@link Field#requestOnly() request-only} values the request sent.
     */
    default List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
        return List.of();
    }

    /**
     * Work after rows of this model were deleted (the requested ones or cascaded), in the
     * delete's transaction, after the delete's change records: e.g. derived data to rewrite.
     * Returns writes to other, still existing objects (their change records follow).
     */
    default List<FollowUp> afterDelete(Queries db, List<Row> deleted) {
        return List.of();
    }

    /** What a follow-up does. */
    enum Action {
        CREATE,
        PATCH,
        DELETE
    }

    /**
     * A write of object {@code id} of {@code contentType} (ignored for a CREATE): field name to
     * value, as a request body gives it (none for a DELETE).
     */
    record FollowUp(Action action, String contentType, long id, Map<String, Object> changes) {
        /** A PATCH. */
        public FollowUp(String contentType, long id, Map<String, Object> changes) {
            this(Action.PATCH, contentType, id, changes);
        }

        public static FollowUp create(String contentType, Map<String, Object> body) {
            return new FollowUp(Action.CREATE, contentType, 0, body);
        }

        public static FollowUp delete(String contentType, long id) {
            return new FollowUp(Action.DELETE, contentType, id, Map.of());
        }

        /** A PATCH changing nothing: the object is saved again (last_updated, change record, event). */
        public static FollowUp touch(String contentType, long id) {
            return new FollowUp(Action.PATCH, contentType, id, Map.of());
        }
    }

    /**
     * Before rows of this model are deleted (the requested ones or cascaded), in the delete's
     * transaction: writes to other objects that the delete changes through rows the engine does
     * not follow (a rear port's front ports lose their port mappings to it). They run after the
     * delete's change records, like {@link #afterDelete}'s; one whose object goes in the same
     * delete is dropped.
     */
    default List<FollowUp> beforeDelete(Queries db, List<Row> deleted) {
        return List.of();
    }

    /**
     * A hook that also acts on each row as stored, right after it is written and before its
     * change record is made and the response is rendered. The engine reads the written rows back
     * for these hooks only, so a bulk create of a model that has none costs no extra read.
     */
    interface OnWrittenRow extends WriteHook {
        /**
         * Rows the object owns besides its own (NetBox's writable nested serializers: a front
         * port's port mappings) are written here, so that the object's change record and the
         * response show them.
         *
         * @param db       queries in the write's transaction
         * @param written  the row as stored now
         * @param changes  the column values that were written (request-only values included)
         * @param existing the row before the write, {@code null} on create
         * @return writes to other objects, run after the object's change record as those of
         *     {@link #afterSave}
         */
        List<FollowUp> afterWrite(Queries db, Row written, Row changes, Row existing);
    }
}
