package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.UUID;

/**
 * One change of one object, as the model engine reports it to {@link ChangeLogWriter}.
 *
 * @param userId            the acting user's id, null when unknown or not a stored user
 * @param userName          the acting user's name (kept when the user is deleted later)
 * @param requestId         the X-Request-ID of the API request making the change
 * @param action            create, update or delete
 * @param objectType        content type of the changed object, e.g. {@code dcim.site}
 * @param objectId          primary key of the changed object
 * @param objectRepr        {@code str()} of the object; cut to 200 characters as NetBox does
 * @param message           the request's changelog_message ("" when none; at most 200 characters,
 *                          which the engine validates as a field error before writing)
 * @param prechange         NetBox snapshot before the change, null for a create
 * @param postchange        NetBox snapshot after the change, null for a delete
 * @param eventData         the object's REST representation for the change event (relative URLs;
 *                          for a delete, its last state)
 * @param relatedObjectType content type of the object this one belongs to (a component's device),
 *                          or null
 * @param relatedObjectId   primary key of that object, or null
 * @param requestMethod     the HTTP method of the request that made the change, null when no
 *                          request did
 * @param requestPath       that request's path (without the query), null when no request did
 */
public record ChangeRecord(
        Long userId,
        String userName,
        UUID requestId,
        ChangeAction action,
        String objectType,
        long objectId,
        String objectRepr,
        String message,
        JsonNode prechange,
        JsonNode postchange,
        JsonNode eventData,
        String relatedObjectType,
        Long relatedObjectId,
        String requestMethod,
        String requestPath) {

    static final int MAX_REPR = 200;
    static final int MAX_MESSAGE = 200;

    public ChangeRecord {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(objectType, "objectType");
        Objects.requireNonNull(eventData, "eventData");
        userName = userName == null ? "" : userName;
        objectRepr = objectRepr == null ? "" : truncate(objectRepr, MAX_REPR);
        message = message == null ? "" : message;
        if (message.length() > MAX_MESSAGE) {
            throw new IllegalArgumentException("changelog message longer than " + MAX_MESSAGE + " characters");
        }
        if ((relatedObjectType == null) != (relatedObjectId == null)) {
            throw new IllegalArgumentException("related object type and id go together");
        }
    }

    /** A change of an object that may belong to another object, no request named. */
    public ChangeRecord(
            Long userId,
            String userName,
            UUID requestId,
            ChangeAction action,
            String objectType,
            long objectId,
            String objectRepr,
            String message,
            JsonNode prechange,
            JsonNode postchange,
            JsonNode eventData,
            String relatedObjectType,
            Long relatedObjectId) {
        this(
                userId,
                userName,
                requestId,
                action,
                objectType,
                objectId,
                objectRepr,
                message,
                prechange,
                postchange,
                eventData,
                relatedObjectType,
                relatedObjectId,
                null,
                null);
    }

    /** A change of an object that belongs to no other object (the common case). */
    public ChangeRecord(
            Long userId,
            String userName,
            UUID requestId,
            ChangeAction action,
            String objectType,
            long objectId,
            String objectRepr,
            String message,
            JsonNode prechange,
            JsonNode postchange,
            JsonNode eventData) {
        this(
                userId,
                userName,
                requestId,
                action,
                objectType,
                objectId,
                objectRepr,
                message,
                prechange,
                postchange,
                eventData,
                null,
                null,
                null,
                null);
    }

    private static String truncate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }
}
