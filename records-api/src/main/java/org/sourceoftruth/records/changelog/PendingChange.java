package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/**
 * A change-log row the relay has yet to publish, and the event it becomes (with the request that
 * made the change, when one did). Its JSON columns stay
 * the text PostgreSQL sent (valid JSON, as jsonb output always is) and go into the event as they
 * are: parsing them only to write them out again was a tenth of records-api's CPU on a write.
 */
record PendingChange(
        long id,
        UUID changeId,
        OffsetDateTime time,
        String userName,
        UUID requestId,
        String action,
        String objectType,
        long objectId,
        String eventData,
        String prechange,
        String postchange,
        String requestMethod,
        String requestPath,
        Long rulesVersion) {

    /** The event, its data and snapshots written out verbatim (see {@link EventEncoder#parsed}). */
    ChangeEvent toEvent() {
        return new ChangeEvent(
                changeId,
                id,
                ChangeEvent.eventForAction(action),
                objectType,
                objectId,
                time,
                userName,
                requestId.toString(),
                raw(eventData),
                new ChangeEvent.Snapshots(raw(prechange), raw(postchange)),
                requestMethod == null
                        ? null
                        : new ChangeEvent.Request(requestId.toString(), requestMethod, requestPath, userName),
                rulesVersion);
    }

    private static JsonNode raw(String json) {
        return json == null ? null : Json.MAPPER.getNodeFactory().rawValueNode(new RawValue(json));
    }
}
