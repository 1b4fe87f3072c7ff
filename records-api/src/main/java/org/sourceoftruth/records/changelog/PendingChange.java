package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import org.sourceoftruth.model.ChangeEvent;

import java.time.OffsetDateTime;
import java.util.UUID;

/** A change-log row the relay has yet to publish, and the event it becomes. */
record PendingChange(
        long id,
        UUID changeId,
        OffsetDateTime time,
        String userName,
        UUID requestId,
        String action,
        String objectType,
        long objectId,
        JsonNode eventData,
        JsonNode prechange,
        JsonNode postchange) {

    ChangeEvent toEvent() {
        return new ChangeEvent(changeId, id, ChangeEvent.eventForAction(action), objectType, objectId, time,
                userName, requestId.toString(), eventData, new ChangeEvent.Snapshots(prechange, postchange));
    }
}
